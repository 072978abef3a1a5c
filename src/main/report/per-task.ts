// The plain breakdowns count tasks, not attempts: a run with `--repeats N` has one row per attempt, and these
// rows become one per task, its score the mean over the attempts (a task's rate is its share of passes).
import type { ReportRow } from '../../shared/breakdown';
import type { AttemptRow } from './stats';

/** One row per task (`<domain>/<task id>`): attempts merged, score = mean of the scored attempts. */
export function perTaskRows(rows: readonly AttemptRow[]): ReportRow[] {
  if (!rows.some((r) => r.attempt !== undefined)) return rows as ReportRow[];
  const byTask = new Map<string, AttemptRow[]>();
  for (const r of rows) {
    const key = `${r.domain}/${r.taskId}`;
    const list = byTask.get(key);
    if (list) list.push(r);
    else byTask.set(key, [r]);
  }
  const sum = (xs: (number | undefined)[]) =>
    xs.some((x) => x !== undefined) ? xs.reduce<number>((a, x) => a + (x ?? 0), 0) : undefined;
  return [...byTask.entries()].map(([key, attempts]) => {
    const scored = attempts.map((a) => a.score).filter((s): s is number => typeof s === 'number');
    const { attempt: _a, cause: _c, cost: _k, ...first } = attempts[0];
    void _a;
    void _c;
    void _k;
    const merged: ReportRow = { ...first, key };
    if (scored.length) merged.score = scored.reduce((a, s) => a + s, 0) / scored.length;
    else delete merged.score;
    // A task succeeded (state) when one attempt did; otherwise the last attempt's state stands.
    merged.state = attempts.find((a) => a.state === 'success')?.state ?? attempts[attempts.length - 1].state;
    const tokens = sum(attempts.map((a) => a.tokens));
    if (tokens !== undefined) merged.tokens = tokens / attempts.length;
    const timing = sum(attempts.map((a) => a.timingMs));
    if (timing !== undefined) merged.timingMs = timing / attempts.length;
    const cost = sum(attempts.map((a) => a.costUsd));
    if (cost !== undefined) merged.costUsd = cost / attempts.length;
    return merged;
  });
}
