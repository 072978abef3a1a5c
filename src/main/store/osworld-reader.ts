// Reads result folders written by OSWorld itself: `<action_space>/<observation>/<model>/<domain>/<task_id>/` with
// traj.jsonl (both timestamp forms, `{"Error": …}` crash lines), step_<n>_<timestamp>.png and result.txt.
// The run folder here is the `<model>` folder; task keys are `<domain>/<task_id>`.
import { existsSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { RunDetail, TaskTrajectory } from '../../shared/api';
import type { Action, RunListItem, RunTaskItem, StepRecord, Verdict } from '../../shared/run';
import type { Problem } from '../../shared/task';
import { readJsonLines } from './files';
import { files } from './layout';
import { parseOsworldTimestamp } from './timestamp';
import { parseAction } from '../actions';
import { settleResult } from './result-state';
import { subdirs } from './foreign-files';
import { foreignRunStartedAt } from './started-at';

const isTaskDir = (dir: string) => existsSync(join(dir, files.traj)) || existsSync(join(dir, files.result));

/** True when `dir` holds `<domain>/<task>/` folders with traj.jsonl or result.txt (an OSWorld model folder). */
/** OSWorld's `action`: pyautogui code (a string) or a computer_13 dict, parsed (never run) for the replay. */
function actionsOf(action: unknown): { actions: Action[]; feedback?: string } {
  if (action === undefined || action === null || action === '') return { actions: [] };
  const outcome = typeof action === 'string' ? parseAction('pyautogui', action) : parseAction('computer_13', action);
  return outcome.ok ? { actions: outcome.actions } : { actions: [], feedback: `action not replayable: ${outcome.error.message}` };
}

export function isOsworldRunDir(dir: string): boolean {
  if (existsSync(join(dir, files.manifest))) return false;
  return subdirs(dir).some((domain) => subdirs(join(dir, domain)).some((t) => isTaskDir(join(dir, domain, t))));
}

interface TrajLine {
  step_num?: number;
  action_timestamp?: string;
  action?: unknown;
  response?: string;
  reward?: number;
  done?: boolean;
  info?: unknown;
  screenshot_file?: string;
  Error?: string;
}

interface OsworldTask {
  item: RunTaskItem;
  steps: StepRecord[];
  problems: Problem[];
}

function readTask(runDir: string, domain: string, taskId: string): OsworldTask {
  const dir = join(runDir, domain, taskId);
  const problems: Problem[] = [];
  // OSWorld's domain folder (chrome, os, vlc, …) names the app the task is about.
  const item: RunTaskItem = { key: `${domain}/${taskId}`, taskId, domain, app: domain, state: 'pending', steps: 0 };
  const traj = readJsonLines<TrajLine>(join(dir, files.traj));
  problems.push(...traj.problems);
  const steps: StepRecord[] = [];
  const errors: string[] = [];
  traj.values.forEach((line, i) => {
    if (!line || typeof line !== 'object') return;
    if (typeof line.Error === 'string') {
      errors.push(line.Error);
      return;
    }
    const at = line.action_timestamp ? parseOsworldTimestamp(line.action_timestamp) : undefined;
    if (line.action_timestamp && !at)
      problems.push({
        file: join(dir, files.traj),
        line: i + 1,
        severity: 'warning',
        message: `action_timestamp '${line.action_timestamp}' is neither %Y%m%d@%H%M%S%f nor %Y%m%d@%H%M%S`,
      });
    const shot = typeof line.screenshot_file === 'string' ? basename(line.screenshot_file) : undefined;
    steps.push({
      step: typeof line.step_num === 'number' ? line.step_num : steps.length + 1,
      at: (at ?? new Date(0)).toISOString(),
      response: typeof line.response === 'string' ? line.response : undefined,
      rawAction: line.action,
      ...actionsOf(line.action),
      screenshot: shot && existsSync(join(dir, shot)) ? join(domain, taskId, shot) : undefined,
      done: line.done === true,
    });
  });
  item.steps = steps.length;
  settleResult(dir, join(dir, files.traj), steps, errors, item, problems);
  if (steps.length >= 2) {
    const t0 = Date.parse(steps[0].at);
    const t1 = Date.parse(steps[steps.length - 1].at);
    if (t0 > 0 && t1 >= t0) item.timingMs = t1 - t0;
  }
  return { item, steps, problems };
}

function allTasks(runDir: string): OsworldTask[] {
  const out: OsworldTask[] = [];
  for (const domain of subdirs(runDir))
    for (const id of subdirs(join(runDir, domain)))
      if (isTaskDir(join(runDir, domain, id))) out.push(readTask(runDir, domain, id));
  return out;
}

export function readOsworldRun(runDir: string, root: string): RunDetail {
  const tasks = allTasks(runDir);
  const items = tasks.map((t) => t.item);
  const finished = items.filter((t) => t.score !== undefined || t.state === 'env_error' || t.state === 'timed_out');
  const model = basename(runDir);
  const observation = basename(dirname(runDir));
  const actionSpace = basename(dirname(dirname(runDir)));
  const run: RunListItem = {
    runId: `${actionSpace}/${observation}/${model}`,
    path: relative(root, runDir) || '.',
    format: 'osworld',
    startedAt: foreignRunStartedAt(runDir, tasks),
    model,
    tasks: items.length,
    finished: finished.length,
    // OSWorld's own script divides by finished tasks only; Proctor divides by every task it found.
    successRate: items.length ? items.reduce((s, t) => s + (t.score ?? 0), 0) / items.length : undefined,
    live: false,
  };
  return {
    run,
    manifest: { layout: 'osworld', actionSpace, observation, model },
    tasks: items,
    problems: tasks.flatMap((t) => t.problems),
  };
}

export function readOsworldTask(runDir: string, taskKey: string): TaskTrajectory {
  const [domain, ...rest] = taskKey.split('/');
  const taskId = rest.join('/');
  if (!domain || !taskId || taskId.includes('/') || domain.startsWith('.') || taskId.startsWith('.'))
    throw new Error(`'${taskKey}' is not a task key of the form <domain>/<task id>`);
  if (!isTaskDir(join(runDir, domain, taskId)))
    throw new Error(`${join(runDir, domain, taskId)} holds no traj.jsonl or result.txt`);
  const t = readTask(runDir, domain, taskId);
  const verdicts = readJsonLines<Verdict>(join(runDir, domain, taskId, files.verdicts));
  return {
    runId: basename(runDir),
    taskKey,
    item: t.item,
    steps: t.steps,
    verdicts: verdicts.values,
    task: { id: taskId, domain, app: domain },
    problems: [...t.problems, ...verdicts.problems],
  };
}
