// The plain breakdowns count a repeated run's task once: its attempts merge into one row with the mean score.
import { describe, expect, it } from 'vitest';
import { perTaskRows } from './per-task';
import type { AttemptRow } from './stats';

const row = (
  taskId: string,
  attempt: number | undefined,
  score: number | undefined,
  state: AttemptRow['state'] = 'success',
): AttemptRow => ({
  key: attempt === undefined ? `app/${taskId}` : `app/${taskId}#${attempt}`,
  taskId,
  domain: 'app',
  state,
  ...(score === undefined ? {} : { score }),
  ...(attempt === undefined ? {} : { attempt }),
  timingMs: 1000 * (attempt ?? 1),
});

describe('rows per task', () => {
  it('merges attempts into one row per task with the mean score, and leaves single runs as they are', () => {
    const single = [row('a', undefined, 1), row('b', undefined, 0)];
    expect(perTaskRows(single)).toBe(single);
    const merged = perTaskRows([
      row('a', 1, 1),
      row('a', 2, 0),
      row('a', 3, 1),
      row('b', 1, 0),
      row('b', 2, undefined, 'env_error'),
    ]);
    expect(merged.map((r) => [r.key, r.score, r.state, r.timingMs])).toEqual([
      ['app/a', 2 / 3, 'success', 2000],
      ['app/b', 0, 'success', 1500], // state 'success' is a finished attempt, whatever its score
    ]);
    expect(merged[0]).not.toHaveProperty('attempt');
  });
});
