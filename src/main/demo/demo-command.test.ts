// `proctor demo` end to end, as a user runs it: a child process, real sandbox displays, real apps, real grading.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readRun, readTaskTrajectory } from '../store/reader';
import { demoTaskFiles } from './tasks';
import { projectRoot } from './paths';
import { missingDemoPrograms, runProctor } from './testing-env';

const missing = missingDemoPrograms();
const why = missing.length ? ` (skipped: ${missing.join(', ')} not installed)` : '';

describe('proctor demo', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it.skipIf(missing.length > 0)(
    `runs every bundled task: the oracle scores 1 and the noop agent 0, and says how to open the runs${why}`,
    async () => {
      const out = await mkdtemp(join(tmpdir(), 'proctor-demo-'));
      dirs.push(out);
      const { code, stdout, stderr } = await runProctor(['demo', '--out', out, '--parallel', '2'], 400_000);
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toMatch(/^PASS: 14 of 14 expectations met/m);
      expect(stdout).toContain(`npx proctor serve ${out}`);
      expect(stdout).toMatch(/task\s+app\s+interface\s+grading\s+oracle\s+noop\s+verdict/);

      // The stored runs say the same as the table, task by task.
      const taskCount = (await demoTaskFiles()).length;
      const runDir = (agent: string) => {
        const m = stdout.match(new RegExp(`^${agent} run: (.+)$`, 'm'));
        expect(m, `${agent} run folder in the output`).toBeTruthy();
        return resolve(projectRoot, m![1]);
      };
      const oracle = readRun(runDir('oracle'));
      const noop = readRun(runDir('noop'));
      expect(oracle.tasks).toHaveLength(taskCount);
      expect(noop.tasks).toHaveLength(taskCount);
      for (const t of oracle.tasks)
        expect({ key: t.key, state: t.state, score: t.score }).toEqual({
          key: t.key,
          state: 'success',
          score: 1,
        });
      for (const t of noop.tasks)
        expect({ key: t.key, state: t.state, score: t.score }).toEqual({
          key: t.key,
          state: 'success',
          score: 0,
        });
      // The native summary of one task carries its result.
      const manifest = JSON.parse(await readFile(join(runDir('oracle'), 'manifest.json'), 'utf8')) as {
        agent: string;
        observation: string;
      };
      expect(manifest.agent).toBe('oracle');
      // The oracle pass observes with Set-of-Mark: its browser steps carry marks, and one of them is clicked.
      expect(manifest.observation).toBe('som');
      const browser = readTaskTrajectory(runDir('oracle'), 'chromium/d88f645c-b93d-4da3-8636-683046aaf745');
      const click = browser.steps.flatMap((s) => s.actions).find((a) => a.type === 'click');
      expect(click).toBeDefined();
      const button = browser.steps[0].marks?.find((m) => m.label?.includes('Place order'));
      expect(button, 'the Place order button is a mark').toBeDefined();
      if (click?.type === 'click' && button) {
        expect(click.x!).toBeGreaterThan(button.x);
        expect(click.x!).toBeLessThan(button.x + button.w);
        expect(click.y!).toBeGreaterThan(button.y);
        expect(click.y!).toBeLessThan(button.y + button.h);
      }
      // Graded faithfully (native profile) with the robust second opinion beside: no brittle evaluator in the demo.
      const report = await runProctor(['report', runDir('oracle')], 60_000);
      expect(report.stdout).toContain(`Brittle evaluator flags: 0 of ${taskCount} tasks`);
    },
    420_000,
  );

  it('refuses an unknown agent with its usage', async () => {
    const { code, stderr } = await runProctor(['demo', '--agent', 'gpt'], 30_000);
    expect(code).toBe(2);
    expect(stderr).toContain("--agent must be oracle, noop or both, not 'gpt'");
    expect(stderr).toContain('Usage: proctor demo');
  });

  it('refuses an environment of an unknown kind, and selftest too, before running anything', async () => {
    for (const command of ['demo', 'selftest']) {
      const { code, stderr } = await runProctor(
        [command, ...(command === 'selftest' ? ['resources/demo'] : []), '--env', 'lokal'],
        30_000,
      );
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(/--env: unknown environment kind 'lokal' \(closest known: 'local'\)/);
      expect(stderr).toContain(`Usage: proctor ${command}`);
    }
  });
});
