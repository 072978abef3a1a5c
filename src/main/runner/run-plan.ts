// A run's options resolved into its plan (store/run-plan.ts) when the run is created, and a stored plan read back
// into the options a resumed run or a queue worker runs with: one mapping both ways.
import { resolve } from 'node:path';
import type { AgentOptions } from '../agents';
import { storableAgentOptions } from '../agents/stored-options';
import { storableEnvSpec } from '../env/kinds';
import { DEFAULT_TASK_TIMEOUT_MS } from './limits';
import type { RunPlan } from '../store/run-plan';
import type { RunCreation } from './run-options';

/** The agent options a plan keeps: plain settings (no key, no environment, no callbacks, no folder of downloads). */
const planned = [
  'baseUrl',
  'sampling',
  'retry',
  'historyWindow',
  'historyImages',
  'executionFeedback',
  'retrieval',
  'retrievalOptions',
  'image',
  'cut',
  'oracleFile',
  'demos',
] as const;

/** The storable part of agent options, a URL's user and password dropped. */
export function plannedAgentOptions(o: AgentOptions): Record<string, unknown> {
  return storableAgentOptions(o, planned);
}

/** The plan of a run about to be created from `opts`. */
export function planOf(opts: RunCreation): RunPlan {
  const agent = typeof opts.agent === 'string' ? opts.agent : (opts.agentName ?? 'custom');
  return {
    v: 1,
    agent,
    ...(opts.model ? { model: opts.model } : {}),
    agentOptions: plannedAgentOptions(opts.agentOptions ?? {}),
    observation: opts.observation ?? 'screenshot',
    actionSpace: opts.actionSpace ?? 'pyautogui',
    maxSteps: opts.maxSteps ?? 15,
    taskTimeoutMs: opts.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS,
    ...(opts.screen ? { screen: opts.screen } : {}),
    ...(opts.env !== undefined ? { env: storableEnvSpec(opts.env) } : {}),
    ...(opts.downloads !== undefined ? { downloads: resolve(opts.downloads) } : {}),
    ...(opts.gradingProfile ? { gradingProfile: opts.gradingProfile } : {}),
    repeats: opts.repeats ?? 1,
    ...(opts.maxRefusals !== undefined ? { maxRefusals: opts.maxRefusals } : {}),
    ...(opts.prices && Object.keys(opts.prices).length ? { prices: opts.prices } : {}),
    ...(opts.allowUnisolated ? { allowUnisolated: true } : {}),
    ...(opts.parallel !== undefined ? { parallel: opts.parallel } : {}),
  };
}

/** Merged agent options: the stored ones under those given now (sampling and image merged field by field). */
export function mergedAgentOptions(stored: AgentOptions, given: AgentOptions): AgentOptions {
  const merged: AgentOptions = { ...stored, ...given };
  if (stored.sampling || given.sampling) merged.sampling = { ...stored.sampling, ...given.sampling };
  if (stored.image || given.image) merged.image = { ...stored.image, ...given.image };
  return merged;
}
