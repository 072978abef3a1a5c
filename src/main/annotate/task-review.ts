// Task cross-validation as Spider2-V's authors did it (paper §3.1): two people other than a task's author check
// (a) it reflects a real-world use case; (b) the verbose instruction fulfils the abstract one; (c) the
// environment resets to the same state in different trials; (d) the evaluation scores 1 when the instruction is
// followed; (e) it scores 0 when mistakes are made on purpose. Reviews are append-only events in the served
// folder's .proctor/task-reviews.jsonl; a task's status follows from each reviewer's latest review.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Role } from '../../shared/run';
import { appendJsonLine, readJsonLines } from '../store';

export const checkIds = ['a', 'b', 'c', 'd', 'e'] as const;
export type CheckId = (typeof checkIds)[number];

export const checkTitles: Record<CheckId, string> = {
  a: 'reflects a real-world use case',
  b: 'the verbose instruction fulfils the abstract one',
  c: 'the environment resets to the same state in different trials',
  d: 'the evaluation scores 1 when the instruction is followed (exactly or with inconsequential changes)',
  e: 'the evaluation scores 0 when mistakes are made on purpose (red-teaming)',
};

export type CheckVerdict = 'pass' | 'fail' | 'unsure';

export interface TaskReview {
  kind: 'task.review';
  /** The task file, relative to the served folder (as the task browser names it). */
  task: string;
  author: string;
  role?: Role;
  checks: Partial<Record<CheckId, { verdict: CheckVerdict; note?: string }>>;
  at: string;
}

export type TaskStatus = 'draft' | 'in review' | 'accepted' | 'rejected' | 'disputed';

export const reviewsFileOf = (root: string) => join(root, '.proctor', 'task-reviews.jsonl');

export function readTaskReviews(root: string, task?: string): TaskReview[] {
  const file = reviewsFileOf(root);
  if (!existsSync(file)) return [];
  return readJsonLines<TaskReview>(file).values.filter(
    (r) =>
      r?.kind === 'task.review' &&
      typeof r.task === 'string' &&
      typeof r.author === 'string' &&
      (task === undefined || r.task === task),
  );
}

export function appendTaskReview(root: string, review: TaskReview): void {
  mkdirSync(dirname(reviewsFileOf(root)), { recursive: true, mode: 0o700 });
  appendJsonLine(reviewsFileOf(root), review, { fsync: true });
}

/** A reviewer's overall finding: pass when all five checks pass, fail when any fails, else unsure. */
export function reviewOutcome(r: TaskReview): CheckVerdict {
  const verdicts = checkIds.map((c) => r.checks[c]?.verdict);
  if (verdicts.includes('fail')) return 'fail';
  return verdicts.every((v) => v === 'pass') ? 'pass' : 'unsure';
}

/**
 * A task's status from each reviewer's latest review (the task's author does not count): draft with none;
 * disputed when one reviewer passes it and another fails it; accepted when two or more pass it and none is
 * unsure; rejected when two or more fail it; else in review.
 */
export function taskStatus(
  reviews: readonly TaskReview[],
  taskAuthor?: string,
): { status: TaskStatus; reviewers: { person: string; outcome: CheckVerdict; at: string }[] } {
  const latest = new Map<string, TaskReview>();
  for (const r of reviews) if (r.author !== taskAuthor) latest.set(r.author, r);
  const reviewers = [...latest.values()]
    .map((r) => ({ person: r.author, outcome: reviewOutcome(r), at: r.at }))
    .sort((x, y) => x.person.localeCompare(y.person));
  const outcomes = reviewers.map((r) => r.outcome);
  let status: TaskStatus = 'in review';
  if (!reviewers.length) status = 'draft';
  else if (outcomes.includes('pass') && outcomes.includes('fail')) status = 'disputed';
  else if (outcomes.length >= 2 && outcomes.every((o) => o === 'pass')) status = 'accepted';
  else if (outcomes.filter((o) => o === 'fail').length >= 2) status = 'rejected';
  return { status, reviewers };
}
