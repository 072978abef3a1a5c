// labels.*: people's labels appended as events with the caller as author (never someone else), blind review
// (an annotator sees no rule score, judge verdict or others' labels on an item until they have labelled it —
// withheld here, on the engine side), the conflict queue settled by leads, agreement figures and "my work".
import type { ApiHandlers, RunDetail, TaskTrajectory } from '../../shared/api';
import type { Caller } from '../../shared/annotate';
import type { HumanLabel, RunTaskItem, StepMark } from '../../shared/run';
import { appendVerdict, readManifest, readRun } from '../store';
import { planAssignments, readAssignments, workQueue, writeAssignments } from '../annotate/assign';
import { agreementOf, conflictsOf, labelledItems } from '../annotate/items';
import { humanLabels, readVerdicts } from '../annotate/labels';
import { localCaller, readTeam } from '../annotate/team';
import { ApiRequestError } from './dispatch';
import { relativeToRoot, resolveBelow, runDirBelow } from './paths';

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
  'labels.add' | 'labels.settle' | 'labels.assign' | 'labels.conflicts' | 'labels.agreement' | 'labels.queue' | 'labels.me' | 'runs.get' | 'runs.task' | 'runs.list'
>;

/** Whether annotators label `taskKey` of `runDir` blind: yes, unless an assignment of theirs says open. */
function assignedOpen(runDir: string, taskKey: string, person: string): boolean {
  const mine = readAssignments(runDir).filter((a) => a.task === taskKey && a.person === person);
  return mine.length > 0 && mine[mine.length - 1].blind === false;
}

const hideGrades = (item: RunTaskItem): RunTaskItem => {
  const { score: _s, judge: _j, human: _h, ...rest } = item;
  return rest;
};

/**
 * The labelling methods, and runs.list / runs.get / runs.task of `runs` with blind items' grades withheld from
 * annotators of a team. `hasTeam` is read per call, so people added while serving count at once.
 */
export function annotateHandlers(root: string, runs: Pick<ApiHandlers, 'runs.get' | 'runs.task' | 'runs.list'>): AnnotateMethods {
  const hasTeam = () => readTeam(root) !== undefined;
  const who = (caller?: Caller): Caller => caller ?? localCaller();
  const runDir = (runId: string): string => runDirBelow(root, runId);
  const labelsOf = (dir: string, taskKey: string): HumanLabel[] => {
    try {
      return humanLabels(readVerdicts(dir, taskKey));
    } catch (e) {
      throw new ApiRequestError('not_found', (e as Error).message);
    }
  };
  /** A task the run really has (a foreign layout's folder is otherwise just a path join). */
  const taskOf = (dir: string, taskKey: string): RunTaskItem => {
    let detail: RunDetail;
    try {
      detail = readRun(dir, root);
    } catch (e) {
      throw new ApiRequestError('not_found', (e as Error).message);
    }
    const item = detail.tasks.find((t) => t.key === taskKey);
    if (!item) throw new ApiRequestError('not_found', `task '${taskKey}' is not in run '${detail.run.runId}'`);
    return item;
  };
  const labelledBy = (labels: readonly HumanLabel[], person: string) => labels.some((l) => l.author === person && l.complete && !l.settles);
  /** Whether `caller` must not yet see the grades of this item. */
  const blindFor = (caller: Caller, dir: string, taskKey: string, labels?: HumanLabel[]): boolean => {
    if (caller.role !== 'annotator' || !hasTeam()) return false;
    if (labelledBy(labels ?? labelsOf(dir, taskKey), caller.person)) return false;
    return !assignedOpen(dir, taskKey, caller.person);
  };
  const needRole = (caller: Caller, allowed: Caller['role'][], what: string) => {
    if (!allowed.includes(caller.role)) throw new ApiRequestError('forbidden', `${caller.person} is ${caller.role === 'annotator' ? 'an' : 'a'} ${caller.role}: only ${allowed.join(' or ')}s may ${what}`);
  };

  return {
    'runs.list': async (params, caller) => {
      const list = await runs['runs.list'](params, caller);
      const c = who(caller);
      return c.role === 'annotator' && hasTeam() ? list.map(({ successRate: _r, ...r }) => r) : list;
    },
    'runs.get': async (params, caller) => {
      const detail = await runs['runs.get'](params, caller);
      const c = who(caller);
      if (c.role !== 'annotator' || !hasTeam()) return detail;
      const dir = runDir(params.runId);
      const tasks = detail.tasks.map((t) => (blindFor(c, dir, t.key) ? hideGrades(t) : t));
      const { successRate: _r, ...run } = detail.run;
      return { ...detail, run, tasks };
    },
    'runs.task': async (params, caller) => {
      const traj: TaskTrajectory = await runs['runs.task'](params, caller);
      const c = who(caller);
      const dir = runDir(params.runId);
      if (!blindFor(c, dir, params.taskKey)) return traj;
      return {
        ...traj,
        item: hideGrades(traj.item),
        verdicts: traj.verdicts.filter((v) => v.kind === 'human' && v.author === c.person),
        blind: true,
      };
    },
    'labels.add': async ({ runId, taskKey, label }, caller) => {
      const c = who(caller);
      if (label.author !== undefined && label.author !== c.person)
        throw new ApiRequestError('forbidden', `you are ${c.person}: a label cannot be recorded as ${label.author}`);
      if (!label.complete && !label.steps?.length && !label.comment && !label.subScores?.length)
        throw new ApiRequestError('bad_request', 'labels.add: the label is empty (give complete, steps, sub-scores or a comment)');
      const steps = label.steps?.map((s) => {
        const mark: StepMark | undefined = s.mark ?? (s.correct === undefined ? undefined : s.correct ? 'right' : 'wrong');
        if (!mark) throw new ApiRequestError('bad_request', `labels.add: step ${s.step} needs mark or correct`);
        return { step: s.step, correct: mark === 'right', mark, ...(s.note ? { note: s.note } : {}) };
      });
      const dir = runDir(runId);
      taskOf(dir, taskKey);
      const blind = blindFor(c, dir, taskKey);
      const event: HumanLabel = {
        kind: 'human',
        author: c.person,
        ...(hasTeam() ? { role: c.role } : {}),
        ...(label.complete ? { complete: label.complete } : {}),
        ...(label.subScores?.length ? { subScores: label.subScores } : {}),
        ...(steps?.length ? { steps } : {}),
        ...(label.comment ? { comment: label.comment } : {}),
        seen: blind ? 'blind' : 'open',
        at: new Date().toISOString(),
      };
      appendVerdict(dir, taskKey, event);
      return { ok: true };
    },
    'labels.settle': async ({ runId, taskKey, complete, reason }, caller) => {
      const c = who(caller);
      needRole(c, ['lead'], 'settle a conflict');
      const dir = runDir(runId);
      taskOf(dir, taskKey);
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
    'labels.conflicts': async ({ path }, caller) => {
      needRole(who(caller), ['lead', 'reviewer'], 'see the conflict queue');
      return conflictsOf(labelledItems(path ? [resolveBelow(root, path)] : [], root));
    },
    'labels.agreement': async ({ path }, caller) => {
      needRole(who(caller), ['lead', 'reviewer'], 'see agreement figures');
      return agreementOf(labelledItems(path ? [resolveBelow(root, path)] : [], root));
    },
    'labels.queue': async (_params, caller) => workQueue(who(caller).person, labelledItems([], root)),
    'labels.me': async (_params, caller) => ({ ...who(caller), team: hasTeam() }),
    'labels.assign': async ({ runs: runIds, perItem, people, blind }, caller) => {
      const c = who(caller);
      needRole(c, ['lead'], 'assign work');
      const team = readTeam(root);
      const unknown = team ? people.filter((p) => !team.people.some((m) => m.name === p)) : [];
      if (unknown.length) throw new ApiRequestError('bad_request', `not in the team: ${unknown.join(', ')}`);
      const dirs = runIds.map(runDir);
      const plan = planAssignments(dirs, [...new Set(people)], perItem, { by: c.person, blind: blind !== false, authorOf: runAuthor });
      return { assigned: writeAssignments(plan), short: plan.short.map((s) => ({ ...s, run: relativeToRoot(root, s.run) })) };
    },
  };
}
