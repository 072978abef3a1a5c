// `proctor run … --queue`: writes the run folder and manifest as a local run would, then adds one job per task
// to the shared queue. Adding is idempotent: a job id comes from the run and the task key, so enqueueing the
// same run again (`--name`) adds only what is missing, and nothing when all is there. A repeated run (`--repeats N`)
// has one job per attempt (its manifest entry `<key>#<n>`).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import type { Task } from '../../shared/task';
import { createRun, entriesOf, type RunCreation } from '../runner/scheduler';
import { DEFAULT_TASK_TIMEOUT_MS } from '../runner/limits';
import { screenFor } from '../runner/screen';
import { entryOf } from '../store/layout';
import { RunWriter } from '../store/run-writer';
import { storableEnvSpec } from '../env/kinds';
import { parseQueueUrl, QUEUE_NAME } from './connection';
import { jobIdFor, queuedAgentOptions, type TaskJobData } from './jobs';

export interface EnqueueOptions {
  /** `redis://HOST:PORT`. */
  queue: string;
  /** Run folder name; the same name again continues that run's queue instead of making a new run. */
  name?: string;
  /** Attempts per job (environment errors are retried with backoff). Default 3. */
  attempts?: number;
  /** First backoff delay in ms (exponential). Default 5000. */
  backoffMs?: number;
}

export interface Enqueued {
  runId: string;
  runDir: string;
  /** Jobs added now. */
  added: number;
  /** Jobs that were already in the queue (a second enqueue of the same run). */
  existing: number;
}

/** Run names given with --name: a folder name. */
export function checkRunName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._@+-]{0,119}$/.test(name))
    throw new Error(
      `--name '${name}': letters, digits and . _ @ + - only (up to 120), starting with a letter or digit`,
    );
  return name;
}

/** Writes (or, for a named run already there, checks) the run folder and adds its tasks' jobs. */
export async function enqueueRun(tasks: Task[], opts: RunCreation, q: EnqueueOptions): Promise<Enqueued> {
  const target = parseQueueUrl(q.queue);
  const agent = typeof opts.agent === 'string' ? opts.agent : undefined;
  if (!agent)
    throw new Error(
      'a queued run names a registered agent (workers build it); a code-made agent cannot travel',
    );
  const name = q.name === undefined ? undefined : checkRunName(q.name);
  const outDir = resolve(opts.outDir ?? 'results');
  let run: RunWriter;
  if (name && existsSync(join(outDir, name, 'manifest.json'))) {
    run = RunWriter.attach(join(outDir, name));
    const want = entriesOf(tasks, opts.repeats ?? 1)
      .map((e) => e.key)
      .sort()
      .join('\n');
    if ([...run.manifest.tasks].sort().join('\n') !== want)
      throw new Error(
        `run ${join(outDir, name)} already exists with other tasks or repeats; give another --name (or the same tasks and --repeats to enqueue it again)`,
      );
  } else {
    run = await createRun(tasks, opts, { runId: name, queue: target.shown });
    run.release(); // the workers write the tasks; nobody holds the run as a whole
    // live for readers from here until a worker commits the last task (run.finished)
    run.event({
      kind: 'run.started',
      runId: run.runId,
      at: new Date().toISOString(),
      tasks: run.manifest.tasks,
    });
  }
  const m = run.manifest;
  const queue = new Queue(QUEUE_NAME, { connection: target.options });
  try {
    let added = 0;
    let existing = 0;
    const byKey = new Map(entriesOf(tasks).map((e) => [e.key, e.task]));
    for (const key of m.tasks) {
      const task = byKey.get(entryOf(m, key).taskKey)!;
      const jobId = jobIdFor(m.runId, key);
      if (await queue.getJob(jobId)) {
        existing++;
        continue;
      }
      const data: TaskJobData = {
        v: 1,
        runId: m.runId,
        runDir: run.runDir,
        taskKey: key,
        taskFile: resolve(task.file),
        agent,
        ...(opts.model ? { model: opts.model } : {}),
        agentOptions: queuedAgentOptions(opts.agentOptions ?? {}),
        observation: m.observation,
        actionSpace: m.actionSpace,
        maxSteps: m.maxSteps ?? 15,
        taskTimeoutMs: m.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS,
        ...(m.maxRefusals !== undefined ? { maxRefusals: m.maxRefusals } : {}),
        screen: screenFor(task, opts),
        ...(opts.env !== undefined ? { env: storableEnvSpec(opts.env) } : {}),
      };
      // Same id twice is a no-op in BullMQ, so a concurrent second enqueue still adds nothing twice.
      await queue.add(key, data, {
        jobId,
        attempts: q.attempts ?? 3,
        backoff: { type: 'exponential', delay: q.backoffMs ?? 5000 },
        removeOnComplete: false,
        removeOnFail: false,
      });
      added++;
    }
    return { runId: m.runId, runDir: run.runDir, added, existing };
  } finally {
    await queue.close();
  }
}
