// A queue worker: N slots, each running one task job at a time on its own environment (setup → agent loop →
// grading, the runner's own per-task code), writing into the run folder on shared storage. Delivery is
// at-least-once, so each job first looks for a committed result (then does nothing), keeps a dead attempt's
// folder aside as a failed attempt, and commits summary.json once. Environment errors are retried with backoff;
// errors retrying cannot fix (bad job data, an unreadable task file, an agent that cannot be built, a missing
// account) fail the job at once. close() finishes the running jobs; close({ now: true }) returns them.
import { hostname } from 'node:os';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import IORedis, { type RedisOptions } from 'ioredis';
import type { RunEvent } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Agent } from '../agents/agent';
import { agentHoldsSecrets } from '../agents';
import { preflightEnvironment, DEFAULT_ENV_SPEC } from '../env/kinds';
import { sweepLeftovers } from '../env/leftovers';
import { partsWith, withEnvironment, checkedEnvironment, type RunnerParts } from '../runner/parts';
import { agentForTask, type AttemptOptions } from '../runner/run-options';
import { taskSettings } from '../runner/task-plan';
import { mergedAgentOptions } from '../runner/run-plan';
import { gradingUnder } from '../evaluators/grade';
import { readRunPlan, type RunPlan } from '../store/run-plan';
import type { PriceTable } from '../price-table';
import { runTask, type TaskOutcome } from '../runner/step-loop';
import { entryOf, taskKeyOf } from '../store/layout';
import { AlreadyCommittedError, TaskLockedError } from '../store/run-writer';
import { parseQueueUrl, QUEUE_NAME } from './connection';
import { JobDataError, readJobData, type TaskJobData } from './jobs';
import { EventRelay } from './live-events';
import { SharedFolderStore, type ResultStore } from './result-store';

export interface QueueWorkerOptions {
  /** `redis://HOST:PORT`. */
  queue: string;
  /** This machine's environment spec (default: the job's, else local). */
  env?: string;
  /** Jobs at once, each on its own environment. Default 1. */
  slots?: number;
  /** Where this machine sees the folder holding the run folders (default: the path the run was enqueued with). */
  out?: string;
  /** Shown in `queue status`. Default `<host>:<pid>`. */
  name?: string;
  /** Lock duration and stalled-check interval (ms): how soon a dead worker's job goes back. Default 30000. */
  stallMs?: number;
  allowUnisolated?: boolean;
  /** Replaces parts of the engine (the bench's simulated environment). */
  parts?: Partial<RunnerParts>;
  /** Replaces the job's agent (the bench). */
  agent?: (task: Task) => Agent;
  store?: ResultStore;
  /** A line per job event (start, end, retry). */
  log?: (line: string) => void;
}

/** What a completed job returns (kept by BullMQ, read by `queue status`). */
export interface JobResult {
  taskKey: string;
  /** `run`: this attempt committed the result; `before`: an earlier attempt had; `elsewhere`: a concurrent one did. */
  committed: 'run' | 'before' | 'elsewhere';
  state?: string;
  score?: number;
  steps?: number;
  worker: string;
}

export interface QueueWorker {
  readonly name: string;
  /** Stops taking jobs; waits for running ones (`now`: cancels them and puts them back in the queue). */
  close(options?: { now?: boolean }): Promise<void>;
  /** Resolves when the worker has closed. */
  readonly closed: Promise<void>;
}

const retryable = (message: string) => new Error(message);

/**
 * The options a job's task runs with: the job's own settings, over the run's stored plan (grading profile,
 * downloads, agent options a job does not carry), as a resumed run reads them (runner/run-plan.ts).
 */
export function jobRunOptions(
  data: TaskJobData,
  plan: RunPlan | undefined,
  prices: PriceTable | undefined,
  agent?: (task: Task) => Agent,
): AttemptOptions {
  return {
    agent: agent ?? data.agent,
    model: data.model,
    agentOptions: {
      ...mergedAgentOptions(plan?.agentOptions ?? {}, data.agentOptions),
      ...(data.model ? { model: data.model } : {}),
      ...(plan?.downloads !== undefined ? { downloads: plan.downloads } : {}),
    },
    ...(plan?.downloads !== undefined ? { downloads: plan.downloads } : {}),
    ...(plan?.gradingProfile ? { gradingProfile: plan.gradingProfile } : {}),
    observation: data.observation,
    actionSpace: data.actionSpace,
    maxSteps: data.maxSteps,
    taskTimeoutMs: data.taskTimeoutMs,
    screen: data.screen,
    ...(data.maxRefusals !== undefined ? { maxRefusals: data.maxRefusals } : {}),
    ...(prices ? { prices } : {}),
  };
}

export async function startQueueWorker(o: QueueWorkerOptions): Promise<QueueWorker> {
  const target = parseQueueUrl(o.queue);
  const slots = Math.max(1, Math.min(o.slots ?? 1, 64));
  const name = o.name ?? `${hostname()}:${process.pid}`;
  const log = o.log ?? (() => undefined);
  if (o.env !== undefined) checkedEnvironment(o.env);
  const store = o.store ?? new SharedFolderStore(o.out);
  const base = await partsWith(o.parts);
  await sweepLeftovers();
  const free = Array.from({ length: slots }, (_, i) => i);
  const active = new Map<
    string,
    { job: Job<TaskJobData>; abort: AbortController; stopping: boolean; lost: boolean }
  >();

  const relayRedis = new IORedis(target.options as RedisOptions);
  relayRedis.on('error', () => undefined); // reconnects on its own; the relay counts what it drops
  const relay = new EventRelay(relayRedis);
  const stopRelay = relay.follow((e: RunEvent) => {
    if (!('taskKey' in e)) return false;
    const a = active.get(`${e.runId}\n${e.taskKey}`);
    if (!a) return false;
    if (e.kind === 'task.step')
      a.job.updateProgress({ taskKey: e.taskKey, step: e.step.step }).catch(() => undefined);
    return true;
  });

  async function handleJob(job: Job<TaskJobData>, token?: string): Promise<JobResult> {
    let data: TaskJobData;
    try {
      data = readJobData(job.data);
    } catch (e) {
      throw new UnrecoverableError((e as JobDataError).message);
    }
    const key = data.taskKey;
    let run;
    try {
      run = store.run(data);
    } catch (e) {
      // A damaged manifest is the run's fault; a folder this machine does not see may be a mount missing here.
      if (/damaged|not readable JSON|run id/.test((e as Error).message))
        throw new UnrecoverableError((e as Error).message);
      throw retryable(`${(e as Error).message} (is the shared results folder mounted here? see --out)`);
    }
    if (!run.manifest.tasks.includes(key))
      throw new UnrecoverableError(`${run.runDir}/manifest.json: task ${key} is not in run ${run.runId}`);
    if (run.isFinished(key)) {
      log(`${job.id}: ${key} already has a committed result; nothing to do`);
      return { taskKey: key, committed: 'before', worker: name };
    }
    const loaded = await base.loadTasks([data.taskFile]);
    // a repeated run's job names an attempt (`<key>#<n>`); the task is the one its manifest entry runs
    const { taskKey: ownKey, attempt } = entryOf(run.manifest, key);
    const task = loaded.tasks.find((t) => taskKeyOf(t) === ownKey);
    if (!task) {
      const why = loaded.problems.find((p) => p.severity === 'error');
      throw new UnrecoverableError(
        `${data.taskFile}: task ${key} cannot be read${why ? ` (${why.pointer ?? ''} ${why.message})` : ''}`,
      );
    }
    // The rest of the run's settings (grading profile, downloads, agent options a job does not carry) come
    // from the plan stored with the run, as a resumed run's do.
    let plan;
    try {
      plan = readRunPlan(run.runDir);
    } catch (e) {
      throw new UnrecoverableError((e as Error).message);
    }
    const envSpec = o.env ?? data.env;
    try {
      preflightEnvironment(envSpec ?? DEFAULT_ENV_SPEC, {
        agentHoldsSecrets: !o.agent && agentHoldsSecrets(data.agent),
        allowUnisolated: !!o.allowUnisolated,
        // a worker's environment that cannot give the job's observation or act in its action space refuses it
        observation: data.observation,
        actionSpace: data.actionSpace,
      });
    } catch (e) {
      throw new UnrecoverableError((e as Error).message);
    }
    let writer;
    try {
      // A folder without summary.json is a dead attempt's (the queue handed the job on): kept aside, not counted.
      const aside = run.moveAsidePartial(key, { takeOver: true });
      if (aside) log(`${job.id}: ${key}: the last attempt's folder is kept as ${aside}`);
      writer = run.openTask(key);
    } catch (e) {
      if (e instanceof TaskLockedError) throw retryable(e.message);
      throw e;
    }
    const runOpts = jobRunOptions(data, plan, run.manifest.prices, o.agent);
    let agent: Agent;
    try {
      agent = await agentForTask(runOpts, task);
    } catch (e) {
      writer.close();
      throw new UnrecoverableError(`agent ${data.agent}: ${(e as Error).message}`);
    }
    const slot = free.shift() ?? 0;
    const abort = new AbortController();
    const entry = { job, abort, stopping: false, lost: false };
    active.set(`${data.runId}\n${key}`, entry);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    let envFailure: string | undefined;
    const parts = withEnvironment(
      o.parts?.grade ? base : { ...base, ...gradingUnder(runOpts.gradingProfile) },
      envSpec,
    );
    // Before the last attempt, an environment that does not start ends this attempt uncommitted, to be retried.
    const guarded: RunnerParts = lastAttempt
      ? parts
      : {
          ...parts,
          createEnvironment: (r) =>
            parts.createEnvironment(r).catch((e: unknown) => {
              envFailure = (e as Error).message;
              abort.abort();
              throw e;
            }),
        };
    log(
      `${job.id}: ${key} started on slot ${slot} (attempt ${job.attemptsMade + 1}${job.attemptsStarted > job.attemptsMade + 1 ? `, after a stall` : ''})`,
    );
    let outcome: TaskOutcome;
    try {
      outcome = await runTask({
        task,
        taskKey: key,
        run,
        writer,
        agent,
        parts: guarded,
        settings: taskSettings(task, runOpts),
        worker: slot,
        runSignal: abort.signal,
        ...(attempt !== undefined ? { attempt } : {}),
      });
    } catch (e) {
      if (e instanceof AlreadyCommittedError) {
        log(`${job.id}: ${e.message}`);
        return { taskKey: key, committed: 'elsewhere', worker: name };
      }
      throw e;
    } finally {
      active.delete(`${data.runId}\n${key}`);
      free.push(slot);
    }
    if (outcome.state === 'cancelled') {
      if (envFailure !== undefined) throw retryable(`the environment did not start: ${envFailure}`);
      if (entry.lost)
        throw retryable('this worker lost the job (its lock expired); the queue hands it to another');
      if (entry.stopping && token) {
        await job.moveToWait(token);
        log(`${job.id}: ${key} returned to the queue (worker stopping)`);
        throw new WaitingError();
      }
      throw retryable(outcome.error ?? 'cancelled');
    }
    log(`${job.id}: ${key} ${outcome.state} score ${outcome.score}`);
    if (run.manifest.tasks.every((k) => run.isFinished(k))) {
      // the last result of the run: readers stop showing it live (two workers finishing together may both say so)
      const finished: RunEvent = { kind: 'run.finished', runId: run.runId, at: new Date().toISOString() };
      run.event(finished);
      relay.forward(finished);
    }
    if (outcome.state === 'skipped')
      throw new UnrecoverableError(`skipped (result committed): ${outcome.error ?? ''}`);
    return {
      taskKey: key,
      committed: 'run',
      state: outcome.state,
      score: outcome.score,
      steps: outcome.steps,
      worker: name,
    };
  }

  const stallMs = o.stallMs ?? 30_000;
  const worker = new Worker<TaskJobData, JobResult>(QUEUE_NAME, (job, token) => handleJob(job, token), {
    connection: target.options,
    concurrency: slots,
    name,
    lockDuration: stallMs,
    stalledInterval: stallMs,
    maxStalledCount: 2,
    autorun: false,
  });
  worker.on('error', (e) => log(`queue: ${e.message}`));
  // The job's lock could not be renewed (this worker was silent too long): the queue takes it as stalled and
  // hands it on, so this attempt stops uncommitted rather than race the next one.
  worker.on('lockRenewalFailed', (ids) => {
    for (const a of active.values())
      if (a.job.id !== undefined && ids.includes(a.job.id)) {
        log(`${a.job.id}: lost its lock; stopping this attempt`);
        a.lost = true;
        a.abort.abort();
      }
  });
  worker.on('failed', (job, e) => log(`${job?.id ?? '?'}: failed: ${e.message}`));
  const closed = new Promise<void>((resolve) => worker.once('closed', () => resolve()));
  void worker.run().catch((e: unknown) => log(`queue: ${(e as Error).message}`));
  log(`worker ${name}: ${slots} slot(s) on ${target.shown}, ${store.describe()}`);

  let closing: Promise<void> | undefined;
  return {
    name,
    closed,
    async close(options = {}) {
      if (options.now)
        for (const a of active.values()) {
          a.stopping = true;
          a.abort.abort();
        }
      closing ??= (async () => {
        await worker.close();
        stopRelay();
        relayRedis.disconnect();
      })();
      await closing;
    },
  };
}
