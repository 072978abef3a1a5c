// `proctor doctor`: what this machine lacks to run each task (an app, an account, a download, an asset) and the
// count runnable here, on a benchmark checkout written here (Spider2-V and OSWorld shapes).
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { diagnoseTasks, formatDoctor } from './doctor';
import { loadTasks } from './reader';
import {
  OSWORLD_IDS,
  SPIDER2V_ID,
  osworldUrl,
  spider2vTask,
  writeCheckout,
  type Checkout,
} from './testing/benchmark-checkout';

async function call(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (l) => (out += l + '\n'), err: (l) => (err += l + '\n') });
  return { code, out, err };
}

describe('proctor doctor', () => {
  let tmp: string;
  let co: Checkout;
  let downloads: string;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'proctor-doctor-'));
    co = await writeCheckout(join(tmp, 'bench'));
    downloads = join(tmp, 'downloads');
    mkdirSync(downloads);
    // By the URL's name, and (Google Drive URLs name nothing) through downloads.json.
    for (const f of ['book', 'gold']) writeFileSync(join(downloads, `${OSWORLD_IDS[0]}-${f}.xlsx`), 'x');
    for (const f of ['book', 'gold']) writeFileSync(join(downloads, `drive-${f}.xlsx`), 'x');
    writeFileSync(
      join(downloads, 'downloads.json'),
      JSON.stringify({
        [osworldUrl(OSWORLD_IDS[1], 'book')]: 'drive-book.xlsx',
        [osworldUrl(OSWORLD_IDS[1], 'gold')]: 'drive-gold.xlsx',
      }),
    );
    // A Spider2-V task that needs a Snowflake account, beside the excel one.
    const acct = join(
      co.root,
      'evaluation_examples',
      'examples',
      'excel',
      'acc0unt0-0000-4000-8000-000000000000',
    );
    mkdirSync(acct, { recursive: true });
    const t = spider2vTask('acc0unt0-0000-4000-8000-000000000000');
    (t.config as unknown[]).unshift({ type: 'snowflake_init', parameters: {} });
    writeFileSync(join(acct, 'acc0unt0-0000-4000-8000-000000000000.json'), JSON.stringify(t));
    for (const f of ['Loans.xlsx', 'Loans_gold.xlsx'])
      writeFileSync(join(acct, f), readFileSync(join(co.spider2vTaskDir, f)));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('lists per task the app, account, download and asset it lacks, and counts the runnable ones', async () => {
    const { tasks } = await loadTasks([join(co.root, 'evaluation_examples', 'examples')]);
    expect(tasks).toHaveLength(5);
    const excelHere = (app: string) => (app === 'no_such_app_here' ? `app not installed: ${app}` : undefined);
    const offline = await diagnoseTasks(tasks, { appCheck: excelHere });
    const by = new Map(offline.tasks.map((d) => [d.key.split('/')[1], d]));
    expect(by.get(SPIDER2V_ID)).toMatchObject({ runnable: true, lacks: [] });
    expect(by.get('acc0unt0-0000-4000-8000-000000000000')!.lacks.map((l) => [l.kind, l.name])).toEqual([
      ['account', 'snowflake'],
    ]);
    expect(by.get(OSWORLD_IDS[0])!.lacks.map((l) => [l.kind, l.pointer])).toEqual([
      ['download', '/config/0/parameters/files/0/url'],
      ['download', '/evaluator/expected/path'],
    ]);
    expect(by.get(OSWORLD_IDS[2])!.lacks.map((l) => l.kind)).toEqual(['app', 'download', 'download']);
    expect(offline.summary).toEqual({ tasks: 5, runnable: 1, lacking: { account: 1, download: 3, app: 1 } });

    const online = await diagnoseTasks(tasks, { appCheck: excelHere, downloads });
    expect(online.summary).toEqual({ tasks: 5, runnable: 3, lacking: { account: 1, download: 1, app: 1 } });
    const lines = formatDoctor(online);
    expect(lines.at(-1)).toBe(
      '3 of 5 tasks runnable here (1 lacks an account, 1 lacks an application, 1 lacks a download)',
    );
    expect(lines).toContain(
      `libreoffice_calc/${OSWORLD_IDS[2]}: lacks app no_such_app_here, download https://files.example.invalid/osworld/${OSWORLD_IDS[2]}-book.xlsx at /config/0/parameters/files/0/url, download https://files.example.invalid/osworld/${OSWORLD_IDS[2]}-gold.xlsx at /evaluator/expected/path`,
    );
  });

  it('names a missing asset with its task file and pointer, through the command line, and --json', async () => {
    const gold = join(co.spider2vTaskDir, 'Loans_gold.xlsx');
    const saved = readFileSync(gold);
    unlinkSync(gold);
    try {
      const text = await call(['doctor', '--verbose', co.splitFile]);
      expect(text.code).toBe(1);
      expect(text.out).toContain(
        `excel/${SPIDER2V_ID}: lacks asset Loans_gold.xlsx at /evaluator/expected/path`,
      );
      expect(text.out).toContain(
        `${co.spider2vTaskFile}:/evaluator/expected/path: evaluation_examples/examples/excel/${SPIDER2V_ID}/Loans_gold.xlsx is missing (looked for ${gold})`,
      );
      expect(text.out).toMatch(/0 of 1 task runnable here \(1 lacks an asset\)/);
      const json = await call([
        'doctor',
        '--json',
        '--downloads',
        downloads,
        ...co.osworldTaskFiles.slice(0, 2),
      ]);
      const r = JSON.parse(json.out) as {
        summary: { tasks: number; runnable: number };
        tasks: { runnable: boolean; lacks: { kind: string }[] }[];
      };
      expect(r.summary).toMatchObject({ tasks: 2 });
      // libreoffice_calc is checked on this machine's PATH; the downloads are all there
      expect(r.tasks.flatMap((t) => t.lacks.map((l) => l.kind)).filter((k) => k !== 'app')).toEqual([]);
    } finally {
      writeFileSync(gold, saved);
    }
    const ok = await call(['doctor', co.splitFile]);
    expect(ok.out.trim().split('\n').at(-1)).toBe('1 of 1 task runnable here');
  });

  it('refuses an unknown option with the closest known one', async () => {
    const r = await call(['doctor', '--downlaods', 'x', co.splitFile]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/unknown option '--downlaods' \(closest known: '--downloads'\)/);
  });
});
