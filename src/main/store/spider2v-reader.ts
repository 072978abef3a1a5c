// Reads result folders written by Spider2-V's runner (run_spider2.py + lib_run_single.py). The run folder holds
// `<domain>/<task_id>/` folders — it is `results/<action_space>_<observation>_<model>_temp<T>_traj<N>/` as the
// runner names it, or `<action_space>/<observation>/<model>/` in OSWorld's nesting. Each task folder has:
//   trajectory.jsonl   one line per performed action: {step_num, action_timestamp, action, reward, done, info},
//                      or {"Error": "..."} when the example crashed; actions of one model reply share step_num
//   screenshots/step_<n>_<ts>.png   the observation the agent saw BEFORE acting (SoM-tagged in som mode)
//   a11y_trees/step_<n>_<ts>.txt    the linearised accessibility table the agent saw
//   result.txt         the score; result-<datetime>.log the runner's log (model replies as `RESPONSE: …`)
// <ts> is `%Y%m%d@%H%M%S` (or OSWorld's `%Y%m%d@%H%M%S%f`). Task keys are `<domain>/<task_id>`.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { RunDetail, TaskTrajectory } from '../../shared/api';
import type { Action, RunListItem, RunTaskItem, StepRecord, Verdict } from '../../shared/run';
import type { Problem } from '../../shared/task';
import { parseAction, type Point } from '../actions';
import { readJsonLines } from './files';
import { checkedForeignFile, readNumberedJsonLines } from './foreign-files';
import { foreignRunStartedAt } from './started-at';
import { files } from './layout';
import { parseOsworldTimestamp } from './timestamp';
import { settleResult } from './result-state';
import { subdirs } from './foreign-files';

export const spider2vFiles = {
  trajectory: 'trajectory.jsonl',
  screenshots: 'screenshots',
  a11yTrees: 'a11y_trees',
} as const;

const ACTION_SPACES = ['pyautogui', 'computer_13'] as const;
const OBSERVATIONS = ['screenshot_a11y_tree', 'a11y_tree', 'screenshot', 'som'] as const;
type Observation = (typeof OBSERVATIONS)[number];

const isDir = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** A Spider2-V task folder: trajectory.jsonl, or result.txt beside the screenshots/ or a11y_trees/ folder. */
export function isSpider2vTaskDir(dir: string): boolean {
  if (existsSync(join(dir, spider2vFiles.trajectory))) return true;
  if (existsSync(join(dir, files.traj))) return false;
  return (
    existsSync(join(dir, files.result)) &&
    (isDir(join(dir, spider2vFiles.screenshots)) || isDir(join(dir, spider2vFiles.a11yTrees)))
  );
}

/** True when `dir` holds `<domain>/<task>/` folders in Spider2-V's form (and none in OSWorld's traj.jsonl form). */
export function isSpider2vRunDir(dir: string): boolean {
  if (existsSync(join(dir, files.manifest))) return false;
  let found = false;
  for (const domain of subdirs(dir))
    for (const t of subdirs(join(dir, domain))) {
      const taskDir = join(dir, domain, t);
      if (existsSync(join(taskDir, files.traj))) return false;
      if (!found && isSpider2vTaskDir(taskDir)) found = true;
    }
  return found;
}

interface RunSettings {
  runId: string;
  actionSpace?: string;
  observation?: Observation;
  model?: string;
  verbose?: boolean;
  temperature?: number;
  trajectoryLength?: number;
}

/** What the folder name(s) say: the runner's `<as>_<obs>_<model>_temp<T>_traj<N>` or OSWorld's nesting. */
export function spider2vRunSettings(runDir: string): RunSettings {
  const name = basename(runDir);
  const flat = new RegExp(
    `^(verbose_)?(${ACTION_SPACES.join('|')})_(${OBSERVATIONS.join('|')})_(.+?)(?:_temp([0-9.]+)_traj(\\d+))?$`,
  ).exec(name);
  if (flat)
    return {
      runId: name,
      verbose: flat[1] !== undefined,
      actionSpace: flat[2],
      observation: flat[3] as Observation,
      model: flat[4],
      temperature: flat[5] !== undefined ? Number(flat[5]) : undefined,
      trajectoryLength: flat[6] !== undefined ? Number(flat[6]) : undefined,
    };
  const observation = basename(dirname(runDir));
  const actionSpace = basename(dirname(dirname(runDir)));
  if ((OBSERVATIONS as readonly string[]).includes(observation) && (ACTION_SPACES as readonly string[]).includes(actionSpace))
    return { runId: `${actionSpace}/${observation}/${name}`, actionSpace, observation: observation as Observation, model: name };
  return { runId: name, model: name };
}

interface TrajectoryLine {
  step_num?: unknown;
  action_timestamp?: unknown;
  action?: unknown;
  response?: unknown;
  reward?: unknown;
  done?: unknown;
  info?: unknown;
  Error?: unknown;
}

/** `index_3 = (120, 455)` lines that Spider2-V's som agent puts before the code: mark centres, literal only. */
const somBinding = /^\s*((?:index|tag)_\d{1,6})\s*=\s*\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)\s*$/;

/** Typed actions of one performed action (never run): pyautogui code (with SoM bindings) or a computer_13 dict. */
export function spider2vActions(action: unknown): { actions: Action[]; feedback?: string } {
  if (action === undefined || action === null || action === '') return { actions: [] };
  let outcome;
  if (typeof action === 'string') {
    const bindings: Record<string, Point> = {};
    const code: string[] = [];
    for (const line of action.split('\n')) {
      const m = somBinding.exec(line);
      if (m) bindings[m[1]] = { x: Number(m[2]), y: Number(m[3]) };
      else code.push(line);
    }
    outcome = parseAction('pyautogui', code.join('\n'), { bindings });
  } else outcome = parseAction('computer_13', action);
  return outcome.ok ? { actions: outcome.actions } : { actions: [], feedback: `not replayable: ${outcome.error.message}` };
}

/** Execution feedback of the environment's `info` ({status, message, error} in Spider2-V). */
function infoFeedback(info: unknown): string | undefined {
  if (!info || typeof info !== 'object') return undefined;
  const i = info as { status?: unknown; message?: unknown; error?: unknown };
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  if (i.status === 'error') return `execution failed: ${text(i.message) || text(i.error) || 'no message'}`;
  if (text(i.error)) return `executed with errors: ${text(i.error)}`;
  return undefined;
}

/** The runner's per-task log: the model's replies in order (one per step) and the instruction. */
interface RunnerLog {
  file?: string;
  responses: { at?: Date; text: string }[];
  instruction?: string;
}

const logHead = /^\[(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}),(\d{3}) ([A-Z]+) [^\]]*\]: /;
const MAX_LOG_BYTES = 50 * 1024 * 1024;

function latestLog(dir: string): string | undefined {
  try {
    const names = readdirSync(dir).filter((n) => /^result-.*\.log$/.test(n)).sort();
    return names.length ? join(dir, names[names.length - 1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The instruction from the first 16 KB of the runner log (for the task table, without reading the replies). */
function instructionOfLog(dir: string): string | undefined {
  const file = latestLog(dir);
  if (!file) return undefined;
  let head: string;
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(16 * 1024);
      head = buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const m = /\]: \[Instruction\]: ([^\n]*)/.exec(head);
  return m ? m[1].trim() : undefined;
}

function readRunnerLog(dir: string, problems: Problem[]): RunnerLog {
  const out: RunnerLog = { responses: [] };
  const file = latestLog(dir);
  if (!file) return out;
  out.file = file;
  if (statSync(file).size > MAX_LOG_BYTES) {
    problems.push({ file, severity: 'warning', message: 'the runner log is over 50 MB; the model replies in it are not read' });
    return out;
  }
  const entries: { at: Date; text: string }[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = logHead.exec(line);
    if (m) {
      const [, y, mo, d, h, mi, s, ms] = m.map(Number);
      entries.push({ at: new Date(y, mo - 1, d, h, mi, s, ms), text: line.slice(m[0].length) });
    } else if (entries.length) entries[entries.length - 1].text += `\n${line}`;
  }
  for (const e of entries) {
    if (e.text.startsWith('RESPONSE: ')) out.responses.push({ at: e.at, text: e.text.slice('RESPONSE: '.length).trimEnd() });
    else if (out.instruction === undefined && e.text.startsWith('[Instruction]: '))
      out.instruction = e.text.slice('[Instruction]: '.length).trim();
  }
  return out;
}

/** `step_<n>_<ts>.<ext>` files of a folder, by step number. */
function stepFiles(dir: string, ext: RegExp): Map<number, string[]> {
  const map = new Map<number, string[]>();
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return map;
  }
  for (const name of names) {
    const m = /^step_(\d+)_(.+)\.([A-Za-z]+)$/.exec(name);
    if (!m || !ext.test(m[3])) continue;
    const n = Number(m[1]);
    map.set(n, [...(map.get(n) ?? []), name]);
  }
  return map;
}

interface Spider2vTask {
  item: RunTaskItem;
  steps: StepRecord[];
  problems: Problem[];
  instruction?: string;
}

function readTask(runDir: string, settings: RunSettings, domain: string, taskId: string, detail: boolean): Spider2vTask {
  const dir = join(runDir, domain, taskId);
  const rel = (...p: string[]) => join(domain, taskId, ...p);
  const problems: Problem[] = [];
  const item: RunTaskItem = { key: `${domain}/${taskId}`, taskId, domain, app: domain, state: 'pending', steps: 0 };
  const trajFile = join(dir, spider2vFiles.trajectory);
  const traj = readNumberedJsonLines<TrajectoryLine>(trajFile);
  problems.push(...traj.problems);
  const log: RunnerLog = detail ? readRunnerLog(dir, problems) : { responses: [] };
  const shots = detail ? stepFiles(join(dir, spider2vFiles.screenshots), /^png$/i) : new Map<number, string[]>();
  const trees = detail ? stepFiles(join(dir, spider2vFiles.a11yTrees), /^(txt|xml)$/i) : new Map<number, string[]>();
  const pick = (found: Map<number, string[]>, n: number, ts: string | undefined, ext: string) =>
    found.get(n)?.find((f) => ts !== undefined && f === `step_${n}_${ts}.${ext}`) ?? found.get(n)?.[0];

  const errors: string[] = [];
  const byStep = new Map<number, StepRecord>();
  const raws = new Map<number, unknown[]>();
  const order: number[] = [];
  for (const entry of traj.values) {
    const lineNo = entry.line;
    const line = entry.value;
    if (!line || typeof line !== 'object' || Array.isArray(line)) {
      problems.push({ file: trajFile, line: lineNo, severity: 'warning', message: 'not a JSON object; it is skipped' });
      continue;
    }
    if (typeof line.Error === 'string') {
      errors.push(line.Error);
      continue;
    }
    const n = typeof line.step_num === 'number' && Number.isInteger(line.step_num) && line.step_num > 0 ? line.step_num : undefined;
    if (n === undefined) {
      problems.push({ file: trajFile, line: lineNo, severity: 'warning', message: 'step_num is not a positive integer; the line is skipped' });
      continue;
    }
    const ts = typeof line.action_timestamp === 'string' ? line.action_timestamp : undefined;
    const at = ts ? parseOsworldTimestamp(ts) : undefined;
    if (ts && !at)
      problems.push({
        file: trajFile,
        line: lineNo,
        severity: 'warning',
        message: `action_timestamp '${ts}' is neither %Y%m%d@%H%M%S nor %Y%m%d@%H%M%S%f`,
      });
    const parsed = spider2vActions(line.action);
    const feedback = [parsed.feedback, infoFeedback(line.info)].filter((f): f is string => !!f);
    let step = byStep.get(n);
    if (!step) {
      step = { step: n, at: (at ?? log.responses[n - 1]?.at ?? new Date(0)).toISOString(), actions: [] };
      if (typeof line.response === 'string') step.response = line.response;
      else if (log.responses[n - 1]) step.response = log.responses[n - 1].text;
      if (detail) {
        const shot = pick(shots, n, ts, 'png');
        if (shot) {
          const ok = checkedForeignFile(runDir, rel(spider2vFiles.screenshots, shot), problems, { what: 'screenshot', step: n });
          if (ok) {
            step.observation = ok;
            if (settings.observation === 'som') step.somObservation = ok;
          }
        } else if (settings.observation !== 'a11y_tree' && (shots.size || isDir(join(dir, spider2vFiles.screenshots))))
          problems.push({ file: join(dir, spider2vFiles.screenshots), severity: 'warning', message: `no screenshot for step ${n} (step_${n}_*.png)` });
        const tree = pick(trees, n, ts, 'txt');
        if (tree)
          step.a11yTable = checkedForeignFile(runDir, rel(spider2vFiles.a11yTrees, tree), problems, { what: 'accessibility tree', step: n });
      }
      byStep.set(n, step);
      order.push(n);
    }
    raws.set(n, [...(raws.get(n) ?? []), line.action]);
    step.actions.push(...parsed.actions);
    if (feedback.length) step.feedback = [step.feedback, ...feedback].filter(Boolean).join('\n');
    if (line.done === true) step.done = true;
  }
  // Replies that yielded no action leave no trajectory line; the log still has them.
  log.responses.forEach((r, i) => {
    if (byStep.has(i + 1)) return;
    byStep.set(i + 1, {
      step: i + 1,
      at: (r.at ?? new Date(0)).toISOString(),
      response: r.text,
      actions: [],
      feedback: 'no action could be read from this reply; nothing was performed',
    });
    order.push(i + 1);
  });
  const steps = [...new Set(order)].sort((a, b) => a - b).map((n) => byStep.get(n)!);
  for (const s of steps) {
    const raw = raws.get(s.step);
    if (raw) s.rawAction = raw.length === 1 ? raw[0] : raw;
  }
  // The screenshot after a step is the observation of the next one.
  for (let i = 0; i + 1 < steps.length; i++) if (steps[i + 1].observation) steps[i].screenshot = steps[i + 1].observation;
  item.steps = steps.length;

  settleResult(dir, trajFile, steps, errors, item, problems);
  const times = steps.map((s) => Date.parse(s.at)).filter((t) => t > 0);
  if (times.length >= 2) item.timingMs = Math.max(...times) - Math.min(...times);
  const instruction = detail ? log.instruction : instructionOfLog(dir);
  if (instruction) item.instruction = instruction;
  return { item, steps, problems, instruction };
}

function allTasks(runDir: string, settings: RunSettings): Spider2vTask[] {
  const out: Spider2vTask[] = [];
  for (const domain of subdirs(runDir))
    for (const id of subdirs(join(runDir, domain)))
      if (isSpider2vTaskDir(join(runDir, domain, id))) out.push(readTask(runDir, settings, domain, id, false));
  return out;
}

export function readSpider2vRun(runDir: string, root: string): RunDetail {
  const settings = spider2vRunSettings(runDir);
  const tasks = allTasks(runDir, settings);
  const items = tasks.map((t) => t.item);
  const finished = items.filter((t) => t.score !== undefined || t.state === 'env_error' || t.state === 'timed_out');
  const run: RunListItem = {
    runId: settings.runId,
    path: relative(root, runDir) || '.',
    format: 'spider2v',
    startedAt: foreignRunStartedAt(runDir, tasks),
    model: settings.model,
    tasks: items.length,
    finished: finished.length,
    successRate: items.length ? items.reduce((s, t) => s + (t.score ?? 0), 0) / items.length : undefined,
    live: false,
  };
  const manifest: Record<string, unknown> = { layout: 'spider2v', ...settings };
  delete manifest.runId;
  return { run, manifest, tasks: items, problems: tasks.flatMap((t) => t.problems) };
}

export function readSpider2vTask(runDir: string, taskKey: string): TaskTrajectory {
  const [domain, ...rest] = taskKey.split('/');
  const taskId = rest.join('/');
  if (!domain || !taskId || taskId.includes('/') || domain.startsWith('.') || taskId.startsWith('.'))
    throw new Error(`'${taskKey}' is not a task key of the form <domain>/<task id>`);
  if (!isSpider2vTaskDir(join(runDir, domain, taskId)))
    throw new Error(`${join(runDir, domain, taskId)} holds no trajectory.jsonl, or result.txt with screenshots/ or a11y_trees/`);
  const settings = spider2vRunSettings(runDir);
  const t = readTask(runDir, settings, domain, taskId, true);
  const verdicts = readJsonLines<Verdict>(join(runDir, domain, taskId, files.verdicts));
  return {
    runId: settings.runId,
    taskKey,
    item: t.item,
    steps: t.steps,
    verdicts: verdicts.values,
    task: { id: taskId, domain, app: domain, instruction: t.instruction },
    problems: [...t.problems, ...verdicts.problems],
  };
}
