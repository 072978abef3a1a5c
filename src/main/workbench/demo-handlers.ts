// demos.*: a lead's review of a person's run of a task as a demonstration (accept / reject with a reason), and
// what a run's task has had; stored by src/main/annotate/demonstration.ts beside the run's task.
import type { ApiHandlers, DemonstrationView } from '../../shared/api';
import type { Caller } from '../../shared/annotate';
import {
  checkHumanRun,
  readDemonstrationReviews,
  reviewDemonstration,
  type DemonstrationReview,
} from '../annotate/demonstration';
import { localCaller, readTeam } from '../annotate/team';
import { ApiRequestError } from './dispatch';
import { runDirBelow } from './paths';
import { readTaskTrajectory } from '../store';

export const reviewView = (r: DemonstrationReview) => ({
  runId: r.runId,
  taskKey: r.taskKey,
  verdict: r.verdict,
  reason: r.reason,
  author: r.author,
  ...(r.role ? { role: r.role } : {}),
  at: r.at,
});

/** The rule score of a run's task, when it was graded. */
function scoreOf(runDir: string, taskKey: string): number | undefined {
  try {
    const score = readTaskTrajectory(runDir, taskKey).item.score;
    return typeof score === 'number' && Number.isFinite(score) ? score : undefined;
  } catch {
    return undefined;
  }
}

export function demoHandlers(root: string): Pick<ApiHandlers, 'demos.review' | 'demos.get'> {
  const view = (runId: string, taskKey: string): DemonstrationView => {
    const runDir = runDirBelow(root, runId);
    let byPerson = true;
    try {
      checkHumanRun(runDir, taskKey);
    } catch {
      byPerson = false;
    }
    const reviews = byPerson ? readDemonstrationReviews(runDir, taskKey).map(reviewView) : [];
    const score = byPerson ? scoreOf(runDir, taskKey) : undefined;
    return {
      runId,
      taskKey,
      byPerson,
      ...(reviews.length ? { status: reviews.at(-1)!.verdict } : {}),
      ...(score !== undefined ? { score } : {}),
      reviews,
    };
  };
  return {
    'demos.get': async ({ runId, taskKey }) => view(runId, taskKey),
    'demos.review': async ({ runId, taskKey, verdict, reason }, caller?: Caller) => {
      const c = caller ?? localCaller();
      if (c.role !== 'lead')
        throw new ApiRequestError(
          'forbidden',
          `${c.person} is a ${c.role}: only leads review demonstrations`,
        );
      const runDir = runDirBelow(root, runId);
      try {
        reviewDemonstration(runDir, taskKey, {
          verdict,
          reason,
          author: c.person,
          ...(readTeam(root) ? { role: c.role } : {}),
        });
      } catch (error) {
        throw new ApiRequestError('bad_request', (error as Error).message.replaceAll(root, '.'));
      }
      return view(runId, taskKey);
    },
  };
}
