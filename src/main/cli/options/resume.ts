// What `proctor run --resume` continues a run with: the run's stored plan (run-plan.json), or for a run written
// before plans were stored what its manifest's command line says, overridden by the options given now.
import type { AgentOptions } from '../../agents';
import type { GradingProfile } from '../../evaluators/profile';
import { mergedAgentOptions } from '../../runner/run-plan';
import type { RunShape, TaskOptions } from '../../runner/run-options';
import { readRunPlan } from '../../store/run-plan';
import { readManifest } from '../../store/run-writer';
import { UsageError } from '../command';
import { agentFlagProblem, parseRunArgs, type RunFlags } from './run-options';

/** The settings a run was started with, beyond those its manifest holds. */
export interface StoredRunSettings {
  agent: string;
  agentOptions: AgentOptions;
  gradingProfile?: GradingProfile;
  downloads?: string;
  allowUnisolated?: boolean;
  parallel?: number;
  /** Where they were read: the run's plan, its stored command line (an older Proctor's run), or neither. */
  source: 'plan' | 'args' | 'none';
}

/** The run's plan; for an older run, its stored command line read again (one that no longer parses gives none). */
export function storedRunSettings(runDir: string): StoredRunSettings {
  const manifest = readManifest(runDir);
  const plan = readRunPlan(runDir);
  if (plan)
    return {
      agent: manifest.agent,
      agentOptions: plan.agentOptions as AgentOptions,
      ...(plan.gradingProfile ? { gradingProfile: plan.gradingProfile } : {}),
      ...(plan.downloads !== undefined ? { downloads: plan.downloads } : {}),
      ...(plan.allowUnisolated ? { allowUnisolated: true } : {}),
      ...(plan.parallel !== undefined ? { parallel: plan.parallel } : {}),
      source: 'plan',
    };
  const args = manifest.args ?? [];
  if (args[0] === 'run') {
    try {
      const then = parseRunArgs(args.slice(1));
      return {
        agent: manifest.agent,
        agentOptions: { ...then.agentOptions, ...(then.baseUrl ? { baseUrl: then.baseUrl } : {}) },
        ...(then.gradingProfile ? { gradingProfile: then.gradingProfile } : {}),
        ...(then.downloads !== undefined ? { downloads: then.downloads } : {}),
        ...(then.allowUnisolated ? { allowUnisolated: true } : {}),
        ...(then.given.includes('parallel') ? { parallel: then.parallel } : {}),
        source: 'args',
      };
    } catch {
      // an older command line this Proctor no longer reads: the manifest's settings only
    }
  }
  return { agent: manifest.agent, agentOptions: {}, source: 'none' };
}

/**
 * The agent options of a run being resumed: the stored ones (so the agent is the one the run started with),
 * overridden by the ones given now; an option of another agent than the run's is refused.
 */
export function resumedAgentOptions(
  runDir: string,
  given: RunFlags,
): { agent: string; options: AgentOptions } {
  const stored = storedRunSettings(runDir);
  const problem = agentFlagProblem(stored.agent, given.agentFlags);
  if (problem) throw new UsageError(problem);
  return { agent: stored.agent, options: mergedAgentOptions(stored.agentOptions, given.agentOptions) };
}

/** The run-level options of a resume: the stored settings, each replaced by the option when it was given now. */
export function resumedRunOptions(
  runDir: string,
  flags: RunFlags,
): Pick<
  TaskOptions & RunShape,
  | 'gradingProfile'
  | 'downloads'
  | 'allowUnisolated'
  | 'parallel'
  | 'taskTimeoutMs'
  | 'screen'
  | 'env'
  | 'maxRefusals'
  | 'prices'
> {
  const stored = storedRunSettings(runDir);
  const given = new Set(flags.given);
  const gradingProfile = given.has('grading-profile') ? flags.gradingProfile : stored.gradingProfile;
  const downloads = given.has('downloads') ? flags.downloads : stored.downloads;
  const parallel = given.has('parallel') ? flags.parallel : stored.parallel;
  return {
    ...(gradingProfile ? { gradingProfile } : {}),
    ...(downloads !== undefined ? { downloads } : {}),
    ...(given.has('allow-unisolated') || stored.allowUnisolated ? { allowUnisolated: true } : {}),
    ...(parallel !== undefined ? { parallel } : {}),
    // the manifest holds these; only an option given now replaces them
    ...(given.has('task-timeout') ? { taskTimeoutMs: flags.taskTimeoutMs } : {}),
    ...(flags.screen ? { screen: flags.screen } : {}),
    ...(flags.env !== undefined ? { env: flags.env } : {}),
    ...(flags.maxRefusals !== undefined ? { maxRefusals: flags.maxRefusals } : {}),
    ...(flags.prices ? { prices: flags.prices } : {}),
  };
}
