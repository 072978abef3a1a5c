// reviews.*: cross-validation reviews of task files, recorded with the caller as reviewer. Reviewers and leads
// review; annotators may not (403); nobody reviews a task they wrote (its `author` field).
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ApiHandlers, TaskReviewView } from '../../shared/api';
import type { Caller } from '../../shared/annotate';
import { appendTaskReview, readTaskReviews, taskStatus } from '../annotate/task-review';
import { localCaller, readTeam } from '../annotate/team';
import { latestEvidence } from '../annotate/evidence';
import { acceptedDemonstrations } from '../annotate/demonstration';
import { reviewView } from './demo-handlers';
import { ApiRequestError } from './dispatch';
import { relativeToRoot, resolveBelow } from './paths';

/** The `author` a task file names, if any (someone else's file may hold anything). */
function authorOf(file: string): string | undefined {
  return stringField(file, 'author');
}

/** A string field of a task file (its `author`, its `id`), if it has one. */
function stringField(file: string, field: 'author' | 'id'): string | undefined {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    return typeof raw?.[field] === 'string' ? (raw[field] as string) : undefined;
  } catch {
    return undefined;
  }
}

export function reviewHandlers(root: string): Pick<ApiHandlers, 'reviews.add' | 'reviews.get'> {
  const taskFile = (path: string) => {
    const file = resolveBelow(root, path);
    if (!existsSync(file) || !statSync(file).isFile() || !file.endsWith('.json'))
      throw new ApiRequestError('not_found', `no task file '${path}'`);
    return { file, task: relativeToRoot(root, file) };
  };
  const demonstrationsOf = (file: string) => {
    const id = stringField(file, 'id');
    return id ? acceptedDemonstrations(root, id).map((d) => reviewView(d.review)) : [];
  };
  const view = (task: string, file: string): TaskReviewView => {
    const reviews = readTaskReviews(root, task);
    return {
      task,
      ...taskStatus(reviews, authorOf(file)),
      reviews: reviews.map((r) => ({
        author: r.author,
        ...(r.role ? { role: r.role } : {}),
        checks: r.checks as TaskReviewView['reviews'][number]['checks'],
        at: r.at,
      })),
      evidence: latestEvidence(root, task).map((e) => ({
        check: e.check,
        verdict: e.verdict,
        note: e.note,
        source: e.source,
        at: e.at,
      })),
      demonstrations: demonstrationsOf(file),
    };
  };
  return {
    'reviews.get': async ({ task: path }) => {
      const { file, task } = taskFile(path);
      return view(task, file);
    },
    'reviews.add': async ({ task: path, checks }, caller?: Caller) => {
      const c = caller ?? localCaller();
      if (c.role === 'annotator')
        throw new ApiRequestError(
          'forbidden',
          `${c.person} is an annotator: only reviewers and leads review tasks`,
        );
      const { file, task } = taskFile(path);
      if (authorOf(file) === c.person)
        throw new ApiRequestError(
          'forbidden',
          `${c.person} wrote this task: it needs reviewers other than its author`,
        );
      appendTaskReview(root, {
        kind: 'task.review',
        task,
        author: c.person,
        ...(readTeam(root) ? { role: c.role } : {}),
        checks,
        at: new Date().toISOString(),
      });
      return view(task, file);
    },
  };
}
