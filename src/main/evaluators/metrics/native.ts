// Native-shape composite: evaluate_multiple_notebooks combines the outcomes of its comparisons.
import { fail, metrics, type MetricOutcome } from '../metric';
import { combineScores } from '../conj';
import { isRecord } from './inputs';

/**
 * evaluate_multiple_notebooks — native `{operator, comparisons: [{func, arguments}]}`. The grader runs each
 * comparison as its own check and passes their outcomes here as `result`; `options.operator` is `and`
 * (0 if any is 0, else the mean) or `or` (1 if any is 1, else the max; the default when absent is `and`).
 */
async function evaluateMultipleNotebooks(
  result: unknown,
  _expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (!Array.isArray(result) || !result.every((o) => isRecord(o) && typeof o.score === 'number'))
    return fail('no comparison outcomes to combine');
  const op = options.operator === 'or' ? 'or' : 'and';
  if (options.operator !== undefined && options.operator !== 'and' && options.operator !== 'or')
    return fail(`operator '${String(options.operator)}' is not 'and' or 'or'`);
  const outcomes = result as MetricOutcome[];
  const score = combineScores(
    outcomes.map((o) => o.score),
    op,
  );
  return {
    score,
    reason: `${op} of ${outcomes.length} comparisons: ${outcomes.map((o) => o.score.toFixed(2)).join(', ')}`,
  };
}

metrics.register('evaluate_multiple_notebooks', evaluateMultipleNotebooks);
