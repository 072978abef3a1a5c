// Submission bundles end to end: a real run (the demo's terminal tasks on a sandbox display, and a display-free
// run on a shell environment), `proctor bundle`, then `proctor verify` on the fresh bundle and on tampered copies.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main';
import { projectRoot } from '../demo/paths';
import { missingDemoPrograms, runProctor } from '../demo/testing-env';
import { sha256File } from './hashing';
import type { BundleManifest } from './bundle';
import { shellRun } from './testing/shell-run';

const tmp = mkdtempSync(join(tmpdir(), 'proctor-bundle-test-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function proctor(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let n = 0;
/** Unpacks a bundle with the system's tar, lets `edit` change files, and packs it again with tar. */
function tampered(bundle: string, edit: (dir: string) => void): string {
  const dir = join(tmp, `edit-${++n}`);
  mkdirSync(dir);
  execFileSync('tar', ['-xzf', bundle, '-C', dir]);
  edit(dir);
  const out = join(tmp, `tampered-${n}.tar.gz`);
  execFileSync('tar', ['-czf', out, '-C', dir, '.']);
  return out;
}

function flipByte(file: string, at?: number): void {
  const data = readFileSync(file);
  const i = at ?? Math.floor(data.length / 2);
  data[i] ^= 0x01;
  writeFileSync(file, data);
}

/** bundle.json re-written with the new hashes of the files changed, as a forger would. */
async function rehash(dir: string): Promise<void> {
  const m = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')) as BundleManifest;
  for (const f of m.files) f.sha256 = await sha256File(join(dir, f.path));
  writeFileSync(join(dir, 'bundle.json'), JSON.stringify(m, null, 2));
}

function taskDirs(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === 'result.txt') found.push(d);
    }
  };
  walk(dir);
  return found.sort();
}

const missing = missingDemoPrograms();
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';
const terminalTasks = ['246ccb60-7635-46fa-a222-6f4261e826ee', '48e74c8b-081c-4294-9402-fb511e790d36'].map(
  (id) => `resources/demo/terminal/${id}`,
);

describe.skipIf(missing.length > 0)(`bundle and verify a real run on a sandbox display${why}`, () => {
  let runDir: string;
  let bundle: string;
  beforeAll(async () => {
    const out = join(tmp, 'runs');
    const r = await runProctor(
      ['run', ...terminalTasks, '--agent', 'oracle', '--screen', '800x600', '--out', out],
      240_000,
    );
    expect(r.code, r.stdout + r.stderr).toBe(0);
    runDir = resolve(projectRoot, /^run folder: (.+)$/m.exec(r.stdout)![1]);
    bundle = join(tmp, 'demo.tar.gz');
    const b = await proctor('bundle', runDir, '--out', bundle);
    expect(b.code, b.err).toBe(0);
    expect(b.out).toMatch(/bundle: .*demo\.tar\.gz \([\d.]+ MB, \d+ files, 2 tasks, written in [\d.]+ s\)/);
  }, 300_000);

  it('holds the run, the task files beside their gold files, the environment and the report', () => {
    const names = execFileSync('tar', ['-tzf', bundle], { encoding: 'utf8' }).split('\n');
    expect(names).toContain('bundle.json');
    expect(names).toContain('report.txt');
    expect(names).toContain('tasks/terminal/246ccb60-7635-46fa-a222-6f4261e826ee/gold.csv');
    expect(names.filter((p) => /^run\/.*\/step_\d+_.*\.png$/.test(p)).length).toBeGreaterThan(2);
    const env = JSON.parse(
      execFileSync('tar', ['-xzOf', bundle, 'environment.json'], { encoding: 'utf8' }),
    ) as { run: { screen: unknown; gradingProfiles: string[] }; applications: Record<string, string | null> };
    expect(env.run.screen).toEqual({ width: 800, height: 600 });
    expect(env.run.gradingProfiles).toEqual(['native']);
    expect(env.applications.chromium).toMatch(/Chromium \d+/);
    expect(execFileSync('tar', ['-xzOf', bundle, 'report.txt'], { encoding: 'utf8' })).toMatch(/100\.0%/);
  });

  it('verifies a fresh bundle: every hash, and every task re-graded to its stored score', async () => {
    const v = await proctor('verify', bundle);
    expect(v.code, v.out + v.err).toBe(0);
    expect(v.out).toContain('re-graded 2 of 2 tasks from the stored artefacts');
    expect(v.out).toContain('OK: every hash');
  });

  it('fails after one changed byte in a screenshot, naming the screenshot', async () => {
    let shot = '';
    const bad = tampered(bundle, (dir) => {
      const task = taskDirs(join(dir, 'run'))[0];
      shot = readdirSync(task).find((f) => /^step_2_.*\.png$/.test(f))!;
      flipByte(join(task, shot), 200);
      shot = task.slice(dir.length + 1) + '/' + shot;
    });
    const v = await proctor('verify', bad);
    expect(v.code).toBe(1);
    expect(v.out).toMatch(
      new RegExp(`${shot.replace(/[.@]/g, '\\$&')}: SHA-256 .* differs from bundle\\.json`),
    );
  });

  it('fails after a changed result.txt, naming it — also when bundle.json is re-hashed to match', async () => {
    let resultFile = '';
    const edit = (dir: string) => {
      const task = taskDirs(join(dir, 'run'))[0];
      writeFileSync(join(task, 'result.txt'), '0');
      resultFile = task.slice(dir.length + 1) + '/result.txt';
    };
    const v = await proctor('verify', tampered(bundle, edit));
    expect(v.code).toBe(1);
    expect(v.out).toContain(`${resultFile}: SHA-256`);
    const forged = tampered(bundle, edit);
    const dir = join(tmp, `edit-${n}`);
    await rehash(dir);
    rmSync(forged);
    execFileSync('tar', ['-czf', forged, '-C', dir, '.']);
    const f = await proctor('verify', forged);
    expect(f.code).toBe(1);
    expect(f.out).not.toMatch(/SHA-256 \S+ differs/);
    expect(f.out).toContain(`${resultFile}: says 0; re-grading from the stored artefacts gives 1`);
  });

  it('fails after a changed task file, naming it, and against a published set that differs', async () => {
    const gold = 'tasks/terminal/246ccb60-7635-46fa-a222-6f4261e826ee/gold.csv';
    const v = await proctor(
      'verify',
      tampered(bundle, (dir) => writeFileSync(join(dir, gold), 'region,total_quantity\nEast,1\n')),
    );
    expect(v.code).toBe(1);
    expect(v.out).toContain(`${gold}: SHA-256`);
    expect(v.out).toMatch(/task set's hash .* differs/);

    const published = join(tmp, 'published', 'terminal');
    mkdirSync(published, { recursive: true });
    execFileSync('cp', ['-r', ...terminalTasks.map((t) => resolve(projectRoot, t)), published]);
    expect((await proctor('verify', bundle, '--tasks', join(tmp, 'published'))).code).toBe(0);
    const taskJson = join(
      published,
      '48e74c8b-081c-4294-9402-fb511e790d36',
      '48e74c8b-081c-4294-9402-fb511e790d36.json',
    );
    writeFileSync(
      taskJson,
      readFileSync(taskJson, 'utf8')
        .replace('"easy"', '"hard"')
        .replace('sorted by region', 'sorted by region.'),
    );
    const p = await proctor('verify', bundle, '--tasks', join(tmp, 'published'));
    expect(p.code).toBe(1);
    expect(p.out).toContain(
      `tasks/terminal/48e74c8b-081c-4294-9402-fb511e790d36/48e74c8b-081c-4294-9402-fb511e790d36.json: differs from the published ${taskJson}`,
    );
  });
});

describe('bundle and verify a display-free run, with signatures', () => {
  let bundle: string;
  let signed: string;
  let runDir: string;
  beforeAll(async () => {
    const { runDir: dir, score } = await shellRun(tmp);
    runDir = dir;
    expect(score).toBe(1);
    expect((await proctor('bundle', 'keygen', '--out', join(tmp, 'me'))).code).toBe(0);
    expect((await proctor('bundle', 'keygen', '--out', join(tmp, 'other'))).code).toBe(0);
    bundle = join(tmp, 'shell.tar.gz');
    signed = join(tmp, 'shell-signed.tar.gz');
    expect((await proctor('bundle', runDir, '--out', bundle)).code).toBe(0);
    const s = await proctor('bundle', runDir, '--out', signed, '--sign', join(tmp, 'me.key'));
    expect(s.code, s.err).toBe(0);
    expect(s.out).toContain('signed (bundle.sig)');
  }, 120_000);

  it('bundles only task files: a manifest naming another file is refused, naming it', async () => {
    const copy = join(tmp, 'foreign-manifest');
    execFileSync('cp', ['-r', runDir, copy]);
    const manifest = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8')) as {
      taskInfo: Record<string, { file: string }>;
    };
    const secret = join(tmp, 'secret.txt');
    writeFileSync(secret, 'not for a bundle\n');
    manifest.taskInfo['cli/text'].file = secret;
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify(manifest));
    const r = await proctor('bundle', copy, '--out', join(tmp, 'never.tar.gz'));
    expect(r.code).toBe(1);
    expect(r.err).toContain(
      `${secret} (named at ${join(copy, 'manifest.json')} /taskInfo/cli/text/file) does not read as a task file`,
    );
    expect(existsSync(join(tmp, 'never.tar.gz'))).toBe(false);
  });

  it('verifies, and fails naming the file after a changed result.txt and a changed gold file', async () => {
    expect((await proctor('verify', bundle)).code).toBe(0);
    const r = await proctor(
      'verify',
      tampered(bundle, (dir) => writeFileSync(join(taskDirs(join(dir, 'run'))[0], 'result.txt'), '0.0')),
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/result\.txt: SHA-256/);
    const extra = await proctor(
      'verify',
      tampered(bundle, (dir) => writeFileSync(join(dir, 'run', 'note.txt'), 'added later\n')),
    );
    expect(extra.code).toBe(1);
    expect(extra.out).toContain('run/note.txt: in the archive but not listed in bundle.json');
    const g = await proctor(
      'verify',
      tampered(bundle, (dir) => writeFileSync(join(dir, 'tasks/cli/text/gold.txt'), 'another answer\n')),
    );
    expect(g.code).toBe(1);
    expect(g.out).toContain('tasks/cli/text/gold.txt: SHA-256');
  });

  it('a forged gold file with bundle.json re-hashed still fails: re-grading gives another score', async () => {
    const dir = join(tmp, 'forge');
    mkdirSync(dir);
    execFileSync('tar', ['-xzf', bundle, '-C', dir]);
    writeFileSync(join(dir, 'tasks/cli/text/gold.txt'), 'another answer\n');
    await rehash(dir);
    const m = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')) as BundleManifest;
    const { setHash } = await import('./hashing');
    const { taskSetOf } = await import('./bundle');
    m.taskSetSha256 = setHash(taskSetOf(m));
    writeFileSync(join(dir, 'bundle.json'), JSON.stringify(m));
    const forged = join(tmp, 'forged.tar.gz');
    execFileSync('tar', ['-czf', forged, '-C', dir, '.']);
    const v = await proctor('verify', forged);
    expect(v.code).toBe(1);
    expect(v.out).toMatch(
      /verdicts\.jsonl: the run's grading gave 1; re-grading from the stored artefacts gives 0/,
    );
  });

  it('checks a signature with the right key and fails with the wrong one, naming bundle.sig', async () => {
    const ok = await proctor('verify', signed, '--key', join(tmp, 'me.pub'));
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('signature valid');
    const wrong = await proctor('verify', signed, '--key', join(tmp, 'other.pub'));
    expect(wrong.code).toBe(1);
    expect(wrong.out).toMatch(/bundle\.sig: the signature of bundle\.json does not hold under the key given/);
    const unsigned = await proctor('verify', bundle, '--key', join(tmp, 'me.pub'));
    expect(unsigned.code).toBe(1);
    expect(unsigned.out).toContain('bundle.sig: the bundle is not signed');
    // A re-hashed bundle.json (a changed file made consistent) breaks the signature.
    const re = tampered(signed, (dir) => writeFileSync(join(dir, 'report.txt'), 'all passed\n'));
    const dir = join(tmp, `edit-${n}`);
    await rehash(dir);
    rmSync(re);
    execFileSync('tar', ['-czf', re, '-C', dir, '.']);
    const broken = await proctor('verify', re, '--key', join(tmp, 'me.pub'));
    expect(broken.code).toBe(1);
    expect(broken.out).toContain('bundle.sig: the signature of bundle.json does not hold');
  });
});

describe('untrusted archives', () => {
  const archive = (name: string, make: (dir: string, out: string) => void): string => {
    const dir = join(tmp, `src-${name}`);
    mkdirSync(dir);
    const out = join(tmp, `${name}.tar.gz`);
    make(dir, out);
    return out;
  };

  it('refuses path traversal and links before writing anything outside, and bundles past the size limit', async () => {
    const { verifyBundle } = await import('./verify');
    const escape = archive('escape', (dir, out) => {
      writeFileSync(join(dir, 'evil'), 'x');
      execFileSync('tar', ['-czf', out, '-P', '--transform', 's,^,../../,', '-C', dir, 'evil']);
    });
    const r = await verifyBundle(escape);
    expect(r.ok).toBe(false);
    expect(r.mismatches[0].message).toMatch(
      /refused: entry '\.\.\/\.\.\/evil': '\.\.' in the path \(path traversal\)/,
    );
    expect(existsSync(join(tmpdir(), 'evil'))).toBe(false);

    const link = archive('link', (dir, out) => {
      execFileSync('ln', ['-s', '/etc/passwd', join(dir, 'bundle.json')]);
      execFileSync('tar', ['-czf', out, '-C', dir, 'bundle.json']);
    });
    expect((await verifyBundle(link)).mismatches[0].message).toMatch(
      /refused: entry 'bundle\.json': type '2'/,
    );

    const big = await verifyBundle(join(tmp, 'shell.tar.gz'), {
      limits: { maxBytes: 1000, maxEntries: 100 },
    });
    expect(big.mismatches[0].message).toMatch(/the files exceed the limit of 1000 bytes/);
    const notGzip = archive('plain', (dir, out) => writeFileSync(out, 'not a bundle'));
    expect((await verifyBundle(notGzip)).mismatches[0].message).toMatch(
      /cannot be read as a \.tar\.gz bundle/,
    );
  });
});
