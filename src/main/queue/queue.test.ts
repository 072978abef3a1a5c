// The queue's delivery rules against a real redis-server (own port, temp folder, AOF) with in-process workers on
// real shell environments and real grading: idempotent enqueue, a committed result never redone, environment
// errors retried with backoff and the dead attempt kept aside, unrecoverable errors failing at once, a stopping
// worker handing its job back, one commit per task.
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
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent, AgentTurn } from '../agents/agent';
import { EnvironmentError } from '../errors';
import type { Environment } from '../env/environment';
import { environmentKinds } from '../env/kinds';
import { createShellEnvironment } from '../env/local/shell-environment';
import { defaultParts, type RunnerParts } from '../runner/parts';
import { readJsonLines } from '../store/files';
import { readRun } from '../store/reader';
import { AlreadyCommittedError, RunWriter } from '../store/run-writer';
import { parseQueueUrl, QUEUE_NAME } from './connection';
import { enqueueRun } from './enqueue';
import { jobIdFor, queuedAgentOptions, readJobData } from './jobs';
import { eventStreamKey, followEvents } from './live-events';
import { queueStatus, statusLines } from './status';
import { hasRedisServer, TestRedis } from './testing/redis-server';
import { startQueueWorker, type QueueWorker } from './worker';
import IORedis from 'ioredis';
import { writeAnswerTask } from '../runner/testing/answer-task';

const writeTask = (root: string, id: string): void => writeAnswerTask(root, id);

/** The environment a one-slot worker is on now (a worker slot runs one task at a time). */
interface Current {
  env?: Environment;
  created: number;
}

/** Does the task through the environment's files, then DONE. */
function fileAgent(current: Current): (task: Task) => Agent {
  return (task) => ({
    name: 'writer',
    async start() {},
    async next(_obs, step): Promise<AgentTurn> {
      if (step === 1) {
        await current.env!.putFile('/home/user/answer.txt', Buffer.from(`answer of ${task.id}\n`));
        return { response: 'wrote the file', actions: [] };
      }
      return { response: 'DONE', actions: [{ type: 'DONE' }] };
    },
  });
}

/** Real shell environments; `fail(n)` makes the n-th creation fail as a broken machine would, `hang` never starts one. */
function shellParts(
  current: Current,
  fail: (n: number) => boolean = () => false,
  hang = false,
): Partial<RunnerParts> {
  return {
    async createEnvironment(r) {
      const n = ++current.created;
      if (hang) return new Promise<Environment>(() => undefined);
      if (fail(n)) throw new EnvironmentError(`the sandbox did not start (creation ${n})`);
      current.env = await createShellEnvironment({ home: r.home });
      return current.env;
    },
  };
}

async function waitForJob(queue: Queue, id: string, states: string[], ms = 60_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const state = await (await queue.getJob(id))?.getState();
    if (state && states.includes(state)) return state;
    if (Date.now() > end) throw new Error(`job ${id} is ${state}, not ${states.join('/')}, after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** task.finished events that committed a result (not a cancelled attempt), per task key. */
function commits(runDir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readJsonLines<RunEvent>(join(runDir, 'events.jsonl')).values)
    if (e.kind === 'task.finished' && e.state !== 'cancelled')
      out.set(e.taskKey, (out.get(e.taskKey) ?? 0) + 1);
  return out;
}

describe('job data', () => {
  it('gives one stable id per run and task, without the characters BullMQ refuses', () => {
    expect(jobIdFor('run-1', 'cli/a')).toBe(jobIdFor('run-1', 'cli/a'));
    expect(jobIdFor('run-1', 'cli/a')).not.toBe(jobIdFor('run-1', 'cli/b'));
    expect(jobIdFor('run-1', 'cli/a')).not.toBe(jobIdFor('run-2', 'cli/a'));
    expect(jobIdFor('a:b', 'x/y')).not.toContain(':');
  });

  it('carries no secrets and reads untrusted data field by field', () => {
    const carried = queuedAgentOptions({
      apiKey: 'sk-secret',
      env: { OPENAI_API_KEY: 'sk-2' },
      baseUrl: 'https://u:pw@example.org/v1',
      historyWindow: 2,
    });
    expect(JSON.stringify(carried)).not.toMatch(/sk-|pw/);
    expect(carried).toEqual({ baseUrl: 'https://example.org/v1', historyWindow: 2 });
    const good = {
      v: 1,
      runId: 'r',
      runDir: '/x/r',
      taskKey: 'cli/a',
      taskFile: '/x/a.json',
      agent: 'oracle',
      agentOptions: {},
      observation: 'screenshot',
      actionSpace: 'pyautogui',
      maxSteps: 15,
      taskTimeoutMs: 1000,
      screen: { width: 800, height: 600 },
    };
    expect(readJobData(good).taskKey).toBe('cli/a');
    expect(() => readJobData({ ...good, runId: '../etc' })).toThrow(/\/runId/);
    expect(() => readJobData({ ...good, taskFile: 'relative.json' })).toThrow(/\/taskFile/);
    expect(() => readJobData({ ...good, agentOptions: { apiKey: 'k' } })).toThrow(/\/agentOptions\/apiKey/);
    expect(() => readJobData({ ...good, maxSteps: 0 })).toThrow(/\/maxSteps/);
  });

  it('reads a queue URL and never shows its password', () => {
    const t = parseQueueUrl('redis://:s3cret@127.0.0.1:6390/2', {});
    expect(t.options).toMatchObject({ host: '127.0.0.1', port: 6390, db: 2, password: 's3cret' });
    expect(t.shown).not.toContain('s3cret');
    expect(() => parseQueueUrl('http://x:1')).toThrow(/redis:/);
    expect(parseQueueUrl('redis://h:1', { PROCTOR_REDIS_PASSWORD: 'p' }).options.password).toBe('p');
  });
});

describe('queue status lines', () => {
  it('shows the bar, the counts, the rate and ETA, each worker (gone ones marked) and the running steps', () => {
    const lines = statusLines({
      queue: 'redis://h:1',
      runId: 'r',
      waiting: 5,
      active: 2,
      delayed: 1,
      done: 10,
      failed: 2,
      retried: 3,
      total: 20,
      workersOnline: ['m1:10'],
      perWorker: [
        { name: 'm1:10', active: 2, done: 7 },
        { name: 'm2:11', active: 0, done: 3 },
      ],
      running: [{ taskKey: 'cli/a', step: 4, worker: 'm1:10', attempt: 2 }],
      failures: [{ taskKey: 'cli/z', reason: 'job data /runId: not a run folder name' }],
      perMinute: 4,
      etaMs: 120_000,
    }).join('\n');
    expect(lines).toContain('[##################............] 12/20 settled (60%)');
    expect(lines).toContain('waiting 5  active 2  delayed 1  done 10  failed 2  retried 3');
    expect(lines).toContain('rate 4.0 task(s)/min, ETA 2m 00s');
    expect(lines).toMatch(/m2:11 +active 0 {2}done 3 {2}\(gone\)/);
    expect(lines).toMatch(/cli\/a {2}step 4 {2}attempt 2 {2}on m1:10/);
    expect(lines).toMatch(/cli\/z {2}job data/);
  });
});

describe.skipIf(!hasRedisServer)(`queued runs${hasRedisServer ? '' : ' (skipped: no redis-server)'}`, () => {
  let redis: TestRedis;
  let queue: Queue;
  let root: string;
  const workers: QueueWorker[] = [];
  beforeAll(async () => {
    redis = await TestRedis.start();
    queue = new Queue(QUEUE_NAME, { connection: parseQueueUrl(redis.url).options });
    root = mkdtempSync(join(tmpdir(), 'proctor-queue-'));
    for (const id of ['a', 'b', 'c', 'd']) writeTask(root, id);
  });
  afterAll(async () => {
    for (const w of workers) await w.close({ now: true });
    await queue?.close();
    await redis?.dispose();
    if (root) rmSync(root, { recursive: true, force: true });
  });
  const load = async (ids: string[]) =>
    (await (await defaultParts()).loadTasks(ids.map((id) => join(root, 'cli', id)))).tasks;
  const worker = async (o: Partial<Parameters<typeof startQueueWorker>[0]>) => {
    const w = await startQueueWorker({ queue: redis.url, stallMs: 5000, ...o });
    workers.push(w);
    return w;
  };

  it('adds a named run once: enqueueing it again adds no job; other tasks under that name are refused', async () => {
    const tasks = await load(['a', 'b']);
    const opts = { agent: 'oracle', outDir: join(root, 'results') };
    const first = await enqueueRun(tasks, opts, { queue: redis.url, name: 'twice' });
    const second = await enqueueRun(tasks, opts, { queue: redis.url, name: 'twice' });
    expect([first.added, first.existing, second.added, second.existing]).toEqual([2, 0, 0, 2]);
    const jobs = (await queue.getJobs(['waiting', 'active', 'completed', 'failed', 'delayed'])).filter(
      (j) => j.data.runId === 'twice',
    );
    expect(jobs.map((j) => j.id).sort()).toEqual(
      [jobIdFor('twice', 'cli/a'), jobIdFor('twice', 'cli/b')].sort(),
    );
    await expect(enqueueRun(await load(['c']), opts, { queue: redis.url, name: 'twice' })).rejects.toThrow(
      /other tasks/,
    );
    for (const j of jobs) await j.remove();
  });

  it('runs jobs to one committed result each, with the step in the job progress and the events in Redis', async () => {
    const tasks = await load(['a', 'b']);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'plain' },
    );
    expect(readRun(q.runDir).run).toMatchObject({ live: true }); // though the enqueuer is done: workers will write it
    const current: Current = { created: 0 };
    await worker({ slots: 1, agent: fileAgent(current), parts: shellParts(current) });
    for (const t of ['cli/a', 'cli/b'])
      expect(await waitForJob(queue, jobIdFor('plain', t), ['completed', 'failed'])).toBe('completed');
    const job = await queue.getJob(jobIdFor('plain', 'cli/a'));
    expect(job?.returnvalue).toMatchObject({ committed: 'run', state: 'success', score: 1 });
    expect(job?.progress).toMatchObject({ step: 2 });
    expect(readRun(q.runDir).run).toMatchObject({ live: false, successRate: 1 }); // the last commit ended it
    expect([...commits(q.runDir)]).toEqual(
      [
        ['cli/a', 1],
        ['cli/b', 1],
      ].sort(),
    );
    const r = new IORedis(parseQueueUrl(redis.url).options as never);
    const stream = await r.xrange(eventStreamKey('plain'), '-', '+');
    await r.quit();
    expect(stream.map(([, f]) => (JSON.parse(f[1]) as RunEvent).kind)).toContain('task.step');
    // another machine reads them: the events of both tasks, in order, as `proctor queue events` prints them
    const seen: RunEvent[] = [];
    await followEvents(redis.url, 'plain', (e) => seen.push(e));
    for (const key of ['cli/a', 'cli/b'])
      expect(seen.filter((e) => 'taskKey' in e && e.taskKey === key).map((e) => e.kind)).toEqual([
        'task.started',
        'task.step',
        'task.step',
        'verdict',
        'task.finished',
      ]);
    const { main } = await import('../cli/main');
    const printed: string[] = [];
    expect(
      await main(['queue', 'events', '--queue', redis.url, '--run', 'plain'], {
        out: (l) => printed.push(l),
        err: (l) => printed.push(l),
      }),
    ).toBe(0);
    expect(printed.join('\n')).toMatch(/step {3}cli\/a #2: DONE/);
    const s = await queueStatus(redis.url, { runId: 'plain' });
    expect(s).toMatchObject({ done: 2, failed: 0, waiting: 0, active: 0, total: 2 });
    expect(statusLines(s).join('\n')).toMatch(/\[#+\] 2\/2/);
    await workers.pop()!.close();
  });

  it('queues a repeated run as one job per attempt, each committed to its own folder with its cause', async () => {
    const tasks = await load(['a']);
    const opts = { agent: 'oracle', outDir: join(root, 'results'), repeats: 2 };
    const q = await enqueueRun(tasks, opts, { queue: redis.url, name: 'repeated' });
    expect(q.added).toBe(2);
    expect((await enqueueRun(tasks, opts, { queue: redis.url, name: 'repeated' })).added).toBe(0);
    await expect(
      enqueueRun(tasks, { ...opts, repeats: 3 }, { queue: redis.url, name: 'repeated' }),
    ).rejects.toThrow(/other tasks or repeats/);
    const current: Current = { created: 0 };
    await worker({ slots: 1, agent: fileAgent(current), parts: shellParts(current) });
    for (const key of ['cli/a#1', 'cli/a#2'])
      expect(await waitForJob(queue, jobIdFor('repeated', key), ['completed', 'failed'])).toBe('completed');
    expect(current.created).toBe(2); // a fresh environment per attempt
    const detail = readRun(q.runDir);
    expect(detail.tasks.map((t) => [t.key, t.taskId, t.attempt, t.state, t.cause])).toEqual([
      ['cli/a#1', 'a', 1, 'success', 'success'],
      ['cli/a#2', 'a', 2, 'success', 'success'],
    ]);
    expect(existsSync(join(q.runDir, 'pyautogui/screenshot/oracle/cli/a/attempt-2/summary.json'))).toBe(true);
    expect(detail.run.live).toBe(false); // the last attempt's commit ended the run
    await workers.pop()!.close();
  });

  it('does nothing for a job whose task already has a committed result (a retry after the commit)', async () => {
    const tasks = await load(['c']);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'committed' },
    );
    const run = RunWriter.attach(q.runDir);
    const dir = run.taskDir('cli/c');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'summary.json'), '{"results":{"score":1,"state":"success"}}\n');
    const current: Current = { created: 0 };
    await worker({ agent: fileAgent(current), parts: shellParts(current) });
    expect(await waitForJob(queue, jobIdFor('committed', 'cli/c'), ['completed', 'failed'])).toBe(
      'completed',
    );
    expect((await queue.getJob(jobIdFor('committed', 'cli/c')))?.returnvalue).toMatchObject({
      committed: 'before',
    });
    expect(current.created).toBe(0); // no environment was even started
    expect(readFileSync(join(dir, 'summary.json'), 'utf8')).toContain('"score":1');
    await workers.pop()!.close();
  });

  it('retries an environment error with backoff, keeps the dead attempt aside, and commits once', async () => {
    const tasks = await load(['d']);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'flaky', attempts: 3, backoffMs: 200 },
    );
    const current: Current = { created: 0 };
    await worker({ agent: fileAgent(current), parts: shellParts(current, (n) => n === 1) });
    const id = jobIdFor('flaky', 'cli/d');
    expect(await waitForJob(queue, id, ['completed', 'failed'])).toBe('completed');
    const job = await queue.getJob(id);
    expect(job?.returnvalue).toMatchObject({ committed: 'run', state: 'success', score: 1 });
    expect(job?.attemptsStarted).toBe(2);
    const dir = RunWriter.attach(q.runDir).taskDir('cli/d');
    expect(existsSync(`${dir}.partial-1`)).toBe(true); // the failed attempt, visible
    expect(existsSync(join(`${dir}.partial-1`, 'summary.json'))).toBe(false); // and not counted
    expect([...commits(q.runDir)]).toEqual([['cli/d', 1]]);
    expect((await queueStatus(redis.url, { runId: 'flaky' })).retried).toBe(1);
    await workers.pop()!.close();
  });

  it('commits an environment error on the last attempt instead of retrying forever', async () => {
    const tasks = await load(['a']);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'broken', attempts: 2, backoffMs: 100 },
    );
    const current: Current = { created: 0 };
    await worker({ agent: fileAgent(current), parts: shellParts(current, () => true) });
    expect(await waitForJob(queue, jobIdFor('broken', 'cli/a'), ['completed', 'failed'])).toBe('completed');
    expect((await queue.getJob(jobIdFor('broken', 'cli/a')))?.returnvalue).toMatchObject({
      state: 'env_error',
    });
    expect(current.created).toBe(2);
    expect([...commits(q.runDir)]).toEqual([['cli/a', 1]]);
    await workers.pop()!.close();
  });

  it('fails at once what retrying cannot fix: an unreadable task file, bad job data', async () => {
    const tasks = await load(['b']);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'unfixable', attempts: 3, backoffMs: 100 },
    );
    const id = jobIdFor('unfixable', 'cli/b');
    const job = (await queue.getJob(id))!;
    await job.updateData({ ...job.data, taskFile: join(root, 'missing', 'b.json') });
    await queue.add('cli/x', { v: 1, runId: '../../etc' }, { jobId: 'bad-data', attempts: 3 });
    const current: Current = { created: 0 };
    await worker({ agent: fileAgent(current), parts: shellParts(current) });
    expect(await waitForJob(queue, id, ['completed', 'failed'])).toBe('failed');
    expect(await waitForJob(queue, 'bad-data', ['completed', 'failed'])).toBe('failed');
    const failed = (await queue.getJob(id))!;
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toContain(join(root, 'missing', 'b.json'));
    expect((await queue.getJob('bad-data'))!.failedReason).toMatch(/job data \/runId/);
    expect(commits(q.runDir).size).toBe(0);
    await workers.pop()!.close();
  });

  it("fails at once a job its worker's environment cannot observe as the run asks, before any attempt is written", async () => {
    if (!environmentKinds.has('test-queue-no-a11y'))
      environmentKinds.register('test-queue-no-a11y', {
        summary: 'test-queue-no-a11y   a screen without an accessibility tree (queue.test.ts)',
        capabilities: { provides: ['screenshot', 'input', 'shell', 'files'], runsOn: 'this-machine' },
        check() {},
        create: (_spec, request) => createShellEnvironment({ home: request.home }),
      });
    const tasks = await load(['d']);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results'), observation: 'som' },
      { queue: redis.url, name: 'no-a11y', attempts: 3, backoffMs: 100 },
    );
    const current: Current = { created: 0 };
    await worker({ agent: fileAgent(current), parts: shellParts(current), env: 'test-queue-no-a11y' });
    const id = jobIdFor('no-a11y', 'cli/d');
    expect(await waitForJob(queue, id, ['completed', 'failed'])).toBe('failed');
    const failed = (await queue.getJob(id))!;
    expect(failed.attemptsMade).toBe(1);
    expect(failed.failedReason).toMatch(
      /the test-queue-no-a11y environment cannot give observation 'som' \(it has no accessibility\)/,
    );
    expect(current.created).toBe(0);
    expect(readdirSync(q.runDir).filter((f) => f.startsWith('cli'))).toEqual([]);
    await workers.pop()!.close();
  });

  it('hands a running job back to the queue when its worker stops now, without spending an attempt', async () => {
    const tasks = await load(['c']);
    await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'handback' },
    );
    const current: Current = { created: 0 };
    const w = await worker({ agent: fileAgent(current), parts: shellParts(current, () => false, true) });
    const id = jobIdFor('handback', 'cli/c');
    await waitForJob(queue, id, ['active']);
    while (current.created === 0) await new Promise((r) => setTimeout(r, 50));
    await w.close({ now: true });
    workers.pop();
    expect(await (await queue.getJob(id))!.getState()).toBe('waiting');
    expect((await queue.getJob(id))!.attemptsMade).toBe(0);
    // another worker takes it and finishes it
    const next: Current = { created: 0 };
    await worker({ agent: fileAgent(next), parts: shellParts(next) });
    expect(await waitForJob(queue, id, ['completed', 'failed'])).toBe('completed');
    await workers.pop()!.close();
  });

  it('writes a summary once: a second attempt coming to commit the same task is refused', async () => {
    const tasks = await load(['a']);
    const run = await (
      await import('../runner/scheduler')
    ).createRun(tasks, { agent: 'oracle', outDir: join(root, 'results') });
    run.release();
    const one = RunWriter.attach(run.runDir).openTask('cli/a');
    const two = RunWriter.attach(run.runDir).openTask('cli/a'); // same process: its own lock does not stop it
    const results = {
      score: 1,
      eval_error: null,
      state: 'success' as const,
      messages: [],
      total_tokens: 0,
      total_timing: 1,
      steps: 0,
    };
    await one.finish('success', { taskFields: { id: 'a' }, results });
    await expect(
      two.finish('success', { taskFields: { id: 'a' }, results: { ...results, score: 0 } }),
    ).rejects.toBeInstanceOf(AlreadyCommittedError);
    expect(JSON.parse(readFileSync(join(run.taskDir('cli/a'), 'summary.json'), 'utf8')).results.score).toBe(
      1,
    );
    expect(readdirSync(run.taskDir('cli/a')).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('enqueues from the command line without storing the queue password; flags out of place are usage errors', async () => {
    const { main } = await import('../cli/main');
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    const withPassword = redis.url.replace('redis://', 'redis://:hunter2@');
    const code = await main(
      [
        'run',
        join(root, 'cli', 'b'),
        '--queue',
        withPassword,
        '--name',
        'cli-run',
        '--out',
        join(root, 'results'),
      ],
      io,
    );
    expect(code, lines.join('\n')).toBe(0);
    expect(lines.join('\n')).toMatch(/run cli-run: 1 job\(s\) added/);
    expect(lines.join('\n')).not.toContain('hunter2');
    expect(readFileSync(join(root, 'results', 'cli-run', 'manifest.json'), 'utf8')).not.toContain('hunter2');
    expect(JSON.stringify((await queue.getJob(jobIdFor('cli-run', 'cli/b')))!.data)).not.toContain('hunter2');
    expect(await main(['run', join(root, 'cli', 'b'), '--name', 'x'], io)).toBe(2);
    expect(await main(['worker', '--slots', '2'], io)).toBe(2);
    expect(await main(['queue', 'status', '--queue', 'http://x'], io)).toBe(2);
    await (await queue.getJob(jobIdFor('cli-run', 'cli/b')))!.remove();
  });

  it('stops an attempt whose job lock was lost (taken as stalled) and lets the next attempt commit', async () => {
    const tasks = await load(['b']);
    const q = await enqueueRun(
      tasks,
      { agent: 'oracle', outDir: join(root, 'results') },
      { queue: redis.url, name: 'lost-lock' },
    );
    const current: Current = { created: 0 };
    const real = shellParts(current);
    const parts: Partial<RunnerParts> = {
      createEnvironment: (r) =>
        current.created === 0
          ? (current.created++, new Promise<Environment>(() => undefined))
          : real.createEnvironment!(r),
    };
    const log: string[] = [];
    await worker({ agent: fileAgent(current), parts, stallMs: 1000, log: (l) => log.push(l) });
    const id = jobIdFor('lost-lock', 'cli/b');
    await waitForJob(queue, id, ['active']);
    while (current.created === 0) await new Promise((r) => setTimeout(r, 20));
    const r = new IORedis(parseQueueUrl(redis.url).options as never);
    expect(await r.del(`bull:${QUEUE_NAME}:${id}:lock`)).toBe(1); // as if this worker had been silent past its lock
    await r.quit();
    expect(await waitForJob(queue, id, ['completed', 'failed'])).toBe('completed');
    expect(log.join('\n')).toMatch(/lost its lock/);
    const job = (await queue.getJob(id))!;
    expect(job.returnvalue).toMatchObject({ committed: 'run', state: 'success' });
    expect(job.attemptsStarted).toBeGreaterThanOrEqual(2);
    expect([...commits(q.runDir)]).toEqual([['cli/b', 1]]);
    await workers.pop()!.close();
  });
});
