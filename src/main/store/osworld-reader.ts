// Reads result folders written by OSWorld and its forks: `<action_space>/<observation>/<model>/<domain>/<task_id>/`
// with traj.jsonl (several lines per step_num, `{"Error": …}` lines), step_<n>_<timestamp>.png, result.txt,
// recording.mp4 and (tool-using agents) messages.json. Forks' folders renamed by people
// (`sec_eval_results/<scenario>/<YYYYMMDD@HHMMSS>-<verdict>[-note]/`) are found by their content: the scenario is
// the task, the verdict an imported label. The run folder is the folder above `<domain>/<task>` (or above the
// renamed folders); task keys are `<domain or scenario>/<task folder>`.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import type { RunDetail, TaskTrajectory } from '../../shared/api';
import type { HumanLabel, RunListItem, RunTaskItem, StepRecord, Verdict } from '../../shared/run';
import type { Problem } from '../../shared/task';
import { readJsonLines } from './files';
import { files } from './layout';
import { settleResult } from './result-state';
import { checkedForeignFile, readNumberedJsonLines, subdirs } from './foreign-files';
import { foreignRunStart, settleTaskTimes } from './started-at';
import { alignRecording, foreignEntries, type ForeignTrajLine } from './foreign-trajectory';
import { assignTurns, MESSAGES_FILE, readConversation } from './model-words';
import { folderLabel, nestedRunSettings, parseFolderName } from './run-settings';
import { runSafety, standingSafety } from './safety-standing';

export const RECORDING_FILE = 'recording.mp4';

const isTaskDir = (dir: string) => existsSync(join(dir, files.traj)) || existsSync(join(dir, files.result));

/** A task folder of the run: where it is and what its key, task and app are. */
interface TaskPlace {
  key: string;
  /** Relative to the run folder. */
  rel: string;
  domain: string;
  taskId: string;
  app?: string;
  /** A person's renamed folder: start time and verdict. */
  folder?: ReturnType<typeof parseFolderName>;
}

/** A domain/task pair, or a scenario with a renamed attempt folder (the scenario is then the task, not the app). */
function placeOf(domain: string, name: string, rel: string): TaskPlace {
  const folder = parseFolderName(name);
  if (folder) return { key: `${domain}/${name}`, rel, domain, taskId: domain, folder };
  return { key: `${domain}/${name}`, rel, domain, taskId: name, app: domain };
}

/**
 * Task folders of a run folder: `<domain>/<task>/`, or renamed `<ts>-<verdict>/` folders directly below it; a task
 * folder opened on its own (traj.jsonl in it) is a run of that one task.
 */
function taskPlaces(runDir: string): TaskPlace[] {
  if (existsSync(join(runDir, files.traj))) return [placeOf(basename(dirname(runDir)), basename(runDir), '')];
  const out: TaskPlace[] = [];
  for (const domain of subdirs(runDir)) {
    if (parseFolderName(domain) && isTaskDir(join(runDir, domain))) {
      out.push(placeOf(basename(runDir), domain, domain));
      continue;
    }
    for (const id of subdirs(join(runDir, domain)))
      if (isTaskDir(join(runDir, domain, id))) out.push(placeOf(domain, id, join(domain, id)));
  }
  return out;
}

/** True when `dir` holds OSWorld task folders (`<domain>/<task>/`, people's `<ts>-<verdict>/`) or is one. */
export function isOsworldRunDir(dir: string): boolean {
  if (existsSync(join(dir, files.manifest))) return false;
  if (existsSync(join(dir, files.traj))) return true; // one task folder on its own
  if (isTaskDir(dir)) return false;
  return subdirs(dir).some(
    (d) =>
      (parseFolderName(d) !== undefined && isTaskDir(join(dir, d))) ||
      subdirs(join(dir, d)).some((t) => isTaskDir(join(dir, d, t))),
  );
}

interface OsworldTask {
  item: RunTaskItem;
  steps: StepRecord[];
  problems: Problem[];
  label?: HumanLabel;
  instruction?: string;
}

/** Largest messages.json read for the task table (its instruction); a replay reads any up to model-words' limit. */
const LIST_MESSAGES_BYTES = 2 * 1024 * 1024;

/** One task; `detail` false (the run's task table) skips what only a replay shows: screenshot checks, large conversations. */
function readTask(runDir: string, place: TaskPlace, detail = true): OsworldTask {
  const dir = join(runDir, place.rel);
  const problems: Problem[] = [];
  const item: RunTaskItem = {
    key: place.key,
    taskId: place.taskId,
    domain: place.domain,
    state: 'pending',
    steps: 0,
  };
  if (place.app) item.app = place.app;
  const trajFile = join(dir, files.traj);
  const traj = readNumberedJsonLines<ForeignTrajLine>(trajFile);
  problems.push(...traj.problems);
  const { entries, errors } = foreignEntries(
    trajFile,
    traj.values,
    problems,
    (entry, line) => {
      if (!detail || typeof line.screenshot_file !== 'string' || !line.screenshot_file) return;
      const shot = checkedForeignFile(runDir, join(place.rel, basename(line.screenshot_file)), problems, {
        what: 'screenshot',
        step: entry.step,
      });
      if (shot) entry.screenshot = shot;
    },
    detail,
  );
  const messages = join(dir, MESSAGES_FILE);
  const conversation =
    detail || (existsSync(messages) && statSync(messages).size <= LIST_MESSAGES_BYTES)
      ? readConversation(dir, problems)
      : undefined;
  if (conversation) {
    assignTurns(entries, conversation.turns);
    if (conversation.instruction) item.instruction = conversation.instruction;
  }
  if (existsSync(join(dir, RECORDING_FILE))) {
    const rec = checkedForeignFile(runDir, join(place.rel, RECORDING_FILE), problems, {
      what: 'screen recording',
      maxBytes: 2 * 1024 * 1024 * 1024,
    });
    if (rec) {
      item.recording = rec;
      alignRecording(entries);
    }
  }
  item.steps = new Set(entries.map((e) => e.step)).size;
  settleResult(dir, trajFile, entries, errors, item, problems);
  settleTaskTimes(item, entries, place.folder?.at, existsSync(trajFile) ? trajFile : dir);
  if (item.timingMs !== undefined) item.cost = { wallMs: item.timingMs };
  const label = place.folder ? folderLabel(basename(dir), place.folder) : undefined;
  if (label) item.human = label.complete;
  // Safety verdicts (`proctor safety`) are appended beside the harness's files; the table shows the standing one.
  if (existsSync(join(dir, files.verdicts))) {
    const safety = standingSafety(readJsonLines<Verdict>(join(dir, files.verdicts)).values);
    if (safety) item.safety = safety;
  }
  return { item, steps: entries, problems, label, instruction: conversation?.instruction };
}

/** The run's id: its folder relative to the served root (dated runs of one task under the same settings differ). */
export function foreignRunId(runDir: string, root: string): string {
  return relative(root, runDir).split('\\').join('/') || basename(runDir);
}

export function readOsworldRun(runDir: string, root: string): RunDetail {
  const places = taskPlaces(runDir);
  const tasks = places.map((p) => readTask(runDir, p, false));
  const items = tasks.map((t) => t.item);
  const finished = items.filter(
    (t) => t.score !== undefined || t.state === 'env_error' || t.state === 'timed_out',
  );
  // People's renamed folders say nothing of the model; the folder above them is no model either.
  const renamed = places.length > 0 && places.every((p) => p.folder);
  const settings = renamed ? undefined : nestedRunSettings(runDir);
  const model = renamed ? undefined : (settings?.model ?? basename(runDir));
  const run: RunListItem = {
    runId: foreignRunId(runDir, root),
    path: relative(root, runDir) || '.',
    format: 'osworld',
    ...foreignRunStart(runDir, items),
    model,
    tasks: items.length,
    finished: finished.length,
    // OSWorld's own script divides by finished tasks only; Proctor divides by every task it found.
    successRate: items.length ? items.reduce((s, t) => s + (t.score ?? 0), 0) / items.length : undefined,
    live: false,
  };
  if (settings) run.settings = settings;
  const safety = runSafety(items);
  if (safety) run.safety = safety;
  return {
    run,
    manifest: {
      layout: renamed ? 'osworld (renamed folders)' : 'osworld',
      ...(settings ?? {}),
      ...(model ? { model } : {}),
    },
    tasks: items,
    problems: tasks.flatMap((t) => t.problems),
  };
}

export function readOsworldTask(runDir: string, taskKey: string): TaskTrajectory {
  const place = taskPlaces(runDir).find((p) => p.key === taskKey);
  if (!place)
    throw new Error(
      `'${taskKey}' is not a task key of ${runDir}: expected <domain>/<task id> of a folder with traj.jsonl or result.txt`,
    );
  const t = readTask(runDir, place);
  const verdicts = readJsonLines<Verdict>(join(runDir, place.rel, files.verdicts));
  return {
    runId: basename(runDir),
    taskKey,
    item: t.item,
    steps: t.steps,
    verdicts: [...(t.label ? [t.label] : []), ...verdicts.values],
    task: { id: place.taskId, domain: place.domain, app: place.app, instruction: t.instruction },
    problems: [...t.problems, ...verdicts.problems],
  };
}

/** The folder of a task key of an OSWorld-style run (renamed folders may sit directly below the run folder). */
export function osworldTaskDir(runDir: string, taskKey: string): string | undefined {
  const place = taskPlaces(runDir).find((p) => p.key === taskKey);
  return place ? join(runDir, place.rel) : undefined;
}
