// `proctor selftest` end to end: the bundled tasks are sound; a copy graded by an empty include/exclude rule
// (which any run passes) is called too lenient.
import { afterAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readRun } from '../store/reader';
import { demoDir } from './paths';
import { missingDemoPrograms, runProctor } from './testing-env';

const missing = missingDemoPrograms();
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';
const source = 'mousepad/aef3c445-7a12-447f-ab20-f7eb91a74ca7';
const lenientId = '5e1f7e57-0000-4000-8000-1e2e3e4e5e6e';

/** A copy of a demo task, under its own id, whose evaluator is check_include_exclude with an empty rule. */
async function lenientCopy(root: string): Promise<string> {
  const dir = join(root, 'tasks', 'mousepad', lenientId);
  await mkdir(join(root, 'tasks', 'mousepad'), { recursive: true });
  await cp(join(demoDir, source), dir, { recursive: true });
  const oldFile = join(dir, `${source.split('/')[1]}.json`);
  const task = JSON.parse(await readFile(oldFile, 'utf8')) as Record<string, unknown>;
  task.id = lenientId;
  delete task.counterpart;
  task.evaluation = {
    func: 'check_include_exclude',
    arguments: { vm_result: '/home/user/Desktop/notes.txt', rules: {} },
  };
  await writeFile(oldFile, JSON.stringify(task, null, 2));
  await rename(oldFile, join(dir, `${lenientId}.json`));
  return join(root, 'tasks');
}

interface Report {
  key: string;
  verdict: string;
  reason: string;
  oracle: { score?: number };
  noop: { score?: number };
  cut?: { score?: number; kept?: number };
}

describe('proctor selftest', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it.skipIf(missing.length > 0)(
    `calls every bundled task sound and an empty include/exclude rule too lenient, keeping the evidence${why}`,
    async () => {
      const root = await mkdtemp(join(tmpdir(), 'proctor-selftest-'));
      dirs.push(root);
      const lenient = await lenientCopy(root);
      const out = join(root, 'out');
      const { code, stdout, stderr } = await runProctor(
        ['selftest', lenient, demoDir, '--out', out, '--parallel', '2', '--json'],
        500_000,
      );
      expect(code, stderr).toBe(1); // not every task is sound: the lenient copy is not
      const { dir, tasks } = JSON.parse(stdout) as { dir: string; tasks: Report[] };

      const copy = tasks.find((t) => t.key === `mousepad/${lenientId}`)!;
      expect(copy.verdict).toBe('too lenient');
      expect(copy.noop.score).toBe(1);
      expect(copy.reason).toContain('doing nothing scored 1');

      const bundled = tasks.filter((t) => t.key !== copy.key);
      expect(bundled.length).toBeGreaterThanOrEqual(6);
      for (const t of bundled) {
        expect({ key: t.key, verdict: t.verdict, reason: t.reason }).toEqual({
          key: t.key,
          verdict: 'sound',
          reason: t.reason,
        });
        expect(t.oracle.score).toBe(1);
        expect(t.noop.score).toBe(0);
        expect(t.cut!.score).toBeLessThan(1);
        expect(t.cut!.kept).toBeGreaterThan(0);
      }

      // The evidence: selftest.json beside one run folder per trial, each readable by the store's reader.
      const saved = JSON.parse(await readFile(join(dir, 'selftest.json'), 'utf8')) as {
        runs: Record<string, string>;
        tasks: Report[];
      };
      expect(Object.keys(saved.runs).sort()).toEqual(['cut', 'noop', 'oracle']);
      expect(saved.tasks.map((t) => t.verdict)).toEqual(tasks.map((t) => t.verdict));
      for (const rel of Object.values(saved.runs)) {
        const runDir = resolve(dir, rel);
        expect(existsSync(join(runDir, 'manifest.json'))).toBe(true);
        expect(readRun(runDir).tasks.length).toBeGreaterThanOrEqual(bundled.length);
      }
    },
    520_000,
  );

  it('refuses two copies of one task key before running anything', async () => {
    const root = await mkdtemp(join(tmpdir(), 'proctor-selftest-dup-'));
    dirs.push(root);
    await cp(join(demoDir, source), join(root, 'mousepad', source.split('/')[1]), { recursive: true });
    const { code, stderr } = await runProctor(
      ['selftest', root, join(demoDir, 'mousepad'), '--out', join(root, 'out')],
      60_000,
    );
    expect(code).toBe(2);
    expect(stderr).toContain('are the same task');
    expect(existsSync(join(root, 'out'))).toBe(false);
  });
});
