// Why a task attempt ended (failure attribution): one AttemptCause per finished attempt, from its state, where its
// time limit struck and its rule verdict. Shared by the runner (which stores it in summary.json) and the readers
// (older Proctor runs and foreign result folders, which store none).
import type { AttemptCause, RuleVerdict, TaskState } from '../../shared/run';

/** What is known of an attempt when it ended. */
export interface AttemptFacts {
  state: TaskState;
  score?: number;
  /** Where the task's time limit struck (timed_out only): in the environment, in the agent's call, or in grading. */
  timedOutIn?: 'environment' | 'agent' | 'grading';
  /** The attempt's rule verdict, when it was graded. */
  verdict?: Pick<RuleVerdict, 'error' | 'needsAccount' | 'metrics'>;
}

/** Check errors that say the agent did not produce what the task asked for: a failure of the agent, not of grading. */
const agentMissed = /result file does not exist|result getter gave nothing/;

/**
 * Whether the verdict's score of 0 cannot be trusted because grading itself failed: an evaluator (metric or getter)
 * threw, the whole grading threw, the task has no usable checks, or a check needs an account Proctor lacks.
 */
export function gradingFailed(verdict: AttemptFacts['verdict']): boolean {
  if (!verdict) return false;
  if (verdict.needsAccount?.length) return true;
  const metrics = Array.isArray(verdict.metrics) ? verdict.metrics : [];
  const checkErrors = metrics
    .map((m) => m?.error)
    .filter((e): e is string => typeof e === 'string' && e !== '');
  if (checkErrors.some((e) => !agentMissed.test(e))) return true;
  // an error with no check behind it: grading threw as a whole, or there was nothing to grade with
  return typeof verdict.error === 'string' && verdict.error !== '' && checkErrors.length === 0;
}

/**
 * The cause of an attempt; undefined while it is not finished (pending, running, cancelled).
 *
 * - `success`: graded with a score > 0 (also after the step limit: the score counts).
 * - `grading_error`: score 0 and grading failed (see gradingFailed), or the time limit struck while grading.
 * - `step_limit`: score 0 after the step limit was reached.
 * - `agent_failure`: score 0 after the agent said DONE or FAIL.
 * - `agent_error`: the agent could not go on (model API error after retries, replies refused too often, agent
 *   crashed), or the time limit struck while the agent was being asked.
 * - `env_error`: setup failed, the environment died, a postconfig failed, the time limit struck in the
 *   environment, or the task was skipped (this machine lacks an app, a proxy or an account the setup needs).
 */
export function causeOf(f: AttemptFacts): AttemptCause | undefined {
  switch (f.state) {
    case 'pending':
    case 'running':
    case 'cancelled':
      return undefined;
    case 'skipped':
    case 'setup_error':
    case 'env_error':
      return 'env_error';
    case 'agent_error':
      return 'agent_error';
    case 'timed_out':
      return f.timedOutIn === 'agent'
        ? 'agent_error'
        : f.timedOutIn === 'grading'
          ? 'grading_error'
          : 'env_error';
    case 'success':
    case 'max_steps_error':
      if ((f.score ?? 0) > 0) return 'success';
      if (gradingFailed(f.verdict)) return 'grading_error';
      return f.state === 'max_steps_error' ? 'step_limit' : 'agent_failure';
    default:
      return undefined;
  }
}

/** Error text of a foreign harness that points at the model's side (its API, its output) rather than the machine. */
const modelSide =
  /\b(openai|anthropic|gemini|claude|gpt|api[ _-]?(key|error)|rate[ _-]?limit|429|quota|context[ _-]length|max(imum)?[ _-]tokens|completion|model)\b/i;

/**
 * The cause of a foreign attempt (OSWorld, Spider2-V result folders), from what the folder tells: an `{"Error"}`
 * line whose text names the model's side (API, rate limit, context length) → agent_error, any other error line or
 * a time limit → env_error (the harness crashed while driving the machine); otherwise as for Proctor's own states.
 */
export function foreignCauseOf(
  state: TaskState,
  score: number | undefined,
  error: string | undefined,
  errored: boolean,
): AttemptCause | undefined {
  if (errored) return error && modelSide.test(error) ? 'agent_error' : 'env_error';
  return causeOf({ state, score });
}
