// Reads result folders written by Spider2-V's runner (run_spider2.py + lib_run_single.py). The run folder holds
// `<domain>/<task_id>/` folders — it is `results/<action_space>_<observation>_<model>[_rag][_ef]…/` as the
// runner names it (run-settings.ts), or `<action_space>/<observation>/<model>/` in OSWorld's nesting. Each task:
//   trajectory.jsonl   one line per performed action: {step_num, action_timestamp, action, reward, done, info}
//                      (no screenshot_file), or {"Error": "..."}; the actions of one model reply share step_num.
//                      Each line is one replay entry (foreign-trajectory.ts), drawn, never run.
//   screenshots/step_<n>_<ts>.png   per line: the observation the agent saw BEFORE the step (SoM-tagged in som mode)
//   a11y_trees/step_<n>_<ts>.txt    the linearised accessibility table the agent saw
//   result.txt         the score; result-<datetime>.log the runner's log (model replies as `RESPONSE: …`);
//   recording.mp4      the screen recording
// <ts> is `%Y%m%d@%H%M%S` (or OSWorld's `%Y%m%d@%H%M%S%f`). Task keys are `<domain>/<task_id>`.
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { RunDetail, TaskTrajectory } from '../../shared/api';
import type { Action, RunListItem, RunSettings, RunTaskItem, StepRecord, Verdict } from '../../shared/run';
import type { Problem } from '../../shared/task';
import { displayAction, PointerState } from '../actions/display';
import { readJsonLines } from './files';
import { checkedForeignFile, readNumberedJsonLines } from './foreign-files';
import { foreignRunStart, settleTaskTimes } from './started-at';
import { alignRecording, foreignEntries, type ForeignTrajLine } from './foreign-trajectory';
import { flatRunSettings, nestedRunSettings } from './run-settings';
import { foreignRunId, RECORDING_FILE } from './osworld-reader';
import { files } from './layout';
import { settleResult } from './result-state';
import { subdirs } from './foreign-files';
import { runSafety, standingSafety } from './safety-standing';

export const spider2vFiles = {
  trajectory: 'trajectory.jsonl',
  screenshots: 'screenshots',
  a11yTrees: 'a11y_trees',
} as const;

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

/** What the folder name(s) say: the runner's `<as>_<obs>_<model>[_flag…]`, or OSWorld's nesting. */
export interface Spider2vSettings extends RunSettings {
  temperature?: number;
  trajectoryLength?: number;
}

export function spider2vRunSettings(runDir: string): Spider2vSettings {
  return flatRunSettings(basename(runDir)) ?? nestedRunSettings(runDir) ?? { model: basename(runDir) };
}

/** Typed actions of one performed action, for display (never run); `feedback` when Proctor would refuse it. */
export function spider2vActions(action: unknown): { actions: Action[]; feedback?: string } {
  const shown = displayAction(action, new PointerState());
  return shown.wouldRefuse
    ? { actions: shown.actions, feedback: `Proctor would refuse: ${shown.wouldRefuse}` }
    : { actions: shown.actions };
}

/** The runner's per-task log: the model's replies in order (one per step) and the instruction. */
interface RunnerLog {
  file?: string;
  responses: { at?: Date; text: string; line?: number }[];
  instruction?: string;
}

const logHead = /^\[(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}),(\d{3}) ([A-Z]+) [^\]]*\]: /;
const MAX_LOG_BYTES = 50 * 1024 * 1024;

function latestLog(dir: string): string | undefined {
  try {
    const names = readdirSync(dir)
      .filter((n) => /^result-.*\.log$/.test(n))
      .sort();
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
    problems.push({
      file,
      severity: 'warning',
      message: 'the runner log is over 50 MB; the model replies in it are not read',
    });
    return out;
  }
  const entries: { at: Date; text: string; line: number }[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = logHead.exec(line);
      if (m) {
        const [, y, mo, d, h, mi, s, ms] = m.map(Number);
        entries.push({
          at: new Date(y, mo - 1, d, h, mi, s, ms),
          text: line.slice(m[0].length),
          line: i + 1,
        });
      } else if (entries.length) entries[entries.length - 1].text += `\n${line}`;
    });
  for (const e of entries) {
    if (e.text.startsWith('RESPONSE: '))
      out.responses.push({ at: e.at, text: e.text.slice('RESPONSE: '.length).trimEnd(), line: e.line });
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

function readTask(
  runDir: string,
  settings: Spider2vSettings,
  domain: string,
  taskId: string,
  detail: boolean,
): Spider2vTask {
  const dir = join(runDir, domain, taskId);
  const rel = (...p: string[]) => join(domain, taskId, ...p);
  const problems: Problem[] = [];
  const item: RunTaskItem = {
    key: `${domain}/${taskId}`,
    taskId,
    domain,
    app: domain,
    state: 'pending',
    steps: 0,
  };
  const trajFile = join(dir, spider2vFiles.trajectory);
  const traj = readNumberedJsonLines<ForeignTrajLine>(trajFile);
  problems.push(...traj.problems);
  const log: RunnerLog = detail ? readRunnerLog(dir, problems) : { responses: [] };
  const logName = log.file ? basename(log.file) : undefined;
  const shots = detail
    ? stepFiles(join(dir, spider2vFiles.screenshots), /^png$/i)
    : new Map<number, string[]>();
  const trees = detail
    ? stepFiles(join(dir, spider2vFiles.a11yTrees), /^(txt|xml)$/i)
    : new Map<number, string[]>();
  const pick = (found: Map<number, string[]>, n: number, ts: string | undefined, ext: string) =>
    found.get(n)?.find((f) => ts !== undefined && f === `step_${n}_${ts}.${ext}`) ?? found.get(n)?.[0];
  const missingShots = new Set<number>();

  // One entry per trajectory line; each line has the screenshot the runner saved with its timestamp.
  const { entries, errors } = foreignEntries(
    trajFile,
    traj.values,
    problems,
    (entry, line) => {
      const n = entry.step;
      const reply = log.responses[n - 1];
      if (entry.response === undefined && reply) {
        entry.response = reply.text;
        entry.model = [{ role: 'assistant', text: reply.text, source: `${logName}:${reply.line}` }];
      }
      if (!detail) return;
      const ts = typeof line.action_timestamp === 'string' ? line.action_timestamp : undefined;
      const shot = pick(shots, n, ts, 'png');
      if (shot) {
        const ok = checkedForeignFile(runDir, rel(spider2vFiles.screenshots, shot), problems, {
          what: 'screenshot',
          step: n,
        });
        if (ok) {
          entry.observation = ok;
          if (settings.observation === 'som') entry.somObservation = ok;
        }
      } else if (
        settings.observation !== 'a11y_tree' &&
        (shots.size || isDir(join(dir, spider2vFiles.screenshots))) &&
        !missingShots.has(n)
      ) {
        missingShots.add(n);
        problems.push({
          file: join(dir, spider2vFiles.screenshots),
          severity: 'warning',
          message: `no screenshot for step ${n} (step_${n}_*.png)`,
        });
      }
      const tree = pick(trees, n, ts, 'txt');
      if (tree)
        entry.a11yTable = checkedForeignFile(runDir, rel(spider2vFiles.a11yTrees, tree), problems, {
          what: 'accessibility tree',
          step: n,
        });
    },
    detail,
  );
  // Replies that yielded no action leave no trajectory line; the log still has them.
  const seen = new Set(entries.map((e) => e.step));
  log.responses.forEach((r, i) => {
    if (seen.has(i + 1)) return;
    entries.push({
      step: i + 1,
      at: (r.at ?? new Date(0)).toISOString(),
      response: r.text,
      model: [{ role: 'assistant', text: r.text, source: `${logName}:${r.line}` }],
      actions: [],
      feedback: 'no action could be read from this reply; nothing was performed',
    });
  });
  entries.sort((a, b) => a.step - b.step || (a.line ?? 0) - (b.line ?? 0));
  // The screenshot after a step is the observation of the next one.
  const firstObservation = new Map<number, string>();
  for (const e of entries)
    if (e.observation && !firstObservation.has(e.step)) firstObservation.set(e.step, e.observation);
  const order = [...new Set(entries.map((e) => e.step))];
  for (const e of entries) {
    const next = order[order.indexOf(e.step) + 1];
    const after = next === undefined ? undefined : firstObservation.get(next);
    if (after) e.screenshot = after;
  }
  if (existsSync(join(dir, RECORDING_FILE))) {
    const rec = checkedForeignFile(runDir, rel(RECORDING_FILE), problems, {
      what: 'screen recording',
      maxBytes: 2 * 1024 * 1024 * 1024,
    });
    if (rec) {
      item.recording = rec;
      alignRecording(entries);
    }
  }
  item.steps = order.length;

  settleResult(dir, trajFile, entries, errors, item, problems);
  settleTaskTimes(item, entries, undefined, existsSync(trajFile) ? trajFile : dir);
  if (item.timingMs !== undefined) item.cost = { wallMs: item.timingMs };
  const instruction = detail ? log.instruction : instructionOfLog(dir);
  if (instruction) item.instruction = instruction;
  // Safety verdicts (`proctor safety`) are appended beside the harness's files; the table shows the standing one.
  if (existsSync(join(dir, files.verdicts))) {
    const safety = standingSafety(readJsonLines<Verdict>(join(dir, files.verdicts)).values);
    if (safety) item.safety = safety;
  }
  return { item, steps: entries, problems, instruction };
}

function allTasks(runDir: string, settings: Spider2vSettings): Spider2vTask[] {
  const out: Spider2vTask[] = [];
  for (const domain of subdirs(runDir))
    for (const id of subdirs(join(runDir, domain)))
      if (isSpider2vTaskDir(join(runDir, domain, id)))
        out.push(readTask(runDir, settings, domain, id, false));
  return out;
}

export function readSpider2vRun(runDir: string, root: string): RunDetail {
  const settings = spider2vRunSettings(runDir);
  const tasks = allTasks(runDir, settings);
  const items = tasks.map((t) => t.item);
  const finished = items.filter(
    (t) => t.score !== undefined || t.state === 'env_error' || t.state === 'timed_out',
  );
  const { temperature, trajectoryLength, ...runSettings } = settings;
  const run: RunListItem = {
    runId: foreignRunId(runDir, root),
    path: relative(root, runDir) || '.',
    format: 'spider2v',
    ...foreignRunStart(runDir, items),
    model: settings.model,
    settings: runSettings,
    tasks: items.length,
    finished: finished.length,
    successRate: items.length ? items.reduce((s, t) => s + (t.score ?? 0), 0) / items.length : undefined,
    live: false,
  };
  const safety = runSafety(items);
  if (safety) run.safety = safety;
  const manifest: Record<string, unknown> = {
    layout: 'spider2v',
    ...runSettings,
    temperature,
    trajectoryLength,
  };
  return { run, manifest, tasks: items, problems: tasks.flatMap((t) => t.problems) };
}

export function readSpider2vTask(runDir: string, taskKey: string): TaskTrajectory {
  const [domain, ...rest] = taskKey.split('/');
  const taskId = rest.join('/');
  if (!domain || !taskId || taskId.includes('/') || domain.startsWith('.') || taskId.startsWith('.'))
    throw new Error(`'${taskKey}' is not a task key of the form <domain>/<task id>`);
  if (!isSpider2vTaskDir(join(runDir, domain, taskId)))
    throw new Error(
      `${join(runDir, domain, taskId)} holds no trajectory.jsonl, or result.txt with screenshots/ or a11y_trees/`,
    );
  const settings = spider2vRunSettings(runDir);
  const t = readTask(runDir, settings, domain, taskId, true);
  const verdicts = readJsonLines<Verdict>(join(runDir, domain, taskId, files.verdicts));
  return {
    runId: basename(runDir),
    taskKey,
    item: t.item,
    steps: t.steps,
    verdicts: verdicts.values,
    task: { id: taskId, domain, app: domain, instruction: t.instruction },
    problems: [...t.problems, ...verdicts.problems],
  };
}
