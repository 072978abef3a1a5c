// One metric on given inputs under a profile, with its second opinion: what `proctor metric` prints and what
// the profile tests assert. Inputs are host file paths or literal values; nothing runs in an environment.
import type { GradingContext } from './getter';
import { metrics, variants } from './catalog';
import type { Metric, MetricOutcome } from './metric';
import { variantOf, type GradingProfile } from './profile';
import { withSharedReads } from './metrics/inputs';

export interface MetricTrial {
  score: number;
  reason: string;
  profile: GradingProfile;
  /** The robust variant's verdict; equal to the faithful one when the metric has no variant for the profile. */
  second_opinion: MetricOutcome;
  /** Set when the two disagree: the difference, e.g. `quoted cells: faithful 0, robust 1`. */
  brittle?: string;
}

/** Metrics here read only their inputs; one that needs an environment fails with its own message. */
const noEnvironment = {} as GradingContext;

async function run(
  metric: Metric,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  try {
    return await metric(result, expected, options, noEnvironment);
  } catch (e) {
    return { score: 0, reason: `metric failed: ${(e as Error).message}` };
  }
}

const shown = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

/** Runs `name` under `profile` (faithful) and its robust variant; throws for an unknown metric name. */
export function tryMetric(
  name: string,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  profile: GradingProfile,
): Promise<MetricTrial> {
  return withSharedReads(() => trial(name, result, expected, options, profile));
}

async function trial(
  name: string,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  profile: GradingProfile,
): Promise<MetricTrial> {
  const robust = metrics.require(name);
  const faithful = variantOf(name, profile);
  const first = await run(faithful ?? robust, result, expected, options);
  const second = faithful ? await run(robust, result, expected, options) : first;
  const trial: MetricTrial = {
    score: first.score,
    reason: first.reason,
    profile,
    second_opinion: { score: second.score, reason: second.reason },
  };
  if (second.score !== first.score) {
    const what = await variants
      .get(name)
      ?.diagnose?.(result, expected, options)
      .catch(() => undefined);
    trial.brittle = `${what ?? name}: faithful ${shown(first.score)}, robust ${shown(second.score)}`;
  }
  return trial;
}
