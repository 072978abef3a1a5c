// `run-plan.json` beside a run's manifest: the run's settings resolved once (what each task gets: agent and its
// options, observation, limits, environment, downloads, grading profile, repeats, prices), written when the run is
// created and read by `--resume` and by queue workers, so a continued or queued run has exactly the original's.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GradingProfile } from '../../shared/run';
import { ACTION_SPACES, OBSERVATION_TYPES } from '../../shared/spaces';
import { priceTableProblems } from '../price-table';
import { writeFileAtomicSync } from './files';
import type { RunPlan } from '../../shared/generated/run-plan';

export const RUN_PLAN_FILE = 'run-plan.json';

/** run-plan.json's type comes from resources/schemas/run-plan.schema.json (npm run gen:types). */
export type { RunPlan } from '../../shared/generated/run-plan';

const PROFILES: readonly string[] = ['spider2v', 'osworld', 'native'];
const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function writeRunPlan(runDir: string, plan: RunPlan): void {
  writeFileAtomicSync(join(runDir, RUN_PLAN_FILE), JSON.stringify(plan, null, 2) + '\n');
}

/** Thrown for a run-plan.json that cannot be read; the message names the file and the field. */
export class RunPlanError extends Error {}

/** The run's plan, or undefined for a run written before plans were stored (its manifest's args then tell). */
export function readRunPlan(runDir: string): RunPlan | undefined {
  const file = join(runDir, RUN_PLAN_FILE);
  if (!existsSync(file)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new RunPlanError(
      `${file}: not readable JSON (${(e as Error).message}); remove it to resume from the manifest's command line`,
    );
  }
  return checkRunPlan(value, file);
}

/** A plan read from a file, checked field by field (it is data from disk, maybe another machine's). */
export function checkRunPlan(value: unknown, file: string): RunPlan {
  const bad = (pointer: string, what: string) => new RunPlanError(`${file}: ${pointer}: ${what}`);
  if (!isObj(value)) throw bad('/', 'an object expected');
  if (value.v !== 1) throw bad('/v', `format ${String(value.v)} is not 1 (written by a newer Proctor?)`);
  const str = (k: string, optional: boolean) => {
    const v = value[k];
    if (v === undefined && optional) return;
    if (typeof v !== 'string' || !v) throw bad(`/${k}`, 'a non-empty string expected');
  };
  const whole = (k: string, min: number, max: number, optional: boolean) => {
    const v = value[k];
    if (v === undefined && optional) return;
    if (!Number.isInteger(v) || (v as number) < min || (v as number) > max)
      throw bad(`/${k}`, `a whole number from ${min} to ${max} expected`);
  };
  str('agent', false);
  str('model', true);
  str('env', true);
  str('downloads', true);
  if (!isObj(value.agentOptions)) throw bad('/agentOptions', 'an object expected');
  if (!(OBSERVATION_TYPES as readonly string[]).includes(value.observation as string))
    throw bad('/observation', `one of ${OBSERVATION_TYPES.join(', ')} expected`);
  if (!(ACTION_SPACES as readonly string[]).includes(value.actionSpace as string))
    throw bad('/actionSpace', `one of ${ACTION_SPACES.join(', ')} expected`);
  if (value.maxSteps !== 'auto') whole('maxSteps', 1, 1000, false);
  if (typeof value.taskTimeoutMs !== 'number' || !(value.taskTimeoutMs > 0))
    throw bad('/taskTimeoutMs', 'a positive number of ms expected');
  if (
    value.screen !== undefined &&
    !(isObj(value.screen) && Number.isInteger(value.screen.width) && Number.isInteger(value.screen.height))
  )
    throw bad('/screen', '{width, height} in pixels expected');
  if (value.gradingProfile !== undefined && !PROFILES.includes(value.gradingProfile as string))
    throw bad('/gradingProfile', `one of ${PROFILES.join(', ')} expected`);
  whole('repeats', 1, 100, false);
  whole('maxRefusals', 0, 1000, true);
  whole('parallel', 1, 64, true);
  const priceProblem =
    value.prices === undefined ? undefined : priceTableProblems(value.prices, '/prices')[0];
  if (priceProblem) throw new RunPlanError(`${file}: ${priceProblem}`);
  if (value.allowUnisolated !== undefined && typeof value.allowUnisolated !== 'boolean')
    throw bad('/allowUnisolated', 'true or false expected');
  return value as unknown as RunPlan;
}

/** What grading a run again needs of its settings: its downloads folder and grading profile, and where they came from. */
export interface GradingSettings {
  /** `--downloads` as the run was given it (the plan's is absolute; an old command line's as typed). */
  downloads?: string;
  gradingProfile?: GradingProfile;
  /** The run's plan, its stored command line (a run written before plans were stored), or neither. */
  source: 'plan' | 'args' | 'none';
}

/** `--name V` or `--name=V` in a stored command line. */
function storedFlag(args: readonly unknown[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (typeof a !== 'string') continue;
    if (a === '--') return undefined;
    if (a === name) return typeof args[i + 1] === 'string' ? (args[i + 1] as string) : undefined;
    if (a.startsWith(`${name}=`)) return a.slice(name.length + 1);
  }
  return undefined;
}

/**
 * The downloads folder and grading profile a run was started with: its run-plan.json first, else (a run written
 * before plans were stored) `--downloads` / `--grading-profile` in the command line its manifest keeps. A damaged
 * plan throws RunPlanError naming the file and the field.
 */
export function gradingSettingsOf(runDir: string, manifestArgs: unknown): GradingSettings {
  const plan = readRunPlan(runDir);
  if (plan)
    return {
      ...(plan.downloads !== undefined ? { downloads: plan.downloads } : {}),
      ...(plan.gradingProfile ? { gradingProfile: plan.gradingProfile } : {}),
      source: 'plan',
    };
  const args = Array.isArray(manifestArgs) ? (manifestArgs as unknown[]) : [];
  if (!args.length) return { source: 'none' };
  const downloads = storedFlag(args, '--downloads');
  const profile = storedFlag(args, '--grading-profile');
  return {
    ...(downloads ? { downloads } : {}),
    ...(profile && PROFILES.includes(profile) ? { gradingProfile: profile as GradingProfile } : {}),
    source: 'args',
  };
}
