// Reads run folders — Proctor's own, and OSWorld's, Spider2-V's and UFO's result layouts — into the UI contract's
// shapes. Tolerant of crashes at any point: cut lines, missing summaries and dead writers are reported as problems,
// never thrown.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { hostname } from 'node:os';
import type { RunDetail, TaskTrajectory, TaskSummary } from '../../shared/api';
import type {
  AttemptCause,
  AttemptCost,
  Completion,
  RuleVerdict,
  RunEvent,
  RunListItem,
  RunTaskItem,
  StepRecord,
  TaskState,
  Verdict,
} from '../../shared/run';
import type { Problem } from '../../shared/task';
import { readJsonFile, readJsonLines } from './files';
import { entryOf, files, taskDirIn, type RunManifest } from './layout';
import { causeOf } from './attempt-cause';
import { manifestProblems } from './manifest-check';
import { processAlive, type TaskResults } from './run-writer';
import { readOsworldRun, readOsworldTask, isOsworldRunDir } from './osworld-reader';
import { isSpider2vRunDir, readSpider2vRun, readSpider2vTask } from './spider2v-reader';
import { isUfoRunDir, readUfoRun, readUfoTask } from './ufo-reader';
import { runSafety, standingSafety } from './safety-standing';
import { isScreenSize } from '../../shared/screen';

/** Result layouts of other tools, read directly; Spider2-V before OSWorld (a task with only result.txt fits both). */
const foreignLayouts = [
  {
    name: 'Spider2-V result folder',
    format: 'spider2v',
    is: isSpider2vRunDir,
    run: readSpider2vRun,
    task: readSpider2vTask,
  },
  {
    name: 'OSWorld result folder',
    format: 'osworld',
    is: isOsworldRunDir,
    run: readOsworldRun,
    task: readOsworldTask,
  },
  { name: 'UFO log folder', format: 'ufo', is: isUfoRunDir, run: readUfoRun, task: readUfoTask },
] as const;

const foreignLayoutOf = (dir: string) => foreignLayouts.find((l) => l.is(dir));
const layoutNames = [
  'a Proctor run folder (manifest.json)',
  ...foreignLayouts.map((l) => `a ${l.name}`),
].join(', ');

const finishedStates: ReadonlySet<TaskState> = new Set([
  'success',
  'max_steps_error',
  'timed_out',
  'setup_error',
  'env_error',
  'agent_error',
  'skipped',
]);

/** How deep below the served folder runs are looked for (harness output nests `traces/<day>/<as>/<obs>/<model>`). */
const MAX_DEPTH = 12;

/**
 * Every run folder at or below `rootDir` — Proctor run folders and OSWorld, Spider2-V and UFO result folders at
 * any depth (a harness's whole output folder), in walk order. A run folder is not searched further.
 */
export function findRunDirs(rootDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (existsSync(join(dir, files.manifest)) || foreignLayoutOf(dir)) {
      found.push(dir);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    let entries: string[];
    try {
      entries = readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules')
        .map((e) => e.name)
        .sort();
    } catch {
      return;
    }
    for (const name of entries) walk(join(dir, name), depth + 1);
  };
  walk(resolve(rootDir), 0);
  return found;
}

/** Every run below `rootDir` (Proctor run folders; OSWorld, Spider2-V and UFO result folders), newest first. */
export function listRuns(rootDir: string): RunListItem[] {
  const root = resolve(rootDir);
  // One unreadable run is listed with its error; it never hides the others.
  const unreadable = (dir: string, e: unknown): RunListItem => ({
    runId: basename(dir),
    path: relative(root, dir) || '.',
    format: 'proctor',
    tasks: 0,
    finished: 0,
    live: false,
    error: e instanceof Error ? e.message : String(e),
  });
  const runs = findRunDirs(root).map((dir): RunListItem => {
    if (existsSync(join(dir, files.manifest))) {
      try {
        return readRun(dir, root).run;
      } catch (e) {
        return unreadable(dir, e);
      }
    }
    // The served folder itself may be another tool's run (`proctor serve path/to/ufo/logs`).
    const foreign = foreignLayoutOf(dir)!;
    try {
      return foreign.run(dir, root).run;
    } catch (e) {
      return { ...unreadable(dir, e), format: foreign.format };
    }
  });
  return runs.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
}

interface TaskEventState {
  started?: string;
  finished?: Extract<RunEvent, { kind: 'task.finished' }>;
}

function eventsByTask(events: RunEvent[]): Map<string, TaskEventState> {
  const map = new Map<string, TaskEventState>();
  for (const e of events) {
    if (e.kind !== 'task.started' && e.kind !== 'task.finished') continue;
    const entry = map.get(e.taskKey) ?? {};
    if (e.kind === 'task.started') {
      entry.started = e.at;
      entry.finished = undefined; // a resumed task starts over
    } else entry.finished = e;
    map.set(e.taskKey, entry);
  }
  return map;
}

/** Step events are most of events.jsonl and say nothing about task states: readers pass over them. */
const isStepEvent = (line: string) => line.startsWith('{"kind":"task.step"');

/** The stamp of a file that changes when it is rewritten or appended to; undefined when it cannot be read. */
function stampOf(file: string): string | undefined {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/**
 * A run's manifest for reading one of its tasks, parsed again only when manifest.json changed: a copy of the kept
 * one otherwise (a caller may change what it gets), which costs a third of checking and parsing 500 tasks' worth.
 */
const recentManifests = new Map<
  string,
  { stamp: string; read: ReturnType<typeof readJsonFile<RunManifest>> }
>();
function manifestOfRun(dir: string): ReturnType<typeof readJsonFile<RunManifest>> {
  const file = join(dir, files.manifest);
  const stamp = stampOf(file);
  const hit = stamp === undefined ? undefined : recentManifests.get(file);
  if (hit && hit.stamp === stamp) return structuredClone(hit.read);
  const read = readJsonFile<RunManifest>(file);
  if (stamp === undefined) return read;
  recentManifests.delete(file);
  recentManifests.set(file, { stamp, read: structuredClone(read) });
  if (recentManifests.size > 4) recentManifests.delete(recentManifests.keys().next().value!);
  return read;
}

/**
 * A run's events without its step events, read again only when events.jsonl changed (another inode, size or time):
 * reading each task of a large run (a replay, `proctor export html`) then reads the file once, not once per task.
 * The few most recent runs are kept; callers do not change what they get.
 */
const recentEvents = new Map<string, { stamp: string; read: ReturnType<typeof readJsonLines<RunEvent>> }>();
function taskStateEvents(dir: string): ReturnType<typeof readJsonLines<RunEvent>> {
  const file = join(dir, files.events);
  const stamp = stampOf(file);
  if (stamp === undefined) return readJsonLines<RunEvent>(file, { skip: isStepEvent });
  const hit = recentEvents.get(file);
  if (hit?.stamp === stamp) return hit.read;
  const read = readJsonLines<RunEvent>(file, { skip: isStepEvent });
  recentEvents.delete(file);
  recentEvents.set(file, { stamp, read });
  if (recentEvents.size > 4) recentEvents.delete(recentEvents.keys().next().value!);
  return read;
}

function runIsLive(manifest: RunManifest, events: RunEvent[]): boolean {
  const last = [...events].reverse().find((e) => e.kind === 'run.started' || e.kind === 'run.finished');
  if (last?.kind === 'run.finished') return false;
  if (manifest.queue) return last?.kind === 'run.started'; // written by queue workers until the last commit
  if (manifest.pid === undefined) return false;
  if (manifest.machine?.host && manifest.machine.host !== hostname()) return last?.kind === 'run.started';
  return processAlive(manifest.pid);
}

function countLines(file: string): number {
  if (!existsSync(file)) return 0;
  const text = readFileSync(file, 'utf8');
  let n = 0;
  for (const line of text.split('\n')) if (line.trim()) n++;
  if (text.length && !text.endsWith('\n')) n--; // a cut last line is not a step
  return Math.max(0, n);
}

function lastCompletion(verdicts: Verdict[], kind: 'judge' | 'human'): Completion | undefined {
  for (let i = verdicts.length - 1; i >= 0; i--) {
    const v = verdicts[i];
    if (v.kind === kind && v.complete) return v.complete;
  }
  return undefined;
}

interface SummaryFile {
  results?: Partial<TaskResults>;
  [key: string]: unknown;
}

function proctorTaskItem(
  runDir: string,
  manifest: RunManifest,
  key: string,
  byTask: Map<string, TaskEventState>,
  live: boolean,
  problems: Problem[],
): { item: RunTaskItem; dir?: string; summary?: SummaryFile; verdicts: Verdict[] } {
  const entry = entryOf(manifest, key);
  const [domain, ...rest] = entry.taskKey.split('/');
  const taskId = rest.join('/');
  const info = manifest.taskInfo?.[key];
  let dir: string | undefined;
  try {
    dir = info?.dir ? taskDirIn(runDir, info.dir) : undefined;
  } catch (e) {
    problems.push({
      file: join(runDir, files.manifest),
      pointer: `/taskInfo/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/dir`,
      severity: 'error',
      message: (e as Error).message,
    });
  }
  const item: RunTaskItem = {
    key,
    taskId,
    domain,
    app: info?.app,
    instruction: info?.instruction,
    tags: info?.tags,
    interface: info?.interface,
    style: info?.style,
    difficulty: info?.difficulty,
    state: 'pending',
    steps: 0,
    ...(entry.attempt !== undefined ? { attempt: entry.attempt } : {}),
  };
  let summary: SummaryFile | undefined;
  let verdicts: Verdict[] = [];
  if (dir) {
    const read = readJsonFile<SummaryFile>(join(dir, files.summary));
    if (read.problem) problems.push(read.problem);
    summary = read.value;
    problems.push(...summaryProblems(join(dir, files.summary), summary));
    if (typeof summary?.results?.steps !== 'number') item.steps = countLines(join(dir, files.steps));
    const v = readJsonLines<Verdict>(join(dir, files.verdicts));
    problems.push(...v.problems);
    verdicts = v.values;
  }
  const ev = byTask.get(key);
  const results = summary?.results;
  if (results && typeof results.state === 'string') {
    item.state = results.state;
    if (typeof results.score === 'number') item.score = results.score;
    if (typeof results.total_tokens === 'number') item.tokens = results.total_tokens;
    if (typeof results.total_timing === 'number') item.timingMs = Math.round(results.total_timing * 1000);
    if (typeof results.steps === 'number') item.steps = results.steps;
    const err = results.eval_error ?? (Array.isArray(results.messages) ? results.messages[0] : undefined);
    if (item.state !== 'success' && err) item.error = String(err);
    else if (results.eval_error) item.error = String(results.eval_error);
  } else if (ev?.finished) {
    item.state = ev.finished.state;
    if (ev.finished.score !== undefined) item.score = ev.finished.score;
    if (ev.finished.error) item.error = ev.finished.error;
  } else if (ev?.started) {
    if (live) item.state = 'running';
    else {
      item.state = 'cancelled';
      item.error = 'interrupted: the run stopped while this task ran (resume the run to redo it)';
    }
  }
  item.judge = lastCompletion(verdicts, 'judge');
  item.human = lastCompletion(verdicts, 'human');
  const rule = lastRuleVerdict(verdicts);
  let cause = storedCause(results?.cause) ?? causeOf({ state: item.state, score: item.score, verdict: rule });
  // re-graded later (`proctor eval`): a cause that came from grading follows the newest verdict
  if (rule?.provenance && cause && regradable.has(cause) && typeof rule.score === 'number')
    cause = causeOf({ state: item.state, score: rule.score, verdict: rule }) ?? cause;
  if (cause) item.cause = cause;
  const cost =
    storedCost(results?.cost) ?? (item.timingMs !== undefined ? { wallMs: item.timingMs } : undefined);
  if (cost) item.cost = cost;
  const safety = standingSafety(verdicts);
  if (safety) item.safety = safety;
  return { item, dir, summary, verdicts };
}

const regradable: ReadonlySet<AttemptCause> = new Set<AttemptCause>([
  'success',
  'agent_failure',
  'step_limit',
  'grading_error',
]);

const causes: ReadonlySet<string> = new Set<AttemptCause>([
  'success',
  'agent_failure',
  'step_limit',
  'agent_error',
  'env_error',
  'grading_error',
]);

/** The cause summary.json records (runs written before attribution have none: it is then derived). */
function storedCause(value: unknown): AttemptCause | undefined {
  return typeof value === 'string' && causes.has(value) ? (value as AttemptCause) : undefined;
}

/** The cost summary.json records, its fields kept only when they are non-negative finite numbers. */
function storedCost(value: unknown): AttemptCost | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: AttemptCost = {};
  for (const k of ['tokensIn', 'tokensOut', 'usd', 'envMs', 'wallMs'] as const) {
    const v = (value as Record<string, unknown>)[k];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

function lastRuleVerdict(verdicts: Verdict[]): RuleVerdict | undefined {
  for (let i = verdicts.length - 1; i >= 0; i--)
    if (verdicts[i]?.kind === 'rule') return verdicts[i] as RuleVerdict;
  return undefined;
}

/** What the task table cannot use in a summary.json, said rather than silently ignored. */
function summaryProblems(file: string, summary: SummaryFile | undefined): Problem[] {
  if (summary === undefined) return [];
  const problem = (pointer: string, message: string): Problem => ({
    file,
    pointer,
    severity: 'error',
    message,
  });
  if (typeof summary !== 'object' || summary === null || Array.isArray(summary))
    return [problem('', 'summary.json must be a JSON object: the task is shown from its events')];
  const results = summary.results;
  if (typeof results !== 'object' || results === null || Array.isArray(results))
    return [problem('/results', 'missing or not an object: the task is shown from its events')];
  const out: Problem[] = [];
  if (results.score !== undefined && results.score !== null && typeof results.score !== 'number')
    out.push(
      problem(
        '/results/score',
        `must be a number from 0 to 1, not ${JSON.stringify(results.score).slice(0, 40)}: the task is shown without a score`,
      ),
    );
  if (typeof results.state !== 'string')
    out.push(problem('/results/state', 'missing or not a string: the task is shown from its events'));
  return out;
}

function successRate(items: RunTaskItem[]): number | undefined {
  if (!items.length) return undefined;
  return items.reduce((sum, t) => sum + (t.score ?? 0), 0) / items.length;
}

/** One run folder (Proctor, OSWorld, Spider2-V or UFO layout); `root` is the served root `run.path` is relative to. */
export function readRun(runDir: string, root?: string): RunDetail {
  const dir = resolve(runDir);
  if (!existsSync(join(dir, files.manifest))) {
    const foreign = foreignLayoutOf(dir);
    if (foreign) return foreign.run(dir, root ?? dirname(dir));
    throw new Error(`${dir}: not a run folder; expected ${layoutNames}`);
  }
  const problems: Problem[] = [];
  const manifestFile = join(dir, files.manifest);
  // Readers bound the manifest (size, nesting), so a hostile one is this error, not a stack overflow later.
  const read = readJsonFile<RunManifest>(manifestFile);
  if (read.problem || read.value === undefined)
    throw new Error(`${manifestFile}: ${read.problem?.message ?? 'missing'}`);
  const manifest = read.value;
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest))
    throw new Error(`${manifestFile}: a run manifest must be a JSON object`);
  if (
    manifest.tasks !== undefined &&
    (!Array.isArray(manifest.tasks) || manifest.tasks.some((k) => typeof k !== 'string'))
  )
    throw new Error(`${manifestFile}: /tasks must be a list of task keys`);
  problems.push(...manifestProblems(manifest, manifestFile));
  const events = taskStateEvents(dir);
  problems.push(...events.problems);
  const live = runIsLive(manifest, events.values);
  const byTask = eventsByTask(events.values);
  const tasks = (manifest.tasks ?? []).map(
    (k) => proctorTaskItem(dir, manifest, k, byTask, live, problems).item,
  );
  const run: RunListItem = {
    runId: manifest.runId ?? basename(dir),
    path: relative(root ?? dirname(dir), dir) || '.',
    format: 'proctor',
    startedAt: manifest.startedAt,
    agent: manifest.agent,
    model: manifest.model,
    tasks: tasks.length,
    finished: tasks.filter((t) => finishedStates.has(t.state)).length,
    successRate: successRate(tasks),
    live,
  };
  if (isScreenSize(manifest.screen))
    run.screen = { width: manifest.screen.width, height: manifest.screen.height };
  const stopped = tasks.filter((t) => t.state === 'cancelled').length;
  if (stopped) run.stopped = stopped;
  const safety = runSafety(tasks);
  if (safety) run.safety = safety;
  return { run, manifest: manifest as unknown as Record<string, unknown>, tasks, problems };
}

/** One task of a run: its steps, verdicts and metadata. */
export function readTaskTrajectory(runDir: string, taskKey: string): TaskTrajectory {
  const dir = resolve(runDir);
  if (!existsSync(join(dir, files.manifest))) {
    const foreign = foreignLayoutOf(dir);
    if (foreign) return foreign.task(dir, taskKey);
    throw new Error(`${dir}: not a run folder; expected ${layoutNames}`);
  }
  const read = manifestOfRun(dir);
  if (read.problem) throw new Error(`${join(dir, files.manifest)}: ${read.problem.message}`);
  const manifest = read.value;
  if (
    typeof manifest !== 'object' ||
    manifest === null ||
    !Array.isArray(manifest.tasks) ||
    !manifest.tasks.includes(taskKey)
  )
    throw new Error(
      `task '${taskKey}' is not in run ${(manifest as Partial<RunManifest> | null)?.runId ?? basename(dir)} (${join(dir, files.manifest)} /tasks)`,
    );
  const problems: Problem[] = [];
  const events = taskStateEvents(dir);
  const live = runIsLive(manifest, events.values);
  const {
    item,
    dir: taskDir,
    summary,
    verdicts,
  } = proctorTaskItem(dir, manifest, taskKey, eventsByTask(events.values), live, problems);
  let steps: StepRecord[] = [];
  if (taskDir) {
    const s = readJsonLines<StepRecord>(join(taskDir, files.steps));
    problems.push(...s.problems);
    steps = s.values.filter((v) => v && typeof v.step === 'number');
  }
  const task: Partial<TaskSummary> = {
    id: item.taskId,
    domain: item.domain,
    app: item.app,
    instruction: item.instruction,
    tags: item.tags,
    interface: item.interface,
    style: item.style,
    difficulty: item.difficulty,
  };
  if (summary) {
    if (typeof summary.instruction === 'string') task.instruction = summary.instruction;
    if (typeof summary.snapshot === 'string') task.app = summary.snapshot;
    if (typeof summary.action_number === 'number') task.actionNumber = summary.action_number;
  }
  return { runId: manifest.runId, taskKey, item, steps, verdicts, task, problems };
}
