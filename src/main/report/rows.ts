// Reads run folders (Proctor's own, OSWorld's, Spider2-V's, UFO's — through the store's readers) into report rows.
// Metadata comes from the manifest's taskInfo; where it lacks a field, from the task file it names; for other
// tools' folders, from a task collection given with `tasks`. What none of them says stays unknown.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RunFormat, RunSettings, RunTaskItem } from '../../shared/run';
import type { Problem, Task } from '../../shared/task';
import { difficultyOf } from '../../shared/task';
import { metadataFromTags, rowFromItem, type ReportRow } from '../../shared/breakdown';
import {
  findRunDirs,
  readJsonLines,
  readRun,
  readTaskTrajectory,
  runFiles,
  type ManifestTaskInfo,
  type RunManifest,
} from '../store';
import { taskDirIn } from '../store/layout';
import type { Verdict } from '../../shared/run';
import { readTaskFile } from '../tasks';
import { costOf, priceTableProblems, type PriceTable } from '../price-table';
import { settleReportRow } from '../annotate/report-verdict';
import type { AttemptRow } from './stats';

export interface ReportRun {
  runDir: string;
  runId: string;
  format: RunFormat;
  agent?: string;
  model?: string;
  /** Other tools' runs: the settings their folder layout gives (action space, observation, model, flags). */
  settings?: RunSettings;
  /** One row per task attempt (a run with `--repeats` has several per task, each with its attempt number). */
  rows: AttemptRow[];
  /** Problems met reading the run, its task files, or its steps (for cost). */
  problems: Problem[];
}

export interface ReadReportRunOptions {
  /** Tasks to take metadata from when the run itself lacks it (by `<domain>/<id>`, then by id when unique). */
  tasks?: readonly Task[];
  /** USD per million tokens per model: cost per task from the steps' prompt / completion tokens. */
  prices?: PriceTable;
  /** The folder the user named when the run was found below it: the run id is then the path from there. */
  root?: string;
}

/**
 * The run folders a user named: the folder itself when it is a run, else every run at any depth below it (the
 * top folder of a harness's output). Throws when there is none, naming the layouts looked for.
 */
export function runDirsOf(path: string): string[] {
  const dir = resolve(path);
  if (!existsSync(dir)) throw new Error(`${dir}: not a run folder: there is no such folder`);
  const found = findRunDirs(dir);
  if (!found.length)
    throw new Error(
      `${dir}: no run folder in it or below it (looked for Proctor's manifest.json and OSWorld's, Spider2-V's and UFO's result folders)`,
    );
  return found;
}

const pointerOf = (key: string) => `/taskInfo/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** Fields a row takes from a Task, where the row has none. */
function fillFromTask(row: ReportRow, task: Task): void {
  const tags = metadataFromTags(task.tags);
  row.app ??= task.app || undefined;
  row.category ??= task.category ?? tags.category;
  row.interface ??= task.interface ?? tags.interface;
  row.style ??= task.style ?? tags.style;
  row.difficulty ??= task.difficulty ?? difficultyOf(task.actionNumber);
  // Tagged tasks split by the `account` tag (as the paper does); untagged ones by the services the task needs.
  row.account ??= tags.account ?? task.needsAccount.length > 0;
  if (row.app === undefined) delete row.app;
}

const lacksMetadata = (r: ReportRow) =>
  r.app === undefined ||
  r.category === undefined ||
  r.interface === undefined ||
  r.style === undefined ||
  r.difficulty === undefined ||
  r.account === undefined;

/** A lookup of tasks by key, and by id where the id is unique among them. */
function taskIndex(tasks: readonly Task[]): (row: ReportRow) => Task | undefined {
  const byKey = new Map(tasks.map((t) => [`${t.domain}/${t.id}`, t]));
  const byId = new Map<string, Task | null>();
  for (const t of tasks) byId.set(t.id, byId.has(t.id) ? null : t);
  return (row) => byKey.get(row.key) ?? byId.get(row.taskId) ?? undefined;
}

function priceTableOf(prices: PriceTable | undefined): PriceTable | undefined {
  if (!prices) return undefined;
  const problems = priceTableProblems(prices, '');
  if (problems.length)
    throw new Error(`price table: ${problems.map((p) => (p.startsWith(':') ? `/${p}` : p)).join('; ')}`);
  return prices;
}

function costOfTask(
  runDir: string,
  key: string,
  model: string | undefined,
  prices: PriceTable,
  problems: Problem[],
): number | undefined {
  if (!model) return undefined;
  let steps;
  try {
    const t = readTaskTrajectory(runDir, key);
    problems.push(...t.problems);
    steps = t.steps;
  } catch (e) {
    problems.push({
      file: runDir,
      severity: 'warning',
      message: `cost of ${key} not counted: ${(e as Error).message}`,
    });
    return undefined;
  }
  const tokens = { prompt: 0, completion: 0 };
  let any = false;
  for (const s of steps) {
    if (!s.tokens) continue;
    any = true;
    tokens.prompt += s.tokens.prompt ?? 0;
    tokens.completion += s.tokens.completion ?? 0;
  }
  return any ? costOf(prices, model, tokens) : undefined;
}

/**
 * The brittle-evaluator flags of a task's current (last) rule verdict; [] when it has none or no verdict. Read from
 * the task folder's verdicts.jsonl as the store's reader reads it (not through a whole trajectory per task, which
 * reads the run's events again for every task: minutes for a run of thousands of attempts).
 */
function brittleFlagsOf(runDir: string, taskDir: string | undefined): string[] {
  if (!taskDir) return [];
  try {
    const verdicts = readJsonLines<Verdict>(join(taskDirIn(runDir, taskDir), runFiles.verdicts)).values;
    const rule = verdicts.filter((v) => typeof v === 'object' && v !== null && v.kind === 'rule').at(-1);
    return rule && rule.kind === 'rule' ? (rule.brittle ?? []) : [];
  } catch {
    return [];
  }
}

/** One run folder as report rows. Throws when the folder is not a run of any known layout. */
export async function readReportRun(runDir: string, options: ReadReportRunOptions = {}): Promise<ReportRun> {
  const dir = resolve(runDir);
  const detail = readRun(dir, options.root ? resolve(options.root) : undefined);
  const problems = [...detail.problems];
  const manifest = detail.manifest as Partial<RunManifest> | undefined;
  const info = (key: string): ManifestTaskInfo | undefined =>
    manifest?.taskInfo && Object.prototype.hasOwnProperty.call(manifest.taskInfo, key)
      ? manifest.taskInfo[key]
      : undefined;
  const fileCache = new Map<string, Task | undefined>();
  const taskFromFile = async (key: string): Promise<Task | undefined> => {
    const file = info(key)?.file;
    if (typeof file !== 'string' || !file) return undefined;
    if (!fileCache.has(file)) {
      if (!existsSync(file)) {
        problems.push({
          file: join(dir, runFiles.manifest),
          pointer: `${pointerOf(key)}/file`,
          severity: 'warning',
          message: `task file ${file} is gone; the task's missing metadata is reported as unknown`,
        });
        fileCache.set(file, undefined);
      } else {
        const read = await readTaskFile(file);
        problems.push(...read.problems.filter((p) => p.severity === 'error'));
        fileCache.set(file, read.task);
      }
    }
    const task = fileCache.get(file);
    if (task && `${task.domain}/${task.id}` !== key) {
      problems.push({
        file: join(dir, runFiles.manifest),
        pointer: `${pointerOf(key)}/file`,
        severity: 'warning',
        message: `task file ${file} now holds task ${task.domain}/${task.id}, not ${key}; its metadata is not used`,
      });
      return undefined;
    }
    return task;
  };
  const fromTasks = options.tasks ? taskIndex(options.tasks) : undefined;
  const prices = priceTableOf(options.prices);
  const rows: AttemptRow[] = [];
  for (const item of detail.tasks as RunTaskItem[]) {
    const row: AttemptRow = rowFromItem(item, detail.run.gradedBy);
    if (item.attempt !== undefined) row.attempt = item.attempt;
    if (item.cause !== undefined) row.cause = item.cause;
    if (item.cost !== undefined) row.cost = item.cost;
    settleReportRow(row, dir, item);
    if (item.safety) row.safety = item.safety.verdict;
    const i = info(item.key);
    if (row.difficulty === undefined && typeof i?.actionNumber === 'number') {
      const d = difficultyOf(i.actionNumber);
      if (d) row.difficulty = d;
    }
    if (lacksMetadata(row)) {
      const task = await taskFromFile(item.key);
      if (task) fillFromTask(row, task);
    }
    if (lacksMetadata(row) && fromTasks) {
      const task = fromTasks(row);
      if (task) fillFromTask(row, task);
    }
    if (detail.run.format === 'proctor') row.brittle = brittleFlagsOf(dir, i?.dir);
    if (prices) {
      const cost = costOfTask(dir, item.key, detail.run.model ?? manifest?.model, prices, problems);
      if (cost !== undefined) row.costUsd = cost;
    }
    rows.push(row);
  }
  return {
    runDir: dir,
    runId: detail.run.runId,
    format: detail.run.format,
    ...(detail.run.agent ? { agent: detail.run.agent } : {}),
    ...(detail.run.model ? { model: detail.run.model } : {}),
    ...(detail.run.settings ? { settings: detail.run.settings } : {}),
    rows,
    problems,
  };
}

/** A price table file: `{"<model>": {"input": USD per M tokens, "output": …}}`, or an endpoint config's `prices`. */
export function readPriceFile(file: string): PriceTable {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not readable JSON (${(e as Error).message})`, { cause: e });
  }
  const wrapped = typeof value === 'object' && value !== null && !Array.isArray(value) && 'prices' in value;
  const table = wrapped ? (value as { prices: unknown }).prices : value;
  const problems = priceTableProblems(table, wrapped ? '/prices' : '');
  if (problems.length)
    throw new Error(`${file}: ${problems.map((p) => (p.startsWith(':') ? `/${p}` : p)).join('; ')}`);
  return table as PriceTable;
}
