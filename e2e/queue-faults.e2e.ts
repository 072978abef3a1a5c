// Fault tests of queued runs on one machine, loopback only: a private redis-server (AOF on), three `proctor worker`
// processes on sandbox displays, the oracle on the demo tasks. A worker SIGKILLed mid-task: its task is retried
// by another and every task is committed exactly once; the same run enqueued twice: no duplicate job; the
// enqueuing process killed right after enqueueing and Redis restarted mid-run: the workers finish, nothing lost.
// (Four and three demo tasks, one slot per worker: the machine has two cores shared with other work.)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../src/shared/run';
import { missingDemoPrograms, runProctor } from '../src/main/demo/testing-env';
import { projectRoot } from '../src/main/demo/paths';
import { parseQueueUrl, QUEUE_NAME } from '../src/main/queue/connection';
import { queueStatus } from '../src/main/queue/status';
import { hasRedisServer, TestRedis } from '../src/main/queue/testing/redis-server';
import { readJsonLines } from '../src/main/store/files';
import { readRun } from '../src/main/store/reader';
import { RunWriter } from '../src/main/store/run-writer';

const missing = [...missingDemoPrograms(), ...(hasRedisServer ? [] : ['redis-server'])];
const demo = (p: string) => resolve(projectRoot, 'resources/demo', p);
const terminal = [
  '246ccb60-7635-46fa-a222-6f4261e826ee',
  '48e74c8b-081c-4294-9402-fb511e790d36',
  'd4763460-7613-4df2-88bd-bca55ebae997',
].map((id) => demo(`terminal/${id}`));
const sqlite = demo('sqlite/6590c184-628c-40b1-a443-9f48543cd840');

interface WorkerProc {
  name: string;
  child: ChildProcess;
  out: string;
}

/** task.finished events that committed a result, per task key (a killed or cancelled attempt commits none). */
function commits(runDir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readJsonLines<RunEvent>(join(runDir, 'events.jsonl')).values)
    if (e.kind === 'task.finished' && e.state !== 'cancelled')
      out.set(e.taskKey, (out.get(e.taskKey) ?? 0) + 1);
  return out;
}

async function until<T>(
  what: string,
  ms: number,
  probe: () => Promise<T | undefined> | T | undefined,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(missing.length > 0)(
  `queued runs under faults${missing.length ? ` (skipped: missing ${missing.join(', ')})` : ''}`,
  () => {
    let redis: TestRedis;
    let out: string;
    let queue: Queue;
    const workers: WorkerProc[] = [];
    const startWorker = (name: string) => {
      const child = spawn(
        process.execPath,
        [
          resolve(projectRoot, 'bin/proctor.mjs'),
          'worker',
          '--queue',
          redis.url,
          '--slots',
          '1',
          '--name',
          name,
          '--stall-ms',
          '5000',
        ],
        {
          cwd: projectRoot,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      const w: WorkerProc = { name, child, out: '' };
      child.stdout!.on('data', (d: Buffer) => (w.out += d.toString()));
      child.stderr!.on('data', (d: Buffer) => (w.out += d.toString()));
      workers.push(w);
      return w;
    };
    const settled = (runId: string, total: number) =>
      until(`run ${runId} settled`, 240_000, async () => {
        const s = await queueStatus(redis.url, { runId });
        return s.total === total && s.done + s.failed === total ? s : undefined;
      });

    beforeAll(async () => {
      redis = await TestRedis.start();
      out = mkdtempSync(join(tmpdir(), 'proctor-queue-e2e-'));
      queue = new Queue(QUEUE_NAME, { connection: parseQueueUrl(redis.url).options });
      queue.on('error', () => undefined); // refused while Redis restarts; it reconnects
    });
    afterAll(async () => {
      for (const w of workers)
        if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await queue?.close();
      await redis?.dispose();
      if (out) rmSync(out, { recursive: true, force: true });
    });

    it('grades every task exactly once when a worker is SIGKILLed mid-task, and a second enqueue adds no job', async () => {
      const tasks = [...terminal, sqlite];
      const args = [
        'run',
        ...tasks,
        '--queue',
        redis.url,
        '--name',
        'faults',
        '--out',
        out,
        '--screen',
        '1280x800',
      ];
      const first = await runProctor(args, 60_000);
      expect(first.stdout, first.stderr).toMatch(/run faults: 4 job\(s\) added/);
      const again = await runProctor(args, 60_000);
      expect(again.stdout, again.stderr).toMatch(/run faults: 0 job\(s\) added, 4 already in the queue/);
      expect(
        await queue.getJobCountByTypes('waiting', 'active', 'completed', 'failed', 'delayed', 'prioritized'),
      ).toBe(4);

      for (const n of [1, 2, 3]) startWorker(`w${n}`);
      const runDir = join(out, 'faults');
      const run = RunWriter.attach(runDir);
      // A task under way (a step recorded, no summary yet): its lock names the worker writing it.
      const victim = await until('a task mid-way', 180_000, () => {
        for (const key of run.manifest.tasks) {
          const dir = run.taskDir(key);
          if (
            !existsSync(join(dir, 'steps.jsonl')) ||
            existsSync(join(dir, 'summary.json')) ||
            !existsSync(join(dir, '.lock'))
          )
            continue;
          try {
            const pid = (JSON.parse(readFileSync(join(dir, '.lock'), 'utf8')) as { pid: number }).pid;
            const w = workers.find((x) => x.child.pid === pid);
            if (w) return { key, w };
          } catch {
            // the lock is being written
          }
        }
        return undefined;
      });
      process.kill(victim.w.child.pid!, 'SIGKILL');

      const s = await settled('faults', 4);
      expect(s).toMatchObject({ done: 4, failed: 0 });
      expect(s.retried).toBeGreaterThanOrEqual(1);
      // every task committed exactly once, all graded (the oracle solves each)
      expect([...commits(runDir)].sort()).toEqual(run.manifest.tasks.map((k) => [k, 1]).sort());
      for (const key of run.manifest.tasks)
        expect(
          JSON.parse(readFileSync(join(run.taskDir(key), 'summary.json'), 'utf8')).results,
        ).toMatchObject({ score: 1 });
      expect(readRun(runDir).run).toMatchObject({ live: false, successRate: 1 }); // as the UI reads it
      // the killed task: done by another worker, its dead attempt kept aside (not counted)
      const job = (await queue.getJobs(['completed'])).find((j) => j.data.taskKey === victim.key)!;
      expect(job.returnvalue).toMatchObject({ committed: 'run' });
      expect(job.returnvalue.worker).not.toBe(victim.w.name);
      const parent = join(run.taskDir(victim.key), '..');
      const base = run.taskDir(victim.key).split('/').at(-1)!;
      expect(readdirSync(parent).filter((f) => f.startsWith(`${base}.partial-`))).toHaveLength(1);
    });

    it('finishes a run whose enqueuer was killed right after enqueueing, through a Redis restart mid-run', async () => {
      const enqueuer = spawn(
        process.execPath,
        [
          resolve(projectRoot, 'bin/proctor.mjs'),
          'run',
          ...terminal,
          '--queue',
          redis.url,
          '--name',
          'restart',
          '--out',
          out,
          '--screen',
          '1280x800',
        ],
        { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let said = '';
      enqueuer.stdout!.on('data', (d: Buffer) => {
        said += d.toString();
        if (/job\(s\) added/.test(said)) enqueuer.kill('SIGKILL');
      });
      await new Promise((r) => enqueuer.once('exit', r));
      expect(said).toMatch(/run restart: 3 job\(s\) added/);
      if (workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null).length < 3)
        startWorker('w4');

      // Redis goes down and comes back (same folder, AOF) once the first task of the run has been graded.
      const before = await until('a first task done', 180_000, async () => {
        const st = await queueStatus(redis.url, { runId: 'restart' });
        return st.done >= 1 ? st : undefined;
      });
      await redis.restart(1000);
      expect(before.done).toBeLessThan(3); // mid-run

      const s = await settled('restart', 3);
      expect(s).toMatchObject({ done: 3, failed: 0, total: 3 });
      const runDir = join(out, 'restart');
      const run = RunWriter.attach(runDir);
      expect([...commits(runDir)].sort()).toEqual(run.manifest.tasks.map((k) => [k, 1]).sort());
      for (const key of run.manifest.tasks)
        expect(existsSync(join(run.taskDir(key), 'summary.json'))).toBe(true);
      // the first run's jobs survived the restart too
      expect((await queueStatus(redis.url, { runId: 'faults' })).done).toBe(4);
    });

    it('stops on SIGTERM after finishing the job it runs, and idle workers stop at once', async () => {
      const idle = workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
      await Promise.all(
        idle.map((w) => new Promise<void>((r) => (w.child.once('exit', () => r()), w.child.kill('SIGTERM')))),
      );
      for (const w of idle) expect(w.child.exitCode, w.out).toBe(0);

      const first = await runProctor(
        ['run', sqlite, '--queue', redis.url, '--name', 'graceful', '--out', out, '--screen', '1280x800'],
        60_000,
      );
      expect(first.stdout, first.stderr).toMatch(/1 job\(s\) added/);
      const w = startWorker('w9');
      const run = RunWriter.attach(join(out, 'graceful'));
      const dir = run.taskDir(run.manifest.tasks[0]);
      await until('the task under way', 120_000, () =>
        existsSync(join(dir, 'steps.jsonl')) ? true : undefined,
      );
      const exited = new Promise<number | null>((r) => w.child.once('exit', (code) => r(code)));
      w.child.kill('SIGTERM');
      expect(await exited, w.out).toBe(0);
      expect(existsSync(join(dir, 'summary.json'))).toBe(true);
      const s = await queueStatus(redis.url, { runId: 'graceful' });
      expect(s).toMatchObject({ done: 1, waiting: 0, active: 0 });
      expect(w.out).toMatch(/stopped/);
    });
  },
);
