// Grading profiles: whose semantics a metric has. `spider2v`, `osworld` and `native` grade as the benchmark a
// task comes from does (its own Python metrics, quirks included); the metric registered in `metrics` is the
// robust variant, Proctor's own reading, and runs beside a faithful one as a second opinion.
import type { GradingProfile } from '../../shared/run';
import type { Task } from '../../shared/task';
import { Registry } from '../registry';
import type { Getter } from './getter';
import type { Metric } from './metric';

export type { GradingProfile } from '../../shared/run';
export const gradingProfiles: readonly GradingProfile[] = ['spider2v', 'osworld', 'native'];

export function isGradingProfile(v: unknown): v is GradingProfile {
  return typeof v === 'string' && (gradingProfiles as readonly string[]).includes(v);
}

/** The profile a task is graded under: the override when given, else the benchmark its shape comes from. */
export function profileOf(task: Pick<Task, 'shape'>, override?: GradingProfile): GradingProfile {
  return override ?? task.shape;
}

/**
 * Per-profile variants of one metric. A profile without an entry uses the robust metric (`metrics`), which
 * then is faithful too: the upstream behaves the same. `diagnose` names what makes the two verdicts differ
 * (e.g. `quoted cells`) when they do, for the brittle-evaluator flag.
 */
export interface MetricVariants {
  spider2v?: Metric;
  osworld?: Metric;
  native?: Metric;
  diagnose?: (
    result: unknown,
    expected: unknown,
    options: Record<string, unknown>,
  ) => Promise<string | undefined>;
}

export const variants = new Registry<MetricVariants>('metric variants');

/** Per-profile variants of a getter, where a benchmark fetches differently (a profile without one uses the
 * getter registered in `getters`). Getters get no second opinion: a verdict compares one fetched value. */
export type GetterVariants = Partial<Record<GradingProfile, Getter>>;

export const getterVariants = new Registry<GetterVariants>('getter variants');

/** A known departure: where Proctor's faithful variant still differs from the upstream verdict, and why. */
export interface Departure {
  metric: string;
  profile: GradingProfile | 'all';
  case: string;
  why: string;
}

const departureList: Departure[] = [];

export function registerDeparture(d: Departure): void {
  departureList.push(d);
}

export function departures(): Departure[] {
  return [...departureList].sort(
    (a, b) => a.metric.localeCompare(b.metric) || a.profile.localeCompare(b.profile),
  );
}

/** The faithful variant of `name` under `profile`, when it differs from the robust metric. */
export function variantOf(name: string, profile: GradingProfile): Metric | undefined {
  return variants.get(name)?.[profile];
}
