// One queue job per task of a run: what it carries (the run's settings, never a secret), its id (derived from
// the run and the task key, so adding a run twice adds nothing), and the reading of a job's data by a worker,
// which treats it as untrusted input.
import { createHash } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { AgentOptions } from '../agents';
import { storableAgentOptions } from '../agents/stored-options';
import {
  isActionSpace,
  isObservationType,
  type ActionSpace,
  type ObservationType,
} from '../../shared/spaces';

export interface TaskJobData {
  /** Job data format. */
  v: 1;
  runId: string;
  /** The run folder as the enqueuer saw it (absolute); a worker's `--out` says where that folder is mounted there. */
  runDir: string;
  taskKey: string;
  /** The task file (absolute), read again by the worker (on shared storage, like the run folder). */
  taskFile: string;
  agent: string;
  model?: string;
  /** The agent's options that are plain settings; keys and endpoints' secrets come from each worker's configuration. */
  agentOptions: QueuedAgentOptions;
  observation: ObservationType;
  actionSpace: ActionSpace;
  maxSteps: number | 'auto';
  taskTimeoutMs: number;
  screen: { width: number; height: number };
  /** The environment spec the run was enqueued with, secrets dropped (a worker's own `--env` wins). */
  env?: string;
  /** Replies refused in a row that end the task as agent_error (the run's `--max-refusals`). */
  maxRefusals?: number;
}

/** The agent options a job may carry: settings only (no key, no environment variables, no callbacks). */
const carried = [
  'baseUrl',
  'sampling',
  'retry',
  'historyWindow',
  'historyImages',
  'executionFeedback',
  'retrieval',
  'image',
  'cut',
  'oracleFile',
] as const;
export type QueuedAgentOptions = Pick<AgentOptions, (typeof carried)[number]>;

/** The options that may travel in a job; everything else (apiKey, env, callbacks) is dropped. */
export function queuedAgentOptions(o: AgentOptions): QueuedAgentOptions {
  return storableAgentOptions(o, carried);
}

/**
 * The job id of a task of a run: the same run and task always give the same id (BullMQ adds a job whose id is
 * taken as nothing). Readable start, hashed rest: ids may not contain ':' and must stay short.
 */
export function jobIdFor(runId: string, taskKey: string): string {
  const h = createHash('sha256').update(`${runId}\n${taskKey}`).digest('hex').slice(0, 24);
  return `${runId.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80)}.${h}`;
}

export class JobDataError extends Error {}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A job's data checked field by field; throws JobDataError naming the field (as a JSON pointer). */
export function readJobData(value: unknown): TaskJobData {
  if (!isObj(value)) throw new JobDataError('job data: not an object');
  const str = (k: string, optional = false): string | undefined => {
    const v = value[k];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string' || v.length === 0 || v.length > 4096)
      throw new JobDataError(`job data /${k}: a non-empty string expected`);
    return v;
  };
  if (value.v !== 1)
    throw new JobDataError(`job data /v: format ${String(value.v)} is not 1 (a newer Proctor enqueued it?)`);
  const runId = str('runId')!;
  if (!/^[A-Za-z0-9._@+-]{1,200}$/.test(runId) || runId.startsWith('.'))
    throw new JobDataError('job data /runId: not a run folder name');
  const runDir = str('runDir')!;
  const taskFile = str('taskFile')!;
  if (!isAbsolute(runDir)) throw new JobDataError('job data /runDir: not an absolute path');
  if (!isAbsolute(taskFile)) throw new JobDataError('job data /taskFile: not an absolute path');
  const observation = str('observation')!;
  if (!isObservationType(observation))
    throw new JobDataError(`job data /observation: unknown type '${observation}'`);
  const actionSpace = str('actionSpace')!;
  if (!isActionSpace(actionSpace))
    throw new JobDataError(`job data /actionSpace: unknown space '${actionSpace}'`);
  const maxSteps = value.maxSteps;
  if (
    maxSteps !== 'auto' &&
    !(Number.isInteger(maxSteps) && (maxSteps as number) >= 1 && (maxSteps as number) <= 1000)
  )
    throw new JobDataError('job data /maxSteps: a number from 1 to 1000, or auto');
  const timeout = value.taskTimeoutMs;
  if (typeof timeout !== 'number' || !(timeout > 0) || timeout > 7 * 24 * 3600_000)
    throw new JobDataError('job data /taskTimeoutMs: a positive number of ms');
  const screen = value.screen;
  if (
    !isObj(screen) ||
    !Number.isInteger(screen.width) ||
    !Number.isInteger(screen.height) ||
    (screen.width as number) < 100 ||
    (screen.height as number) < 100 ||
    (screen.width as number) > 20000 ||
    (screen.height as number) > 20000
  )
    throw new JobDataError('job data /screen: {width, height} in pixels');
  if (!isObj(value.agentOptions)) throw new JobDataError('job data /agentOptions: an object expected');
  for (const k of Object.keys(value.agentOptions))
    if (!(carried as readonly string[]).includes(k))
      throw new JobDataError(`job data /agentOptions/${k}: not an option a job may carry`);
  const model = str('model', true);
  const env = str('env', true);
  const maxRefusals = value.maxRefusals;
  if (
    maxRefusals !== undefined &&
    !(Number.isInteger(maxRefusals) && (maxRefusals as number) >= 0 && (maxRefusals as number) <= 1000)
  )
    throw new JobDataError('job data /maxRefusals: a whole number from 0 to 1000');
  return {
    v: 1,
    runId,
    runDir,
    taskKey: str('taskKey')!,
    taskFile,
    agent: str('agent')!,
    ...(model ? { model } : {}),
    agentOptions: value.agentOptions as QueuedAgentOptions,
    observation,
    actionSpace,
    maxSteps: maxSteps as number | 'auto',
    taskTimeoutMs: timeout,
    screen: { width: screen.width as number, height: screen.height as number },
    ...(env ? { env } : {}),
    ...(maxRefusals !== undefined ? { maxRefusals: maxRefusals as number } : {}),
  };
}
