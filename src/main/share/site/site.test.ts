// `proctor export html` on real run folders written by the store: the page, the data files and the files below
// files/ are written; each screenshot is put once (never inlined in the data, never twice); the page loads its
// scripts as classic ones (file:// refuses modules); paths a run names outside its own folder are refused.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteIndex, SiteTaskData } from '../../../shared/static-site';
import { png, proctorRun } from './testing/proctor-run';
import { fileChecker } from './site-files';
import { classicScript, sitePage } from './site-assets';
import { exportSite } from './site';

let tmp: string;
let uiDir: string;

/** A built UI of the shape Vite writes (one module chunk, a crossorigin stylesheet, the CSP meta). */
function fakeUi(dir: string): void {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self'" />
    <script type="module" crossorigin src="./assets/index-abc.js"></script>
    <link rel="stylesheet" crossorigin href="./assets/index-abc.css"></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'const x = 1; document.title = String(x);\n');
  writeFileSync(join(dir, 'assets', 'index-abc.css'), 'body{}\n');
}

/** What a data file hands the site's loader, read in a bare VM context (the files are our own output). */
function dataOf<T>(file: string): { key: string; value: T } {
  let got: { key: string; value: T } | undefined;
  runInNewContext(readFileSync(file, 'utf8'), {
    window: { __proctorSiteLoad: (key: string, value: T) => (got = { key, value }) },
  });
  if (!got) throw new Error(`${file} handed nothing to the loader`);
  return got;
}

const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesBelow(join(dir, e.name)) : [join(dir, e.name)],
  );

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'proctor-site-'));
  uiDir = join(tmp, 'ui');
  fakeUi(uiDir);
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('proctor export html', () => {
  it('writes the page, the run list, one data file per run and task, and each screenshot once', async () => {
    const { runDir, keys } = await proctorRun(join(tmp, 'runs'), 3, 4);
    const out = join(tmp, 'site');
    const r = await exportSite([join(tmp, 'runs')], out, { uiDir, copy: true });
    expect(r).toMatchObject({ runs: 1, tasks: 3, refused: [] });

    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).not.toContain('type="module"');
    expect(page).not.toContain('crossorigin');
    expect(page.indexOf('./data/site.js')).toBeLessThan(page.indexOf('./assets/index-abc.js'));
    expect(readFileSync(join(out, 'assets', 'index-abc.js'), 'utf8')).toMatch(
      /^\(function\(\)\{"use strict";/,
    );

    const win: { __proctorSite?: SiteIndex } = {};
    runInNewContext(readFileSync(join(out, 'data', 'site.js'), 'utf8'), { window: win });
    const site = win.__proctorSite!;
    expect(site.runs.map((x) => x.path)).toEqual([relative(tmp, runDir)]);
    expect(site.index[0].tasks).toEqual(keys);

    // Every file a trajectory names is in the site, below files/ at the same path; nothing else is there.
    const named = new Set<string>();
    for (let j = 0; j < keys.length; j++) {
      const { key, value } = dataOf<SiteTaskData>(join(out, 'data', 'runs', '0', `${j}.js`));
      expect(key).toBe(`run/0/${j}`);
      expect(value.trajectory.taskKey).toBe(keys[j]);
      expect(value.trajectory.steps).toHaveLength(4);
      for (const s of value.trajectory.steps)
        for (const p of [s.observation, s.screenshot]) if (p) named.add(p);
    }
    const put = filesBelow(join(out, 'files')).map((f) => relative(join(out, 'files'), f));
    expect(put.sort()).toEqual([...named].sort());
    expect(r.files).toBe(put.length);
    expect(r.screenshots).toBe(put.length);
    for (const p of put) expect(readFileSync(join(out, 'files', p))).toEqual(readFileSync(join(tmp, p)));
    // Referenced, never inlined: no image bytes in any data file, and the whole site is about the files' size.
    for (const f of filesBelow(join(out, 'data')))
      expect(readFileSync(f, 'utf8')).not.toMatch(/data:image|iVBORw0KGgo/);
    const shots = put.reduce((n, p) => n + statSync(join(out, 'files', p)).size, 0);
    expect(r.bytes).toBeGreaterThanOrEqual(shots);
    const stats = dataOf<{ stats: { overall: { tasks: number } } }>(join(out, 'data', 'runs', '0.js')).value
      .stats;
    expect(stats.overall.tasks).toBe(3);
  });

  it('hard-links the files when it can, and replaces an earlier export but no other folder', async () => {
    const out = join(tmp, 'site');
    const r = await exportSite([join(tmp, 'runs')], out, { uiDir });
    expect(r.linked).toBe(r.files);
    const one = filesBelow(join(out, 'files'))[0];
    expect(lstatSync(one).nlink).toBeGreaterThan(1);
    const other = join(tmp, 'not-a-site');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    await expect(exportSite([join(tmp, 'runs')], other, { uiDir })).rejects.toThrow(
      /not empty and is no earlier/,
    );
    expect(readFileSync(join(other, 'notes.txt'), 'utf8')).toBe('mine');
  });

  it('refuses files a foreign run names outside its own folder (paths with .., absolute, symlinks out)', async () => {
    const root = join(tmp, 'foreign');
    const runDir = join(root, 'osworld-run');
    const task = join(runDir, 'chrome', 'abc');
    mkdirSync(task, { recursive: true });
    const secret = join(tmp, 'secret.png');
    writeFileSync(secret, 'SECRET-BYTES');
    writeFileSync(join(task, 'step_1.png'), await png(1));
    symlinkSync(secret, join(task, 'step_2.png'));
    writeFileSync(join(task, 'result.txt'), '1\n');
    const line = (n: number, shot: string) =>
      JSON.stringify({
        step_num: n,
        action_timestamp: `20261122@10000${n}`,
        action: 'pyautogui.click(1, 2)',
        response: '',
        reward: 0,
        done: n === 3,
        screenshot_file: shot,
      });
    writeFileSync(
      join(task, 'traj.jsonl'),
      [line(1, 'step_1.png'), line(2, 'step_2.png'), line(3, '../../../secret.png')].join('\n') + '\n',
    );

    const out = join(tmp, 'foreign-site');
    const r = await exportSite([runDir], out, { uiDir });
    expect(r.runs).toBe(1);
    const put = filesBelow(join(out, 'files'));
    expect(put.map((f) => relative(join(out, 'files'), f))).toEqual(['osworld-run/chrome/abc/step_1.png']);
    for (const f of filesBelow(out)) expect(readFileSync(f, 'utf8')).not.toContain('SECRET-BYTES');

    // The exporter's own check, whatever a reader let through.
    const check = fileChecker(runDir, runDir);
    const checks = [
      'chrome/abc/step_2.png',
      '../secret.png',
      '/etc/passwd',
      'chrome/../../secret.png',
      'chrome/abc/step_1.png',
    ].map(check);
    expect(checks.map((c) => ('file' in c ? 'ok' : c.why.split(' ')[0]))).toEqual([
      'outside',
      'not',
      'not',
      'not',
      'ok',
    ]);
  });

  it("refuses, and lists, the files a tampered Proctor run's steps name outside the run", async () => {
    const { runDir } = await proctorRun(join(tmp, 'tampered'), 1, 3);
    const secret = join(tmp, 'tampered-secret.png');
    writeFileSync(secret, 'SECRET-BYTES');
    const steps = filesBelow(runDir).find((f) => f.endsWith('steps.jsonl'))!;
    const lines = readFileSync(steps, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { screenshot?: string });
    // Step 1 names a file above the run; step 2's screenshot becomes a symlink out of it.
    lines[0].screenshot = '../../../../../../tampered-secret.png';
    const linked = join(runDir, lines[1].screenshot!);
    rmSync(linked);
    symlinkSync(secret, linked);
    writeFileSync(steps, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

    const r = await exportSite([runDir], join(tmp, 'tampered-site'), { uiDir });
    for (const f of filesBelow(join(tmp, 'tampered-site')))
      expect(readFileSync(f, 'utf8')).not.toContain('SECRET-BYTES');
    expect(r.refused.map((f) => f.why.split(' ')[0]).sort()).toEqual(['not', 'outside']);
    expect(r.refused.every((f) => f.task === 'chromium/t1')).toBe(true);
    expect(filesBelow(join(tmp, 'tampered-site', 'files')).length).toBeGreaterThan(0);
  });

  it('makes a module chunk a classic script and refuses a chunk that imports', () => {
    expect(classicScript('let a = 1;', 'x.js')).toBe('(function(){"use strict";\nlet a = 1;\n})();\n');
    expect(() => classicScript('import { a } from "./b.js";\n', 'x.js')).toThrow(
      /x\.js: the UI chunk imports/,
    );
    expect(() => sitePage('<html><head></head></html>')).toThrow(/no Content-Security-Policy/);
    expect(existsSync(join(uiDir, 'index.html'))).toBe(true);
  });
});
