// Tasks read where the benchmark keeps them: a Spider2-V checkout's files found beside each task (in place, never
// copied), OSWorld's downloads looked up in a downloads folder, and validate --check-assets saying which tasks
// have theirs — on a checkout written here, and on the twelve Spider2-V spreadsheet tasks of ../shared.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { needsShared, sharedFixtures } from '../testing/shared-fixtures';
import { assetReport } from './asset-report';
import { taskAssets } from './assets';
import { goldFilesOf, noGoldReason } from './gold';
import { loadTasks, readTaskFile } from './reader';
import {
  OSWORLD_IDS,
  URL_BASE,
  osworldUrl,
  writeCheckout,
  type Checkout,
} from './testing/benchmark-checkout';

async function call(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (l) => (out += l + '\n'), err: (l) => (err += l + '\n') });
  return { code, out, err };
}

const TWELVE = [
  'ba429e57',
  '4172ea6e',
  '091e73b3',
  '21ab7b40',
  'c3a002da',
  '1954cced',
  '428da721',
  '3a7c8185',
  '87a7e6b0',
  '5f8601f8',
  '0f0ee112',
  'de7a24c3',
];
const full = sharedFixtures();
const excel = full ? join(full.spider2vExamples, 'excel') : '';
const haveShared = !!full && existsSync(excel);
const twelveDirs = haveShared
  ? readdirSync(excel)
      .filter((d) => TWELVE.some((p) => d.startsWith(p)))
      .map((d) => join(excel, d))
  : [];

describe('task assets in place', () => {
  let tmp: string;
  let co: Checkout;
  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'proctor-assets-'));
    co = await writeCheckout(join(tmp, 'Spider2-V'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it("finds a Spider2-V task's workbook and gold beside the task file, where setup and grading read them", async () => {
    const { task, problems } = await readTaskFile(co.spider2vTaskFile);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    const assets = await taskAssets(task!);
    expect(assets.map((a) => [a.pointer, a.status, a.host])).toEqual([
      ['/config/0/parameters/src', 'present', join(co.spider2vTaskDir, 'Loans.xlsx')],
      ['/evaluator/expected/path', 'present', join(co.spider2vTaskDir, 'Loans_gold.xlsx')],
    ]);
    const [gold] = goldFilesOf(task!);
    expect(gold).toMatchObject({
      guestPath: '/home/user/Loans.xlsx',
      source: { kind: 'local', path: join(co.spider2vTaskDir, 'Loans_gold.xlsx') },
      metric: 'compare_table',
    });
  });

  it('resolves a split file to the tasks it lists, and names the task file and pointer of a missing file', async () => {
    const gold = join(co.spider2vTaskDir, 'Loans_gold.xlsx');
    const all = await assetReport([co.splitFile]);
    expect(all.summary).toEqual({ tasks: 1, complete: 1, missing: 0, network: 0 });
    const saved = readFileSync(gold);
    unlinkSync(gold);
    try {
      const r = await assetReport([co.splitFile]);
      expect(r.summary).toEqual({ tasks: 1, complete: 0, missing: 1, network: 0 });
      expect(r.tasks[0].missing.map((a) => [a.pointer, a.ref])).toEqual([
        [
          '/evaluator/expected/path',
          `evaluation_examples/examples/excel/${co.spider2vTaskFile.split('/').at(-2)}/Loans_gold.xlsx`,
        ],
      ]);
      const v = await call(['validate', '--check-assets', co.splitFile]);
      expect(v.code).toBe(1);
      expect(v.out).toMatch(/assets: 0 of 1 task have all their assets here, 1 misses some/);
    } finally {
      writeFileSync(gold, saved);
    }
  });

  it("looks up OSWorld's downloads in the downloads folder, by the URL's name, and says which are missing", async () => {
    const { tasks } = await loadTasks([co.osworldTaskFiles[0]]);
    const offline = await taskAssets(tasks[0]);
    expect(offline.map((a) => [a.kind, a.status])).toEqual([
      ['download', 'network'],
      ['download', 'network'],
    ]);
    const downloads = join(tmp, 'downloads');
    mkdirSync(downloads, { recursive: true });
    writeFileSync(join(downloads, `${OSWORLD_IDS[0]}-book.xlsx`), 'x');
    const half = await taskAssets(tasks[0], { downloads });
    expect(half.map((a) => [a.pointer, a.status])).toEqual([
      ['/config/0/parameters/files/0/url', 'present'],
      ['/evaluator/expected/path', 'missing'],
    ]);
    expect(half[1].detail).toContain(`${URL_BASE}${OSWORLD_IDS[0]}-gold.xlsx`);
    writeFileSync(join(downloads, `${OSWORLD_IDS[0]}-gold.xlsx`), 'x');
    expect((await taskAssets(tasks[0], { downloads })).every((a) => a.status === 'present')).toBe(true);
    const v = await call(['validate', '--check-assets', '--downloads', downloads, ...co.osworldTaskFiles]);
    expect(v.out).toMatch(/assets: 1 of 3 tasks have all their assets here, 2 miss some/);
    // the task file as the command shows it (relative to the working folder where that is shorter)
    expect(v.out).toContain(
      `${relative(tmp, co.osworldTaskFiles[1])}:/config/0/parameters/files/0/url: error: asset missing: ${osworldUrl(OSWORLD_IDS[1], 'book')}`,
    );
    expect(v.code).toBe(1);
  });

  it('says why a task has no gold file for the gold oracle', async () => {
    const { task } = await readTaskFile(co.spider2vTaskFile);
    const noFile = {
      ...task!,
      checks: [
        {
          metric: 'check_include_exclude',
          options: {},
          pointer: '/evaluator',
          result: { type: 'vm_command_line' },
          expected: { type: 'rule' },
        },
      ],
    };
    expect(noGoldReason(noFile)).toMatch(
      /no check compares a guest file \(vm_file\) with a gold file.*check_include_exclude\(vm_command_line, rule\)/,
    );
    expect(noGoldReason(task!)).toBeUndefined();
  });

  it.skipIf(!haveShared)(
    `finds the files of the twelve Spider2-V spreadsheet tasks in ../shared in place${haveShared ? '' : ` (skipped: ${needsShared})`}`,
    async () => {
      expect(twelveDirs).toHaveLength(12);
      const r = await assetReport(twelveDirs);
      expect(r.summary).toEqual({ tasks: 12, complete: 12, missing: 0, network: 0 });
      for (const t of r.tasks) {
        const { task } = await readTaskFile(t.file);
        const golds = goldFilesOf(task!);
        expect(golds.length, t.file).toBeGreaterThan(0);
        for (const g of golds)
          expect(
            g.source.kind === 'local' && resolve(g.source.path).startsWith(resolve(excel)),
            g.pointer,
          ).toBe(true);
      }
    },
  );
});
