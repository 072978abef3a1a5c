// The self-test's verdict on one task's grading: the red-team step of a benchmark's cross-validation.
// Three trials: the oracle (expect 1), the noop agent (expect 0), the oracle cut short (expect < 1).
import type { TaskState } from '../../shared/run';

export type SelfTestVerdict = 'sound' | 'too lenient' | 'too strict' | 'broken setup';

export type TrialName = 'oracle' | 'noop' | 'cut';

/** What one trial of one task came to, as the run recorded it. */
export interface TrialResult {
  trial: TrialName;
  state: TaskState;
  score?: number;
  /** eval_error or the orchestrator's error. */
  error?: string;
  /** Number of oracle turns kept (cut trial). */
  kept?: number;
  /** Run-folder-relative or absolute path of the task's evidence folder. */
  evidence?: string;
}

export interface SelfTestJudgement {
  verdict: SelfTestVerdict;
  reason: string;
}

/** States in which the agent ran to its end and the task was graded. */
const gradedStates: ReadonlySet<TaskState> = new Set(['success', 'max_steps_error']);

function describe(t: TrialResult): string {
  const score = t.score === undefined ? 'no score' : `score ${formatScore(t.score)}`;
  return `${t.trial}: ${t.state}, ${score}${t.error ? ` (${t.error})` : ''}`;
}

export function formatScore(score: number | undefined): string {
  if (score === undefined || !Number.isFinite(score)) return '-';
  return Number.isInteger(score) ? String(score) : score.toFixed(2);
}

/**
 * Judges a task's grading from its trials. Order of concerns: a trial that never reached grading (setup,
 * environment or agent error, timeout) makes the verdict `broken setup`; then the oracle must score 1 (else
 * `too strict`: a correct run is not recognised); then the noop agent must score 0 and the cut-short oracle
 * must score < 1 (else `too lenient`: credit without the work). A missing cut trial (an oracle of one
 * action) is not held against the task, and the reason says so.
 */
export function judgeSelfTest(oracle: TrialResult, noop: TrialResult, cut?: TrialResult): SelfTestJudgement {
  const trials = [oracle, noop, ...(cut ? [cut] : [])];
  const broken = trials.filter((t) => !gradedStates.has(t.state));
  if (broken.length) {
    return { verdict: 'broken setup', reason: broken.map(describe).join('; ') };
  }
  if (oracle.score === undefined || oracle.score < 1) {
    return {
      verdict: 'too strict',
      reason: `the oracle's correct run scored ${formatScore(oracle.score)}, not 1${oracle.error ? `: ${oracle.error}` : ''}`,
    };
  }
  const lenient: string[] = [];
  if (noop.score === undefined || noop.score > 0)
    lenient.push(`doing nothing scored ${formatScore(noop.score)}, not 0`);
  if (cut && (cut.score === undefined || cut.score >= 1))
    lenient.push(
      `the oracle cut to its first ${cut.kept ?? '?'} turn(s) scored ${formatScore(cut.score)}, not less than 1`,
    );
  if (lenient.length) return { verdict: 'too lenient', reason: lenient.join('; ') };
  const cutPart = cut
    ? `, the oracle cut to ${cut.kept ?? '?'} turn(s) scored ${formatScore(cut.score)}`
    : ' (no cut-short trial: the oracle has a single action)';
  return { verdict: 'sound', reason: `the oracle scored 1, doing nothing scored 0${cutPart}` };
}

/** How many oracle turns the cut-short trial keeps: half of the actions before DONE, rounded down. */
export function cutLength(oracleActions: number): number {
  return Math.floor(Math.max(0, oracleActions) / 2);
}
