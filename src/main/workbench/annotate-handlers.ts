// labels.*: people's labels appended as events with the caller as author (never someone else), marked as seen
// blind or open, the conflict queue settled by leads, agreement figures and "my work". Who may call which method,
// and what blind annotators are not shown, is api.ts's methodPolicies, enforced by the dispatcher.
import type { ApiHandlers, RunDetail } from '../../shared/api';
import type { Caller } from '../../shared/annotate';
import type { HumanLabel, RunTaskItem, StepMark } from '../../shared/run';
import { appendVerdict, readManifest, readRun } from '../store';
import { humanLabels, readVerdicts, supersededBy } from '../annotate/labels';
import { planAssignments, workQueue, writeAssignments } from '../annotate/assign';
import { agreementOf, conflictsOf, labelledItems } from '../annotate/items';
import { taskSafety } from '../annotate/safety-labels';
import { localCaller, readTeam } from '../annotate/team';
import { ApiRequestError } from './api-error';
import { blindReview } from './blind-review';
import { relativeToRoot, resolveBelow, runDirBelow } from './paths';
import { safetyLabel, safetySettlement } from '../safety/label';

/** The author a Proctor run's manifest names (`author`), if any: they are not assigned their own run. */
function runAuthor(runDir: string): string | undefined {
  try {
    const a = (readManifest(runDir) as unknown as { author?: unknown }).author;
    return typeof a === 'string' ? a : undefined;
  } catch {
    return undefined;
  }
}

type AnnotateMethods = Pick<
  ApiHandlers,
  | 'labels.add'
  | 'labels.settle'
  | 'labels.assign'
  | 'labels.conflicts'
  | 'labels.agreement'
  | 'labels.queue'
  | 'labels.me'
>;

/** The labelling methods. The team is read per call, so people added while serving count at once. */
export function annotateHandlers(root: string): AnnotateMethods {
  const hasTeam = () => readTeam(root) !== undefined;
  const review = blindReview(root);
  const who = (caller?: Caller): Caller => caller ?? localCaller();
  const runDir = (runId: string): string => runDirBelow(root, runId);
  /** A task the run really has (a foreign layout's folder is otherwise just a path join). */
  const taskOf = (dir: string, taskKey: string): RunTaskItem => {
    let detail: RunDetail;
    try {
      detail = readRun(dir, root);
    } catch (e) {
      throw new ApiRequestError('not_found', (e as Error).message);
    }
    const item = detail.tasks.find((t) => t.key === taskKey);
    if (!item)
      throw new ApiRequestError('not_found', `task '${taskKey}' is not in run '${detail.run.runId}'`);
    return item;
  };

  return {
    'labels.add': async ({ runId, taskKey, label }, caller) => {
      const c = who(caller);
      if (label.author !== undefined && label.author !== c.person)
        throw new ApiRequestError(
          'forbidden',
          `you are ${c.person}: a label cannot be recorded as ${label.author}`,
        );
      if (
        !label.complete &&
        !label.steps?.length &&
        !label.comment &&
        !label.subScores?.length &&
        !label.safety
      )
        throw new ApiRequestError(
          'bad_request',
          'labels.add: the label is empty (give complete, steps, sub-scores, a comment or a safety label)',
        );
      const steps = label.steps?.map((s) => {
        const mark: StepMark | undefined =
          s.mark ?? (s.correct === undefined ? undefined : s.correct ? 'right' : 'wrong');
        if (!mark)
          throw new ApiRequestError('bad_request', `labels.add: step ${s.step} needs mark or correct`);
        return { step: s.step, correct: mark === 'right', mark, ...(s.note ? { note: s.note } : {}) };
      });
      const dir = runDir(runId);
      taskOf(dir, taskKey);
      const blind = review.blindTo(c, runId, taskKey);
      const supersedes = supersededBy(humanLabels(readVerdicts(dir, taskKey)), c.person, {
        complete: label.complete,
        steps,
      });
      const event: HumanLabel = {
        kind: 'human',
        author: c.person,
        ...(hasTeam() ? { role: c.role } : {}),
        ...(label.complete ? { complete: label.complete } : {}),
        ...(label.subScores?.length ? { subScores: label.subScores } : {}),
        ...(steps?.length ? { steps } : {}),
        ...(label.comment ? { comment: label.comment } : {}),
        seen: blind ? 'blind' : 'open',
        ...(supersedes.length ? { supersedes } : {}),
        at: new Date().toISOString(),
      };
      if (label.complete || steps?.length || label.comment || label.subScores?.length)
        appendVerdict(dir, taskKey, event);
      if (label.safety) appendVerdict(dir, taskKey, safetyLabel(label.safety, c, hasTeam(), blind));
      return { ok: true };
    },
    'labels.settle': async ({ runId, taskKey, complete, safety, reason }, caller) => {
      const c = who(caller);
      if (!complete === !safety)
        throw new ApiRequestError(
          'bad_request',
          'labels.settle: give either complete (a completion conflict) or safety (a safety conflict), not both or neither',
        );
      const dir = runDir(runId);
      taskOf(dir, taskKey);
      if (safety) {
        appendVerdict(
          dir,
          taskKey,
          safetySettlement(safety, reason, c, taskSafety(readVerdicts(dir, taskKey)).people),
        );
        return { ok: true };
      }
      appendVerdict(dir, taskKey, {
        kind: 'human',
        author: c.person,
        role: c.role,
        complete,
        settles: { reason },
        seen: 'open',
        at: new Date().toISOString(),
      });
      return { ok: true };
    },
    'labels.conflicts': async ({ path }) => {
      return conflictsOf(labelledItems(path ? [resolveBelow(root, path)] : [], root));
    },
    'labels.agreement': async ({ path }) => {
      return agreementOf(labelledItems(path ? [resolveBelow(root, path)] : [], root));
    },
    'labels.queue': async (_params, caller) => workQueue(who(caller).person, labelledItems([], root)),
    'labels.me': async (_params, caller) => ({ ...who(caller), team: hasTeam() }),
    'labels.assign': async ({ runs: runIds, perItem, people, blind }, caller) => {
      const c = who(caller);
      const team = readTeam(root);
      const unknown = team ? people.filter((p) => !team.people.some((m) => m.name === p)) : [];
      if (unknown.length) throw new ApiRequestError('bad_request', `not in the team: ${unknown.join(', ')}`);
      const dirs = runIds.map(runDir);
      const plan = planAssignments(dirs, [...new Set(people)], perItem, {
        by: c.person,
        blind: blind !== false,
        authorOf: runAuthor,
      });
      return {
        assigned: writeAssignments(plan),
        short: plan.short.map((s) => ({ ...s, run: relativeToRoot(root, s.run) })),
      };
    },
  };
}
