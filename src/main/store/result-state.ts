// How an OSWorld-style task folder ended: its result.txt score and its state, shared by the OSWorld and
// Spider2-V readers (they write the same result.txt and crash lines).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunTaskItem, StepRecord, TaskState } from '../../shared/run';
import type { Problem } from '../../shared/task';
import { files } from './layout';
import { foreignCauseOf } from './attempt-cause';

/**
 * Sets `item.score`, `item.state`, `item.error` and `item.outcome` from result.txt, crash lines and the steps.
 * The outcome says how the harness's episode ended apart from the score: `error` (an `{"Error"}` line), `finished`
 * (result.txt written, whatever the score), `aborted` (stopped early: a trajectory but no result.txt). The cause
 * (attempt-cause.ts foreignCauseOf): an error line naming the model's side is agent_error, any other env_error.
 */
export function settleResult(
  dir: string,
  trajFile: string,
  steps: StepRecord[],
  errors: string[],
  item: RunTaskItem,
  problems: Problem[],
): void {
  const resultFile = join(dir, files.result);
  if (existsSync(resultFile)) {
    const text = readFileSync(resultFile, 'utf8').trim();
    const score = Number(text);
    if (text === '' || !Number.isFinite(score))
      problems.push({
        file: resultFile,
        line: 1,
        severity: 'error',
        message: `'${text}' is not a score (a number)`,
      });
    else item.score = score;
  }
  let state: TaskState = 'pending';
  if (errors.length) item.outcome = 'error';
  else if (existsSync(resultFile)) item.outcome = 'finished';
  else if (existsSync(trajFile)) item.outcome = 'aborted';
  if (errors.length) {
    item.error = errors[errors.length - 1];
    state = /time ?limit|timed? ?out/i.test(item.error) ? 'timed_out' : 'env_error';
  } else if (item.score !== undefined) {
    state = steps.some((s) => s.done) || steps.length === 0 ? 'success' : 'max_steps_error';
  } else if (existsSync(trajFile)) {
    state = 'cancelled';
    item.error = 'no result.txt: the run stopped before this task was graded';
  }
  item.state = state;
  const cause = foreignCauseOf(state, item.score, item.error, errors.length > 0);
  if (cause) item.cause = cause;
}
