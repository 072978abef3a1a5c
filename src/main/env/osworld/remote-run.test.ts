// `proctor run --env osworld://…` of an OSWorld-shaped task whose setup downloads, executes, opens a file,
// starts the browser and opens and closes tabs, and writes Chrome's history — over the protocol, against
// `proctor env serve`'s server on a sandbox display, with the files it would download supplied in a
// `--downloads` folder (nothing is fetched). A URL missing from that folder fails the setup, naming the URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { missingDemoPrograms, runProctor } from '../../demo/testing-env';
import { startGuestServer, type GuestServer } from '../../guest-server';
import { createLocalEnvironment } from '../local';
import { EMPTY_HISTORY_URL } from '../../setup/browser-funcs';
import { freePort } from '../../free-port';
import { removeTree } from '../remove-tree';

const missing = missingDemoPrograms();
const why = missing.length ? `needs ${missing.join(', ')}` : '';

const DATA_URL = 'https://files.example.invalid/datasets/sales%20Q1.csv';
const MISSING_URL = 'https://files.example.invalid/datasets/not-supplied.xlsx';

async function emptyHistory(): Promise<Buffer> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  db.exec(`CREATE TABLE urls (id INTEGER PRIMARY KEY AUTOINCREMENT, url LONGVARCHAR, title LONGVARCHAR, visit_count INTEGER DEFAULT 0 NOT NULL,
             typed_count INTEGER DEFAULT 0 NOT NULL, last_visit_time INTEGER NOT NULL, hidden INTEGER DEFAULT 0 NOT NULL);
           CREATE TABLE visits (id INTEGER PRIMARY KEY AUTOINCREMENT, url INTEGER NOT NULL, visit_time INTEGER NOT NULL, from_visit INTEGER,
             transition INTEGER DEFAULT 0 NOT NULL, segment_id INTEGER, visit_duration INTEGER DEFAULT 0 NOT NULL);`);
  const bytes = Buffer.from(db.export());
  db.close();
  return bytes;
}

function summaryOf(outDir: string): { state?: string; score?: number; text: string } {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (['summary.json', 'verdicts.jsonl', 'events.jsonl'].includes(e.name))
        files.push(join(d, e.name));
    }
  };
  walk(outDir);
  const summary = files.find((f) => f.endsWith('summary.json'));
  const results = summary
    ? (JSON.parse(readFileSync(summary, 'utf8')) as { results?: { state?: string; score?: number } }).results
    : undefined;
  return {
    state: results?.state,
    score: results?.score,
    text: files.map((f) => readFileSync(f, 'utf8')).join('\n'),
  };
}

describe.skipIf(!!why)(`proctor run over the OSWorld protocol ${why}`, () => {
  let root: string;
  let guest: GuestServer;
  let pages: Server;
  let pageBase: string;
  let devtoolsPort: number;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'proctor-remote-run-test-'));
    pages = createServer((req, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<title>page ${req.url}</title><h1>${req.url}</h1>`),
    );
    await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
    pageBase = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    devtoolsPort = await freePort();
    guest = await startGuestServer({
      createEnvironment: () => createLocalEnvironment({ width: 1280, height: 800 }),
      port: 0,
      openWaitMs: 8000,
    });

    const downloads = join(root, 'downloads');
    mkdirSync(downloads);
    writeFileSync(join(downloads, 'sales Q1.csv'), 'region,total\nEast,10\nWest,20\n'); // found by the URL's name
    writeFileSync(join(downloads, 'history-seed.sqlite'), await emptyHistory());
    writeFileSync(
      join(downloads, 'downloads.json'),
      JSON.stringify({ [EMPTY_HISTORY_URL]: 'history-seed.sqlite' }),
    );

    const check = [
      'cat ~/lines.txt',
      `python3 -c "import urllib.request,json; print(sorted(p['url'] for p in json.load(urllib.request.urlopen('http://127.0.0.1:${devtoolsPort}/json/list')) if p['type']=='page'))"`,
      "sqlite3 ~/.config/google-chrome/Default/History 'select url, title from urls'",
    ].join('; ');
    const task = (id: string, extra: object[]) => ({
      id,
      snapshot: 'chrome',
      instruction: 'A setup-only task of the protocol test.',
      source: 'proctor test',
      config: [
        {
          type: 'download',
          parameters: { files: [{ url: DATA_URL, path: '/home/user/Desktop/sales.csv' }] },
        },
        {
          type: 'execute',
          parameters: {
            command: ['sh', '-c', 'wc -l < /home/user/Desktop/sales.csv > /home/user/lines.txt'],
          },
        },
        { type: 'open', parameters: { path: '/home/user/Desktop/sales.csv' } },
        {
          type: 'launch',
          parameters: { command: ['google-chrome', `--remote-debugging-port=${devtoolsPort}`] },
        },
        {
          type: 'chrome_open_tabs',
          parameters: { urls_to_open: [`${pageBase}/one`, `${pageBase}/two`, `${pageBase}/three`] },
        },
        { type: 'chrome_close_tabs', parameters: { urls_to_close: [`${pageBase}/two`] } },
        {
          type: 'update_browse_history',
          parameters: {
            history: [
              {
                url: 'https://www.example.org/visited',
                title: 'Visited page',
                visit_time_from_now_in_seconds: 3600,
              },
            ],
          },
        },
        ...extra,
      ],
      related_apps: ['chrome'],
      evaluator: {
        func: 'check_include_exclude',
        result: { type: 'vm_command_line', command: check, shell: true },
        expected: {
          type: 'rule',
          rules: {
            include: [
              '3',
              `${pageBase}/one`,
              `${pageBase}/three`,
              'https://www.example.org/visited|Visited page',
            ],
            exclude: [`${pageBase}/two`],
          },
        },
      },
    });
    mkdirSync(join(root, 'tasks', 'chrome'), { recursive: true });
    writeFileSync(
      join(root, 'tasks', 'chrome', '0d8f1a52-1111-4c5e-9a4a-5a0f3b2c1d01.json'),
      JSON.stringify(task('0d8f1a52-1111-4c5e-9a4a-5a0f3b2c1d01', [])),
    );
    mkdirSync(join(root, 'broken', 'chrome'), { recursive: true });
    writeFileSync(
      join(root, 'broken', 'chrome', '0d8f1a52-2222-4c5e-9a4a-5a0f3b2c1d02.json'),
      JSON.stringify(
        task('0d8f1a52-2222-4c5e-9a4a-5a0f3b2c1d02', [
          { type: 'download', parameters: { files: [{ url: MISSING_URL, path: '/home/user/x.xlsx' }] } },
        ]),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await guest?.close();
    await new Promise((r) => pages?.close(r));
    await removeTree(root);
  });

  it("runs the task's setup over the protocol from the downloads folder, and grades it there", async () => {
    const spec = `osworld://127.0.0.1:${guest.port}?browser=${encodeURIComponent(`http://127.0.0.1:${devtoolsPort}`)}`;
    const out = join(root, 'out');
    const r = await runProctor(
      [
        'run',
        join(root, 'tasks'),
        '--agent',
        'noop',
        '--env',
        spec,
        '--downloads',
        join(root, 'downloads'),
        '--out',
        out,
        '--json',
      ],
      240_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const s = summaryOf(out);
    expect(s.state, s.text).toBe('success');
    expect(s.score, s.text).toBe(1);
  }, 300_000);

  it('fails the setup naming a URL the downloads folder does not hold (nothing is fetched)', async () => {
    const spec = `osworld://127.0.0.1:${guest.port}?browser=${encodeURIComponent(`http://127.0.0.1:${devtoolsPort}`)}`;
    const out = join(root, 'out-broken');
    const r = await runProctor(
      [
        'run',
        join(root, 'broken'),
        '--agent',
        'noop',
        '--env',
        spec,
        '--downloads',
        join(root, 'downloads'),
        '--out',
        out,
        '--json',
      ],
      240_000,
    );
    expect(r.code, r.stderr).toBe(0);
    const s = summaryOf(out);
    expect(s.state).toBe('setup_error');
    expect(s.text).toContain(MISSING_URL);
    expect(s.text).toMatch(/save it there as not-supplied\.xlsx/);
  }, 300_000);
});
