import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import type { Agent, AgentTurn } from '../agents/agent';
import { EnvironmentError } from '../errors';
import type { Environment } from '../env/environment';
import { createLocalEnvironment, type LocalEnvironment } from '../env/local/local-environment';
import { createShellEnvironment } from '../env/local/shell-environment';
import { standingVerdicts, standingVerdictsOf } from '../store/event-history';
import { readJsonLines } from '../store/files';
import { readRun, readTaskTrajectory } from '../store/reader';
import { maxStepsFor } from './limits';
import { defaultParts } from './parts';
import { resumeRun, runTasks } from './scheduler';
import { writeAnswerTask } from './testing/answer-task';

const projectRoot = resolve(__dirname, '../../..');

/** Writes a native task whose evaluator compares /home/user/answer.txt with the gold file beside the task. */
const writeTask = (root: string, domain: string, id: string, extra: Record<string, unknown> = {}): void =>
  writeAnswerTask(
    root,
    id,
    { tags: ['cli', 'traditional_data_processing', 'abstract'], action_number: 2, ...extra },
    domain,
  );

/** An agent that does the task through the environment's files (a shell-only environment has no screen). */
function fileAgent(envs: Map<string, Environment>, right: boolean): (task: { id: string }) => Agent {
  return (task) => ({
    name: right ? 'writer' : 'wrong-writer',
    async start() {},
    async next(_obs, step): Promise<AgentTurn> {
      if (step === 1) {
        await envs
          .get(task.id)!
          .putFile('/home/user/answer.txt', Buffer.from(right ? `answer of ${task.id}\n` : 'nope\n'));
        return { response: 'wrote the file', actions: [{ type: 'WAIT' }] };
      }
      return { response: 'DONE', actions: [{ type: 'DONE' }] };
    },
  });
}

async function shellParts(envs: Map<string, Environment>, order: string[], crashOn?: number) {
  let calls = 0;
  let created = 0;
  return {
    async createEnvironment(r: { home?: string }) {
      calls++;
      if (calls === crashOn) throw new EnvironmentError('the sandbox display died (test crash)');
      const env = await createShellEnvironment({ home: r.home });
      const id = order[created++];
      envs.set(id, env);
      return env;
    },
  };
}

describe('the step loop and the scheduler', () => {
  it('runs tasks end to end with real grading: right work scores 1, wrong work 0, unknown apps are skipped', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-runner-'));
    writeTask(root, 'cli', 't1');
    writeTask(root, 'cli', 't2');
    writeTask(root, 'cli', 't3', { related_apps: ['airbyte'] });
    const { tasks, problems } = await (await defaultParts()).loadTasks([root]);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    tasks.sort((a, b) => a.id.localeCompare(b.id));
    const envs = new Map<string, Environment>();
    const events: RunEvent[] = [];
    const outcome = await runTasks(tasks, {
      agent: fileAgent(envs, true),
      agentName: 'writer',
      outDir: join(root, 'results'),
      parts: await shellParts(envs, ['t1', 't2']),
      waitMs: 1,
      onEvent: (e) => events.push(e),
    });
    expect(outcome.tasks.map((t) => [t.key, t.state, t.score])).toEqual([
      ['cli/t1', 'success', 1],
      ['cli/t2', 'success', 1],
      ['cli/t3', 'skipped', 0],
    ]);
    expect(outcome.tasks[2].error).toMatch(/app not installed: airbyte/);
    expect(outcome.successRate).toBeCloseTo(2 / 3); // the skipped task stays in the denominator
    const t1 = readTaskTrajectory(outcome.runDir, 'cli/t1');
    expect(t1.steps.map((s) => s.actions.map((a) => a.type))).toEqual([['WAIT'], ['DONE']]);
    expect(t1.verdicts).toMatchObject([{ kind: 'rule', score: 1 }]);
    const summary = JSON.parse(
      readFileSync(join(outcome.runDir, 'pyautogui/screenshot/writer/cli/t1/summary.json'), 'utf8'),
    );
    expect(summary).toMatchObject({
      id: 't1',
      evaluation: { func: 'compare_text_file' },
      results: { score: 1, state: 'success', eval_error: null },
    });
    expect(events.filter((e) => e.kind === 'task.finished')).toHaveLength(3);
    expect(events.at(-1)?.kind).toBe('run.finished');

    const wrong = await runTasks(tasks.slice(0, 1), {
      agent: fileAgent(envs, false),
      agentName: 'wrong',
      outDir: join(root, 'results'),
      parts: await shellParts(envs, ['t1']),
      waitMs: 1,
    });
    expect(wrong.tasks[0]).toMatchObject({ state: 'success', score: 0 });
  });

  it('records a crashing environment as env_error on that task only, and the next task runs', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-runner-'));
    for (const id of ['a', 'b', 'c']) writeTask(root, 'cli', id);
    const { tasks } = await (await defaultParts()).loadTasks([root]);
    tasks.sort((x, y) => x.id.localeCompare(y.id));
    const envs = new Map<string, Environment>();
    const outcome = await runTasks(tasks, {
      agent: fileAgent(envs, true),
      agentName: 'writer',
      outDir: join(root, 'results'),
      parts: await shellParts(envs, ['a', 'c'], 2),
      waitMs: 1,
    });
    expect(outcome.tasks.map((t) => t.state)).toEqual(['success', 'env_error', 'success']);
    expect(outcome.tasks[1].error).toMatch(/sandbox display died/);
    const traj = readJsonLines<Record<string, unknown>>(
      join(outcome.runDir, 'pyautogui/screenshot/writer/cli/b/traj.jsonl'),
    );
    expect(traj.values).toEqual([{ Error: expect.stringMatching(/sandbox display died/) }]);
  });

  it('stops cleanly on abort: the running task is cancelled without a summary, and resume finishes the run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-runner-'));
    for (const id of ['a', 'b']) writeTask(root, 'cli', id);
    const { tasks } = await (await defaultParts()).loadTasks([root]);
    tasks.sort((x, y) => x.id.localeCompare(y.id));
    const controller = new AbortController();
    const envs = new Map<string, Environment>();
    const stalling = (): Agent => ({
      name: 'staller',
      async start() {},
      next: () => {
        controller.abort();
        return new Promise<AgentTurn>(() => undefined);
      },
    });
    const stopped = await runTasks(tasks, {
      agent: stalling,
      agentName: 'writer',
      outDir: join(root, 'results'),
      parts: await shellParts(envs, ['a', 'b']),
      signal: controller.signal,
    });
    expect(stopped.cancelled).toBe(true);
    expect(stopped.tasks.map((t) => t.state)).toEqual(['cancelled', 'pending']);
    const aDir = join(stopped.runDir, 'pyautogui/screenshot/writer/cli/a');
    expect(existsSync(join(aDir, 'summary.json'))).toBe(false);

    const resumed = await resumeRun(stopped.runDir, {
      agent: fileAgent(envs, true),
      parts: await shellParts(envs, ['a', 'b']),
      waitMs: 1,
    });
    expect(resumed.runId).toBe(stopped.runId);
    expect(resumed.tasks.map((t) => [t.state, t.score])).toEqual([
      ['success', 1],
      ['success', 1],
    ]);
    expect(existsSync(`${aDir}.partial-1`)).toBe(true);
    expect(readRun(stopped.runDir).run).toMatchObject({ live: false, finished: 2, successRate: 1 });
  });

  it('gives --max-steps auto the action number with headroom', () => {
    expect(maxStepsFor({ actionNumber: 3 }, 'auto')).toBe(11);
    expect(maxStepsFor({ actionNumber: undefined }, 'auto')).toBe(15);
    expect(maxStepsFor({ actionNumber: 3 }, 7)).toBe(7);
    expect(maxStepsFor({ actionNumber: 3 }, undefined)).toBe(15);
  });
});

const xvfb = spawnSync('sh', ['-c', 'command -v Xvfb']).status === 0;

describe('proctor run as a process', () => {
  it.skipIf(!xvfb)(
    'resumes after SIGKILL midway with no task lost or done twice (needs Xvfb)',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'proctor-kill-'));
      const ids = ['k1', 'k2', 'k3', 'k4', 'k5'];
      for (const id of ids) writeTask(join(root, 'tasks'), 'cli', id);
      const out = join(root, 'results');
      const cli = join(projectRoot, 'bin/proctor.mjs');
      const child = spawn(
        process.execPath,
        [cli, 'run', join(root, 'tasks'), '--agent', 'noop', '--out', out, '--screen', '1024x768'],
        {
          cwd: projectRoot,
          stdio: 'ignore',
        },
      );
      // Wait until two tasks are finished, then kill the process without warning.
      const deadline = Date.now() + 90_000;
      let found: string | undefined;
      for (;;) {
        if (Date.now() > deadline) throw new Error('the run did not finish two tasks in time');
        await new Promise((r) => setTimeout(r, 100));
        const runs = existsSync(out) ? readdirSync(out) : [];
        if (!runs.length) continue;
        found = join(out, runs[0]);
        const events = readJsonLines<RunEvent>(join(found, 'events.jsonl')).values;
        if (events.filter((e) => e.kind === 'task.finished').length >= 2) break;
      }
      const runDir = found;
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      const before = readRun(runDir);
      expect(
        before.tasks.filter((t) => t.state !== 'pending' && t.state !== 'cancelled').length,
      ).toBeGreaterThanOrEqual(2);
      expect(before.run.finished).toBeLessThan(ids.length);

      const resumed = spawnSync(process.execPath, [cli, 'run', '--resume', runDir, '--json'], {
        cwd: projectRoot,
        encoding: 'utf8',
        timeout: 150_000,
      });
      expect(resumed.status, resumed.stderr).toBe(0);
      const after = readRun(runDir);
      expect(after.tasks.map((t) => t.state)).toEqual(ids.map(() => 'success'));
      expect(after.tasks.map((t) => t.score)).toEqual(ids.map(() => 0)); // noop: a correct evaluator gives 0
      const finished = readJsonLines<RunEvent>(join(runDir, 'events.jsonl')).values.filter(
        (e): e is Extract<RunEvent, { kind: 'task.finished' }> =>
          e.kind === 'task.finished' && e.state !== 'cancelled',
      );
      expect(finished.map((e) => e.taskKey).sort()).toEqual(ids.map((id) => `cli/${id}`)); // each exactly once
    },
    240_000,
  );
});

describe('a second --resume of a live run', () => {
  /** A run folder whose task cli/a is being run by `holder` (a live process standing for the first writer). */
  async function liveRun(holder: number, lockAt: 'run' | 'task') {
    const root = mkdtempSync(join(tmpdir(), 'proctor-live-'));
    writeTask(root, 'cli', 'a');
    const { tasks } = await (await defaultParts()).loadTasks([root]);
    const envs = new Map<string, Environment>();
    // a finished run, then made to look like one still being written by `holder`
    const first = await runTasks(tasks, {
      agent: fileAgent(envs, true),
      agentName: 'writer',
      outDir: join(root, 'results'),
      parts: await shellParts(envs, ['a']),
      waitMs: 1,
    });
    const taskDir = join(first.runDir, 'pyautogui/screenshot/writer/cli/a');
    rmSync(join(taskDir, 'summary.json'));
    const events = readFileSync(join(first.runDir, 'events.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l && !/"kind":"(task.finished|run.finished)"/.test(l));
    writeFileSync(join(first.runDir, 'events.jsonl'), events.join('\n') + '\n');
    const manifest = JSON.parse(readFileSync(join(first.runDir, 'manifest.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      join(first.runDir, 'manifest.json'),
      JSON.stringify({ ...manifest, pid: holder }, null, 2) + '\n',
    );
    const lock = JSON.stringify({ pid: holder, host: hostname(), at: new Date().toISOString() });
    writeFileSync(join(lockAt === 'run' ? first.runDir : taskDir, '.lock'), lock);
    return { runDir: first.runDir, taskDir, envs };
  }

  for (const lockAt of ['run', 'task'] as const) {
    it(`is refused before anything is written (the ${lockAt} lock held), and the run still reads as live`, async () => {
      const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
      try {
        const { runDir, taskDir, envs } = await liveRun(holder.pid!, lockAt);
        expect(readRun(runDir).tasks[0].state).toBe('running');
        const manifestBefore = readFileSync(join(runDir, 'manifest.json'));
        const eventsBefore = readFileSync(join(runDir, 'events.jsonl'));
        await expect(
          resumeRun(runDir, {
            agent: fileAgent(envs, true),
            parts: await shellParts(envs, ['a']),
            waitMs: 1,
          }),
        ).rejects.toThrow(new RegExp(`being written by process ${holder.pid}`));
        expect(readFileSync(join(runDir, 'manifest.json')).equals(manifestBefore)).toBe(true);
        expect(readFileSync(join(runDir, 'events.jsonl')).equals(eventsBefore)).toBe(true);
        expect(existsSync(`${taskDir}.partial-1`)).toBe(false);
        expect(readRun(runDir)).toMatchObject({ run: { live: true }, tasks: [{ state: 'running' }] });
      } finally {
        holder.kill('SIGKILL');
      }
    });
  }

  it('is refused as a process too: `proctor run --resume` exits 1 naming the writer, the manifest untouched', async () => {
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const { runDir } = await liveRun(holder.pid!, 'run');
      const manifestBefore = readFileSync(join(runDir, 'manifest.json'));
      const second = spawnSync(
        process.execPath,
        [join(projectRoot, 'bin/proctor.mjs'), 'run', '--resume', runDir],
        { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 },
      );
      expect(second.status).toBe(1);
      expect(second.stderr).toContain(`is being written by process ${holder.pid}`);
      expect(readFileSync(join(runDir, 'manifest.json')).equals(manifestBefore)).toBe(true);
      expect(readRun(runDir).tasks[0].state).toBe('running');
    } finally {
      holder.kill('SIGKILL');
    }
  }, 90_000);

  it("goes ahead once the first writer is dead, marks its attempt's verdict superseded, and releases the run", async () => {
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    const { runDir, envs } = await liveRun(holder.pid!, 'run');
    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    const before = readJsonLines<RunEvent>(join(runDir, 'events.jsonl')).values;
    const killedVerdict = before.find((e) => e.kind === 'verdict');
    expect(standingVerdicts(before)).toEqual([killedVerdict]); // the killed attempt had been graded
    const resumed = await resumeRun(runDir, {
      agent: fileAgent(envs, true),
      parts: await shellParts(envs, ['a']),
      waitMs: 1,
    });
    expect(resumed.tasks.map((t) => [t.state, t.score])).toEqual([['success', 1]]);
    expect(existsSync(join(runDir, '.lock'))).toBe(false);
    // the killed attempt's verdict event stays in the log, marked superseded; readers see only the new one
    const after = readJsonLines<RunEvent>(join(runDir, 'events.jsonl')).values;
    expect(after.filter((e) => e.kind === 'verdict')).toHaveLength(2);
    expect(after.find((e) => e.kind === 'verdict.superseded')).toMatchObject({
      taskKey: 'cli/a',
      attempt: 'pyautogui/screenshot/writer/cli/a.partial-1',
      verdicts: [{ kind: 'rule', at: (killedVerdict as Extract<RunEvent, { kind: 'verdict' }>).verdict.at }],
    });
    const standing = standingVerdicts(after);
    expect(standing).toHaveLength(1);
    expect(standing[0]).not.toEqual(killedVerdict);
    expect(standingVerdictsOf(runDir, 'cli/a')).toEqual(standing);
    expect(readTaskTrajectory(runDir, 'cli/a').verdicts).toEqual([standing[0].verdict]);
  });
});

describe('incidents of the environment', () => {
  it.skipIf(!xvfb)(
    'records a display worker killed between two calls as an event on the task (needs Xvfb)',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'proctor-incident-'));
      writeTask(root, 'cli', 'w');
      const { tasks } = await (await defaultParts()).loadTasks([root]);
      let env: LocalEnvironment | undefined;
      let killed: number | undefined;
      const killer = (): Agent => ({
        name: 'killer',
        async start() {},
        async next(_obs, step): Promise<AgentTurn> {
          if (step > 1) return { response: 'DONE', actions: [{ type: 'DONE' }] };
          // between the observation and the screenshot after the step, the worker dies
          killed = env!.workerPid();
          process.kill(killed!, 'SIGKILL');
          for (let i = 0; i < 500 && env!.workerPid() !== undefined; i++)
            await new Promise((r) => setTimeout(r, 10));
          return { response: 'wait', actions: [{ type: 'WAIT' }] };
        },
      });
      const outcome = await runTasks(tasks, {
        agent: killer,
        agentName: 'killer',
        outDir: join(root, 'results'),
        parts: {
          createEnvironment: async (r) =>
            (env = await createLocalEnvironment({ width: r.width, height: r.height, home: r.home })),
        },
        screen: { width: 800, height: 600 },
        waitMs: 1,
      });
      expect(outcome.tasks[0].state).toBe('success'); // the restart is not a failure…
      const incidents = readJsonLines<RunEvent>(join(outcome.runDir, 'events.jsonl')).values.filter(
        (e) => e.kind === 'task.incident',
      );
      // …but it is on the record, at the step it happened in
      expect(incidents).toEqual([
        expect.objectContaining({
          taskKey: 'cli/w',
          step: 1,
          incident: 'worker.restarted',
          message: expect.stringMatching(new RegExp(`ended \\(SIGKILL\\).*pid ${killed}.*new worker`)),
        }),
      ]);
    },
    120_000,
  );
});
