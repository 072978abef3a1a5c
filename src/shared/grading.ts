// What a run's success rate counts: the rule score (OSWorld-style evaluators) or, for agents graded by their own
// judge (UFO's EvaluationAgent), the judge's verdict. Pure functions, shared by the readers and the run table.
import type { RunTaskItem } from './run';

export type GradedBy = 'rule' | 'judge';

/** A task's grade from 0 to 1 by `by`, or undefined when it has none (not graded yet). */
export function gradeOf(t: Pick<RunTaskItem, 'score' | 'judge'>, by: GradedBy = 'rule'): number | undefined {
  if (by === 'rule') return t.score;
  return t.judge === undefined ? undefined : t.judge === 'yes' ? 1 : 0;
}

/** Success over every task (ungraded ones count as 0), as a fraction; undefined for no tasks. */
export function successRateOf(
  tasks: Pick<RunTaskItem, 'score' | 'judge'>[],
  by: GradedBy = 'rule',
): number | undefined {
  if (!tasks.length) return undefined;
  return tasks.reduce((sum, t) => sum + (gradeOf(t, by) ?? 0), 0) / tasks.length;
}

/** How many of `tasks` have a grade by `by`. */
export function gradedCount(tasks: Pick<RunTaskItem, 'score' | 'judge'>[], by: GradedBy = 'rule'): number {
  return tasks.filter((t) => gradeOf(t, by) !== undefined).length;
}
