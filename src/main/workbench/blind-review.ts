// Blind review: an annotator of the served folder's team sees no rule score, judge verdict or others' labels on an
// item until they have labelled it (or a lead assigned it to them open). Here: who is blind to what, and what each
// method that reveals grades hands a blind annotator instead. The dispatcher applies it (api.ts's methodPolicies).
import type { Params, Result, TaskTrajectory, WithheldMethods } from '../../shared/api';
import type { Caller } from '../../shared/annotate';
import type { HumanLabel, RunTaskItem } from '../../shared/run';
import { readAssignments } from '../annotate/assign';
import { humanLabels, readVerdicts } from '../annotate/labels';
import { readTeam } from '../annotate/team';
import { runDirBelow } from './paths';

/** What the dispatcher needs to know of the served folder to keep annotators blind. */
export interface BlindReview {
  /** The folder has a team now (read per call: people added while serving count at once). */
  team(): boolean;
  /** Whether `caller` must not yet see the grades of `taskKey` in run `runId`. */
  blindTo(caller: Caller, runId: string, taskKey: string): boolean;
}

/** Nothing known of the folder: every annotator is blind to every item (fail closed). */
export const blindToAll: BlindReview = { team: () => true, blindTo: (caller) => caller.role === 'annotator' };

const labelledBy = (labels: readonly HumanLabel[], person: string) =>
  labels.some((l) => l.author === person && l.complete && !l.settles);

/** Whether an assignment of `person` says `taskKey` of `runDir` is labelled open. */
function assignedOpen(runDir: string, taskKey: string, person: string): boolean {
  const mine = readAssignments(runDir).filter((a) => a.task === taskKey && a.person === person);
  return mine.length > 0 && mine[mine.length - 1].blind === false;
}

export function blindReview(root: string): BlindReview {
  const team = () => readTeam(root) !== undefined;
  return {
    team,
    blindTo: (caller, runId, taskKey) => {
      if (caller.role !== 'annotator' || !team()) return false;
      try {
        const dir = runDirBelow(root, runId);
        if (labelledBy(humanLabels(readVerdicts(dir, taskKey)), caller.person)) return false;
        return !assignedOpen(dir, taskKey, caller.person);
      } catch {
        return true; // labels or assignments that cannot be read open nothing
      }
    },
  };
}

const hideGrades = (item: RunTaskItem): RunTaskItem => {
  const { score: _s, judge: _j, human: _h, safety: _sf, ...rest } = item;
  return rest;
};

/** A trajectory as a blind annotator sees it: no grades on the item, only their own labels, marked blind. */
function blindTrajectory<T extends TaskTrajectory>(traj: T, caller: Caller): T {
  return {
    ...traj,
    item: hideGrades(traj.item),
    verdicts: traj.verdicts.filter((v) => v.kind === 'human' && v.author === caller.person),
    blind: true,
  };
}

type Withhold<M extends WithheldMethods> = (
  result: Result<M>,
  params: Params<M>,
  caller: Caller,
  review: BlindReview,
) => Result<M>;

/**
 * For each method open to annotators whose answer reveals grades or others' labels (a method added to that set
 * without one here does not compile): its answer for an annotator of a team.
 */
export const withholders: { [M in WithheldMethods]: Withhold<M> } = {
  'runs.list': (list) => list.map(({ successRate: _r, safety: _sf, ...r }) => r),
  'runs.get': (detail, { runId }, caller, review) => {
    const { successRate: _r, safety: _sf, ...run } = detail.run;
    return {
      ...detail,
      run,
      tasks: detail.tasks.map((t) => (review.blindTo(caller, runId, t.key) ? hideGrades(t) : t)),
    };
  },
  'runs.task': (traj, { runId, taskKey }, caller, review) =>
    review.blindTo(caller, runId, taskKey) ? blindTrajectory(traj, caller) : traj,
  'runs.compare': (cmp, { runIds, taskKey }, caller, review) => ({
    ...cmp,
    runs: cmp.runs.map((r, i) =>
      review.blindTo(caller, runIds[i], taskKey) ? blindTrajectory(r, caller) : r,
    ),
  }),
};
