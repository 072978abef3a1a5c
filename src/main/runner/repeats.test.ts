// `--repeats N` through the real scheduler and store on the shell environment: N attempts per task, each its own
// folder and entry, a fresh environment each; an interrupted run resumed finishes only the missing attempts; a
// resume with --retry-env-errors runs again the attempts the environment broke, and only those.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent, AgentTurn } from '../agents/agent';
import { EnvironmentError } from '../errors';
import type { Environment } from '../env/environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { readJsonLines } from '../store/files';
import type { RunManifest } from '../store/layout';
import { manifestProblems } from '../store/manifest-check';
import { readRun, readTaskTrajectory } from '../store/reader';
import { defaultParts, type RunnerParts } from './parts';
import { entriesOf, resumeRun, runTasks } from './scheduler';
import { outcomeTable } from './progress';
import { writeAnswerTask } from './testing/answer-task';

const writeTask = (root: string, id: string): void =>
  writeAnswerTask(root, id, { tags: ['cli', 'abstract'] });

async function twoTasks(): Promise<{ root: string; tasks: Task[] }> {
  const root = mkdtempSync(join(tmpdir(), 'proctor-repeats-'));
  writeTask(root, 'a');
  writeTask(root, 'b');
  const { tasks } = await (await defaultParts()).loadTasks([root]);
  return { root, tasks: tasks.sort((x, y) => x.id.localeCompare(y.id)) };
}

/**
 * Shell environments, one per attempt, each remembered by its home (fresh each time); `fail(n)` makes the n-th
 * environment asked for die as it starts.
 */
function envs(fail: (n: number) => boolean = () => false) {
  const homes: string[] = [];
  const byTask = new Map<string, Environment>();
  let n = 0;
  const parts: Partial<RunnerParts> = {
    async createEnvironment(r) {
      n++;
      homes.push(r.home!);
      if (fail(n)) throw new EnvironmentError(`the sandbox died as it started (environment ${n})`);
      return createShellEnvironment({ home: r.home });
    },
  };
  return { homes, byTask, parts };
}

/** Writes the right answer on a task's odd attempts, a wrong one on its even ones (attempts disagree), then DONE. */
function alternating(): (task: Task) => Agent {
  const made = new Map<string, number>();
  return (task) => {
    const nth = (made.get(task.id) ?? 0) + 1;
    made.set(task.id, nth);
    let env: Environment | undefined;
    return {
      name: 'alternating',
      async start(ctx) {
        env = ctx.environment;
      },
      async next(_o, step): Promise<AgentTurn> {
        if (step === 1) {
          await env!.putFile(
            '/home/user/answer.txt',
            Buffer.from(nth % 2 ? `answer of ${task.id}\n` : 'wrong\n'),
          );
          return { response: 'wrote', actions: [{ type: 'WAIT' }] };
        }
        return { response: 'DONE', actions: [{ type: 'DONE' }] };
      },
    };
  };
}

const manifestOf = (runDir: string) =>
  JSON.parse(readFileSync(join(runDir, 'manifest.json'), 'utf8')) as RunManifest;

describe('--repeats N', () => {
  it('runs every task N times, each attempt in a fresh environment and its own folder, attempt-major', async () => {
    const { root, tasks } = await twoTasks();
    const e = envs();
    const outcome = await runTasks(tasks, {
      agent: alternating(),
      agentName: 'alt',
      outDir: join(root, 'results'),
      parts: e.parts,
      waitMs: 1,
      repeats: 3,
      parallel: 2,
    });
    const items = readRun(outcome.runDir).tasks;
    expect(items.map((t) => [t.key, t.domain, t.taskId, t.attempt])).toEqual([
      ['cli/a#1', 'cli', 'a', 1],
      ['cli/a#2', 'cli', 'a', 2],
      ['cli/a#3', 'cli', 'a', 3],
      ['cli/b#1', 'cli', 'b', 1],
      ['cli/b#2', 'cli', 'b', 2],
      ['cli/b#3', 'cli', 'b', 3],
    ]);
    expect(
      items.every((t) => t.state === 'success' && (t.cause === 'success' || t.cause === 'agent_failure')),
    ).toBe(true);
    expect(items.map((t) => t.cause)).toEqual([
      'success',
      'agent_failure',
      'success',
      'success',
      'agent_failure',
      'success',
    ]);
    expect(new Set(e.homes).size).toBe(6); // six environments, never one reused
    const m = manifestOf(outcome.runDir);
    expect(m.repeats).toBe(3);
    expect(m.taskInfo!['cli/b#2']).toMatchObject({
      dir: 'pyautogui/screenshot/alt/cli/b/attempt-2',
      task: 'cli/b',
      attempt: 2,
    });
    expect(manifestProblems(m, join(outcome.runDir, 'manifest.json'), { runDir: outcome.runDir })).toEqual(
      [],
    );
    for (const k of m.tasks) {
      const summary = JSON.parse(
        readFileSync(join(outcome.runDir, m.taskInfo![k].dir, 'summary.json'), 'utf8'),
      );
      expect(summary.results).toMatchObject({ attempt: m.taskInfo![k].attempt, cause: expect.any(String) });
    }
    expect(readTaskTrajectory(outcome.runDir, 'cli/a#2').item).toMatchObject({
      taskId: 'a',
      attempt: 2,
      cause: 'agent_failure',
    });
    // first attempts of both tasks start before any second attempt
    const started = readJsonLines<RunEvent>(join(outcome.runDir, 'events.jsonl'))
      .values.filter((v) => v.kind === 'task.started')
      .map((v) => (v as { taskKey: string }).taskKey);
    expect(started.slice(0, 2).sort()).toEqual(['cli/a#1', 'cli/b#1']);
    // the live task.finished event carries each attempt's cause (what the run table shows before it reads again)
    const finished = readJsonLines<RunEvent>(join(outcome.runDir, 'events.jsonl')).values.flatMap((v) =>
      v.kind === 'task.finished' ? [[v.taskKey, v.cause]] : [],
    );
    expect(finished.sort()).toEqual(items.map((t) => [t.key, t.cause]));
    expect(outcome.successRate).toBeCloseTo(4 / 6);
    const table = outcomeTable(outcome).join('\n');
    expect(table).toMatch(/^cli\/a#2 +success +agent_failure +0 /m);
    expect(table).toContain('over all 6 attempt(s)');
    expect(table).toContain('causes: success 4, agent_failure 2');
    expect(table).toMatch(/cost: tokens 0 in, 0 out; model cost \$0\.0000; environment /);
  });

  it('an interrupted repeated run, resumed, finishes only the missing attempts', async () => {
    const { root, tasks } = await twoTasks();
    const controller = new AbortController();
    let finished = 0;
    const first = await runTasks(tasks, {
      agent: alternating(),
      agentName: 'alt',
      outDir: join(root, 'results'),
      parts: envs().parts,
      waitMs: 1,
      repeats: 2,
      signal: controller.signal,
      onEvent: (ev) => {
        if (ev.kind === 'task.finished' && ++finished === 3) controller.abort();
      },
    });
    expect(first.cancelled).toBe(true);
    const before = readRun(first.runDir)
      .tasks.filter((t) => t.cause !== undefined)
      .map((t) => t.key);
    expect(before).toHaveLength(3);
    const summaries = Object.fromEntries(
      before.map((k) => [
        k,
        readFileSync(join(first.runDir, manifestOf(first.runDir).taskInfo![k].dir, 'summary.json'), 'utf8'),
      ]),
    );

    const again = envs();
    const resumed = await resumeRun(first.runDir, { agent: alternating(), parts: again.parts, waitMs: 1 });
    expect(resumed.ran.map((o) => o.taskKey)).toEqual(
      readRun(first.runDir)
        .tasks.map((t) => t.key)
        .filter((k) => !before.includes(k)),
    );
    expect(again.homes).toHaveLength(1);
    expect(resumed.tasks.every((t) => t.cause !== undefined)).toBe(true);
    for (const [k, text] of Object.entries(summaries))
      expect(
        readFileSync(join(first.runDir, manifestOf(first.runDir).taskInfo![k].dir, 'summary.json'), 'utf8'),
      ).toBe(text);
  });

  it('--retry-env-errors runs again the attempts whose cause is env_error, keeping the broken one aside', async () => {
    const { root, tasks } = await twoTasks();
    const first = await runTasks(tasks, {
      agent: alternating(),
      agentName: 'alt',
      outDir: join(root, 'results'),
      parts: envs((n) => n === 2).parts,
      waitMs: 1,
      repeats: 2,
    });
    const broken = first.tasks.filter((t) => t.cause === 'env_error').map((t) => t.key);
    expect(broken).toHaveLength(1);

    const plain = await resumeRun(first.runDir, { agent: alternating(), parts: envs().parts, waitMs: 1 });
    expect(plain.ran).toEqual([]); // a finished attempt is kept, whatever its cause…

    const again = envs();
    const retried = await resumeRun(first.runDir, {
      agent: alternating(),
      parts: again.parts,
      waitMs: 1,
      retryEnvErrors: true,
    });
    expect(retried.retried).toEqual(broken); // …unless asked
    expect(retried.ran.map((o) => o.taskKey)).toEqual(broken);
    expect(again.homes).toHaveLength(1);
    const item = retried.tasks.find((t) => t.key === broken[0])!;
    expect(item.cause).not.toBe('env_error');
    expect(
      existsSync(
        join(first.runDir, `${manifestOf(first.runDir).taskInfo![broken[0]].dir}.retry-1/summary.json`),
      ),
    ).toBe(true);
    const superseded = readJsonLines<RunEvent>(join(first.runDir, 'events.jsonl')).values.filter(
      (v) => v.kind === 'verdict.superseded',
    );
    expect(superseded).toEqual([]); // the env_error attempt had no verdict to supersede
  });

  it('refuses a repeat count out of range and keeps single-attempt runs as they were', async () => {
    const { tasks } = await twoTasks();
    expect(() => entriesOf(tasks, 0)).toThrow(/repeats 0/);
    expect(() => entriesOf(tasks, 1.5)).toThrow(/whole number/);
    expect(entriesOf(tasks, 1).map((x) => [x.key, x.attempt])).toEqual([
      ['cli/a', undefined],
      ['cli/b', undefined],
    ]);
  });
});
