// Writes one run folder: the manifest, the append-only event log, and per task (one writer per task, held by a
// lock file with the writer's pid) the OSWorld files and Proctor's own step records. The run itself is held by
// `<runDir>/.lock` from create / open (taken before anything is written) until release().
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { link, mkdir, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { hostname, cpus, platform } from 'node:os';
import { join, resolve } from 'node:path';
import type { AttemptCause, AttemptCost, RunEvent, StepRecord, TaskState, Verdict } from '../../shared/run';
import type { Screenshot } from '../env/environment';
import { proctorVersion } from '../version';
import { standingVerdictsOf } from './event-history';
import { publish } from './events';
import { recordVerdict } from './verdict-record';
import {
  appendJsonLine,
  fsyncPath,
  readJsonFile,
  writeFileAtomic,
  writeFileAtomicSync,
  writeFileOnce,
} from './files';
import { files, newRunId, taskDirIn, type RunManifest } from './layout';
import { osworldTimestamp } from './timestamp';
import { processAlive } from '../process-alive';

export { processAlive };

/** `results` of the native summary.json. `total_timing` is in seconds. */
export interface TaskResults {
  score: number;
  eval_error: string | null;
  state: TaskState;
  messages: string[];
  total_tokens: number;
  total_timing: number;
  /** Steps performed (additive to the agreed fields). */
  steps: number;
  /** Why the attempt ended (runner/attribution.ts); absent in runs written before attribution. */
  cause?: AttemptCause;
  /** Attempt number of a repeated run (1..N); absent for a single attempt. */
  attempt?: number;
  /** Tokens in and out, model cost (USD, from the run's price table), environment and wall time (ms). */
  cost?: AttemptCost;
}

export class TaskLockedError extends Error {
  constructor(
    readonly taskKey: string,
    readonly pid: number,
    lockFile: string,
  ) {
    super(
      `task ${taskKey} is being written by process ${pid} (lock ${lockFile}); wait for it or stop that process`,
    );
    this.name = 'TaskLockedError';
  }
}

export class RunLockedError extends Error {
  constructor(
    readonly runDir: string,
    readonly pid: number,
    lockFile: string,
  ) {
    super(
      `run ${runDir} is being written by process ${pid} (lock ${lockFile}); wait for it to end or stop that process, then resume`,
    );
    this.name = 'RunLockedError';
  }
}

interface LockBody {
  pid: number;
  host: string;
  at: string;
}

function liveLockHolder(lockFile: string): number | undefined {
  const { value } = readJsonFile<LockBody>(lockFile);
  if (!value || typeof value.pid !== 'number') return undefined;
  if (value.host !== hostname()) return value.pid; // another machine: assume alive, never steal
  return value.pid !== process.pid && processAlive(value.pid) ? value.pid : undefined;
}

/**
 * Takes the run's lock (`<runDir>/.lock`, the writer's pid) before anything in the run folder is written; a live
 * writer elsewhere (of the run, or of one of its tasks when `manifest` is given) refuses it, leaving every file as
 * it was. A lock of a dead writer is taken over; this process's own lock is taken again.
 */
function takeRunLock(runDir: string, manifest?: RunManifest): void {
  const lock = join(runDir, files.lock);
  const body: LockBody = { pid: process.pid, host: hostname(), at: new Date().toISOString() };
  const holder = existsSync(lock) ? liveLockHolder(lock) : undefined;
  if (holder !== undefined) throw new RunLockedError(runDir, holder, lock);
  for (const key of manifest?.tasks ?? []) {
    const rel = manifest?.taskInfo?.[key]?.dir;
    if (!rel) continue;
    const taskLock = join(taskDirIn(runDir, rel), files.lock);
    const taskHolder = existsSync(taskLock) ? liveLockHolder(taskLock) : undefined;
    if (taskHolder !== undefined) throw new TaskLockedError(key, taskHolder, taskLock);
  }
  try {
    writeFileSync(lock, JSON.stringify(body), { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const late = liveLockHolder(lock);
    if (late !== undefined) throw new RunLockedError(runDir, late, lock);
    writeFileAtomicSync(lock, JSON.stringify(body)); // a stale lock of a dead writer, or our own
  }
}

/** A task's summary.json was already there when this attempt came to commit its own: the first commit stands. */
export class AlreadyCommittedError extends Error {
  constructor(
    readonly taskKey: string,
    file: string,
  ) {
    super(`task ${taskKey} already has a committed result (${file}); this attempt's result is not written`);
    this.name = 'AlreadyCommittedError';
  }
}

export type ManifestInput = Omit<RunManifest, 'runId' | 'startedAt' | 'proctorVersion' | 'machine' | 'pid'>;

export class RunWriter {
  private readonly openTasks = new Set<string>();

  private constructor(
    readonly runDir: string,
    readonly manifest: RunManifest,
  ) {}

  get runId(): string {
    return this.manifest.runId;
  }

  /**
   * Creates `<outDir>/<runId>/` with a new, never reused run id and writes the manifest. `options.runId` names
   * the run instead (a queued run's `--name`); a folder of that name already there is an error (EEXIST).
   */
  static async create(
    outDir: string,
    input: ManifestInput,
    now: Date = new Date(),
    options: { runId?: string } = {},
  ): Promise<RunWriter> {
    const root = resolve(outDir);
    await mkdir(root, { recursive: true });
    let runId: string;
    // mkdir without `recursive` claims the id atomically even when two runs start in the same second.
    for (;;) {
      if (options.runId !== undefined) {
        runId = options.runId;
        mkdirSync(join(root, runId));
        takeRunLock(join(root, runId));
        break;
      }
      runId = newRunId(input.model ?? input.agent, (id) => existsSync(join(root, id)), now);
      try {
        mkdirSync(join(root, runId));
        takeRunLock(join(root, runId));
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
    }
    const manifest: RunManifest = {
      formatVersion: 1, // run folder format (resources/schemas/run-*.schema.json); readers take a missing one as 1
      runId,
      startedAt: now.toISOString(),
      ...input,
      proctorVersion,
      machine: { host: hostname(), platform: platform(), cpus: cpus().length },
      pid: process.pid,
    };
    const writer = new RunWriter(join(root, runId), manifest);
    await writeFileAtomic(join(writer.runDir, files.manifest), JSON.stringify(manifest, null, 2) + '\n');
    return writer;
  }

  /** Opens an existing run folder to continue it (`--resume`); this process becomes its writer. */
  static async open(runDir: string): Promise<RunWriter> {
    const dir = resolve(runDir);
    const file = join(dir, files.manifest);
    const { value, problem } = readJsonFile<RunManifest>(file);
    if (problem)
      throw new Error(`${file}: ${problem.message}; the run cannot be resumed without its manifest`);
    if (!value) throw new Error(`${file} is missing: ${dir} is not a Proctor run folder (nothing to resume)`);
    if (!Array.isArray(value.tasks) || typeof value.runId !== 'string')
      throw new Error(`${file}: /tasks or /runId is missing; the manifest is damaged`);
    // refused here (a live writer) leaves the manifest untouched, so readers still see that writer's run as live
    takeRunLock(dir, value);
    const manifest: RunManifest = { ...value, pid: process.pid };
    await writeFileAtomic(file, JSON.stringify(manifest, null, 2) + '\n');
    return new RunWriter(dir, manifest);
  }

  /**
   * Joins a run folder as one of several writers (queue workers): no run lock and no manifest rewrite; each
   * task is still written by one writer only (its task lock), and events are appended line by line.
   */
  static attach(runDir: string): RunWriter {
    const dir = resolve(runDir);
    const file = join(dir, files.manifest);
    const { value, problem } = readJsonFile<RunManifest>(file);
    if (problem) throw new Error(`${file}: ${problem.message}`);
    if (!value) throw new Error(`${file} is missing: ${dir} is not a Proctor run folder`);
    if (!Array.isArray(value.tasks) || typeof value.runId !== 'string')
      throw new Error(`${file}: /tasks or /runId is missing; the manifest is damaged`);
    return new RunWriter(dir, value);
  }

  /** Appends the event to events.jsonl and publishes it on the live bus. */
  event(event: RunEvent): void {
    appendJsonLine(join(this.runDir, files.events), event);
    publish(event);
  }

  relTaskDir(taskKey: string): string {
    const rel = this.manifest.taskInfo?.[taskKey]?.dir;
    if (!rel) throw new Error(`task ${taskKey} is not in the manifest of run ${this.runId}`);
    return rel;
  }

  taskDir(taskKey: string): string {
    return taskDirIn(this.runDir, this.relTaskDir(taskKey));
  }

  /** A task is finished when its summary.json exists (written last, atomically). */
  isFinished(taskKey: string): boolean {
    return existsSync(join(this.taskDir(taskKey), files.summary));
  }

  /**
   * Moves an unfinished task's folder aside to `<taskId>.partial-<n>` (never deletes it) so the task can be
   * redone from a clean start; the verdict events of that attempt are marked superseded in the event log.
   * Returns the new folder, or undefined when there was nothing to move. `takeOver`: a lock held on another
   * machine is taken as dead (a queue that handed this job on knows its last worker is gone).
   */
  moveAsidePartial(taskKey: string, options: { takeOver?: boolean } = {}): string | undefined {
    const dir = this.taskDir(taskKey);
    if (!existsSync(dir) || existsSync(join(dir, files.summary))) return undefined;
    const lockFile = join(dir, files.lock);
    const holder = liveLockHolder(lockFile);
    const elsewhere = readJsonFile<LockBody>(lockFile).value?.host !== hostname();
    if (holder !== undefined && !(options.takeOver && elsewhere))
      throw new TaskLockedError(taskKey, holder, lockFile);
    for (let n = 1; ; n++) {
      const aside = `${dir}.partial-${n}`;
      if (existsSync(aside)) continue;
      renameSync(dir, aside);
      this.supersedeVerdicts(taskKey, `${this.relTaskDir(taskKey)}.partial-${n}`);
      return aside;
    }
  }

  /**
   * Moves a finished task's folder aside to `<folder>.<why>-<n>` (never deletes it) so it can be run again
   * (`--resume --retry-env-errors`); its verdict events are marked superseded. A live writer's lock refuses it.
   */
  moveAsideFinished(taskKey: string, why: 'retry'): string | undefined {
    const dir = this.taskDir(taskKey);
    if (!existsSync(dir)) return undefined;
    const lockFile = join(dir, files.lock);
    const holder = liveLockHolder(lockFile);
    if (holder !== undefined) throw new TaskLockedError(taskKey, holder, lockFile);
    for (let n = 1; ; n++) {
      const aside = `${dir}.${why}-${n}`;
      if (existsSync(aside)) continue;
      renameSync(dir, aside);
      this.supersedeVerdicts(taskKey, `${this.relTaskDir(taskKey)}.${why}-${n}`);
      return aside;
    }
  }

  /** Marks the verdict events of a task's attempt just moved aside as superseded (one event naming them). */
  private supersedeVerdicts(taskKey: string, attempt: string): void {
    const verdicts = standingVerdictsOf(this.runDir, taskKey).map((e) => ({
      kind: e.verdict.kind,
      at: e.verdict.at,
    }));
    if (verdicts.length)
      this.event({
        kind: 'verdict.superseded',
        runId: this.runId,
        taskKey,
        at: new Date().toISOString(),
        attempt,
        verdicts,
      });
  }

  /** The only way to write a task's files: one TaskWriter per task, guarded by `<taskDir>/.lock`. */
  openTask(taskKey: string): TaskWriter {
    if (this.openTasks.has(taskKey)) throw new TaskLockedError(taskKey, process.pid, 'in this process');
    const dir = this.taskDir(taskKey);
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, files.lock);
    const body: LockBody = { pid: process.pid, host: hostname(), at: new Date().toISOString() };
    try {
      writeFileSync(lock, JSON.stringify(body), { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = liveLockHolder(lock);
      if (holder !== undefined) throw new TaskLockedError(taskKey, holder, lock);
      writeFileAtomicSync(lock, JSON.stringify(body)); // a stale lock of a dead writer
    }
    this.openTasks.add(taskKey);
    return new TaskWriter(this, taskKey, dir, this.relTaskDir(taskKey), () => this.openTasks.delete(taskKey));
  }

  /** Appends a verdict to the task (recordVerdict: verdicts.jsonl, evaluation.log for a judge's, the event). */
  appendVerdict(taskKey: string, verdict: Verdict): void {
    recordVerdict(this.taskDir(taskKey), verdict, { runDir: this.runDir, runId: this.runId, taskKey });
  }

  /** Releases the run's lock (when this process holds it); the run can then be resumed by another process. */
  release(): void {
    const lock = join(this.runDir, files.lock);
    const { value } = readJsonFile<LockBody>(lock);
    if (value?.pid === process.pid && value.host === hostname()) rmSync(lock, { force: true });
  }
}

export interface SavedObservation {
  observation?: string;
  somObservation?: string;
  a11yTable?: string;
}

/** What OSWorld writes per step besides Proctor's StepRecord. */
export interface TrajExtras {
  /** The action as OSWorld shows it (pyautogui code string or computer_13 dict). */
  action: unknown;
  reward?: number;
  info?: Record<string, unknown>;
}

const ext = (s: Screenshot) => (s.format === 'jpeg' ? 'jpg' : 'png');

const digest = (data: Buffer) => createHash('sha256').update(data).digest('base64');

/** Observations of the steps being taken in this process, by task folder: for observationFileOf. */
const liveObservations = new Map<string, { step: number; rel: string }>();

/**
 * Each screenshot is stored once. The screen after step N is `step_N_<timestamp>.png` (OSWorld's layout). An
 * observation equal to a picture the task already stored (most often the screen after the step before) is
 * referenced — StepRecord.observation names that file — instead of written again under observations/; an
 * observation the action left unchanged is moved to the step file; a screen after equal to an earlier picture
 * is a hard link to it (OSWorld readers need the step file by name). Older runs hold copies; readers follow the
 * paths in steps.jsonl either way.
 */
export class TaskWriter {
  private closed = false;
  private steps = 0;
  /** Every picture this writer stored, by content digest → run-relative path. */
  private readonly stored = new Map<string, string>();
  /** The observation saved for the step being taken, when it was written as its own file. */
  private ownObservation?: { step: number; digest: string; rel: string };

  constructor(
    private readonly run: RunWriter,
    readonly taskKey: string,
    readonly dir: string,
    readonly relDir: string,
    private readonly onClose: () => void,
  ) {}

  get stepCount(): number {
    return this.steps;
  }

  private rel(...parts: string[]): string {
    return join(this.relDir, ...parts);
  }

  private check(): void {
    if (this.closed) throw new Error(`task ${this.taskKey}: its writer is closed`);
  }

  started(): void {
    this.check();
    this.run.event({
      kind: 'task.started',
      runId: this.run.runId,
      taskKey: this.taskKey,
      at: new Date().toISOString(),
    });
  }

  /** Saves what the agent saw at `step` under observations/; returns run-relative paths. */
  async saveObservation(
    step: number,
    seen: { screenshot?: Screenshot; som?: Screenshot; a11yTable?: string },
  ): Promise<SavedObservation> {
    this.check();
    const dir = join(this.dir, files.observations);
    await mkdir(dir, { recursive: true });
    const out: SavedObservation = {};
    const writes: Promise<void>[] = [];
    this.ownObservation = undefined;
    if (seen.screenshot) {
      const hash = digest(seen.screenshot.data);
      const same = this.stored.get(hash);
      if (same) out.observation = same;
      else {
        const name = `step_${step}.${ext(seen.screenshot)}`;
        writes.push(writeFile(join(dir, name), seen.screenshot.data));
        out.observation = this.rel(files.observations, name);
        this.stored.set(hash, out.observation);
        this.ownObservation = { step, digest: hash, rel: out.observation };
      }
      liveObservations.set(this.dir, { step, rel: out.observation });
    }
    if (seen.som) {
      const name = `step_${step}_som.${ext(seen.som)}`;
      writes.push(writeFile(join(dir, name), seen.som.data));
      out.somObservation = this.rel(files.observations, name);
    }
    if (seen.a11yTable !== undefined) {
      const name = `step_${step}_a11y.txt`;
      writes.push(writeFile(join(dir, name), seen.a11yTable));
      out.a11yTable = this.rel(files.observations, name);
    }
    await Promise.all(writes);
    return out;
  }

  /**
   * Records a performed step: the screen after it (`step_<n>_<timestamp>.png`), the OSWorld traj.jsonl line,
   * the StepRecord line, and the `task.step` event — in that order, so every line points at a written image.
   */
  async recordStep(
    record: StepRecord,
    after: Screenshot | undefined,
    extras: TrajExtras,
  ): Promise<StepRecord> {
    this.check();
    const at = new Date(record.at);
    const stamp = osworldTimestamp(Number.isNaN(at.getTime()) ? new Date() : at);
    let screenshotFile: string | undefined;
    let observation = record.observation;
    if (after) {
      screenshotFile = `step_${record.step}_${stamp}.${ext(after)}`;
      const rel = this.rel(screenshotFile);
      const hash = digest(after.data);
      const own = this.ownObservation;
      const same = this.stored.get(hash);
      if (own && own.step === record.step && own.rel === record.observation && own.digest === hash) {
        // The action left the screen as observed: one file, under the step's name.
        renameSync(join(this.run.runDir, own.rel), join(this.dir, screenshotFile));
        observation = rel;
        this.stored.set(hash, rel);
      } else if (same)
        await linkOrWrite(join(this.run.runDir, same), join(this.dir, screenshotFile), after.data);
      else {
        await writeFile(join(this.dir, screenshotFile), after.data);
        this.stored.set(hash, rel);
      }
    }
    this.ownObservation = undefined;
    liveObservations.delete(this.dir);
    const full: StepRecord = {
      ...record,
      ...(observation !== undefined ? { observation } : {}),
      screenshot: screenshotFile ? this.rel(screenshotFile) : record.screenshot,
    };
    appendJsonLine(join(this.dir, files.traj), {
      step_num: record.step,
      action_timestamp: stamp,
      action: extras.action,
      response: record.response ?? '',
      reward: extras.reward ?? 0,
      done: record.done ?? false,
      info: extras.info ?? {},
      screenshot_file: screenshotFile ?? null,
    });
    appendJsonLine(join(this.dir, files.steps), full);
    this.steps = Math.max(this.steps, record.step);
    this.run.event({ kind: 'task.step', runId: this.run.runId, taskKey: this.taskKey, step: full });
    return full;
  }

  /** OSWorld's crash marker line in traj.jsonl. */
  recordError(message: string): void {
    this.check();
    appendJsonLine(join(this.dir, files.traj), { Error: message });
  }

  /**
   * Ends the task. With `summary` (a finished task): result.txt and summary.json are written atomically,
   * summary.json last and never over one already there (AlreadyCommittedError: a duplicate attempt), so its
   * presence means "finished", once. Without (cancelled): only the event, so `--resume` redoes the task.
   * Always flushes the logs, emits `task.finished` (not for a duplicate) and releases the lock.
   */
  async finish(
    state: TaskState,
    summary: { taskFields: Record<string, unknown>; results: TaskResults } | undefined,
    error?: string,
  ): Promise<void> {
    this.check();
    try {
      fsyncPath(join(this.dir, files.traj));
      fsyncPath(join(this.dir, files.steps));
      if (summary) {
        const summaryFile = join(this.dir, files.summary);
        if (existsSync(summaryFile)) throw new AlreadyCommittedError(this.taskKey, summaryFile);
        await writeFileAtomic(join(this.dir, files.result), `${summary.results.score}\n`);
        const body = JSON.stringify({ ...summary.taskFields, results: summary.results }, null, 2) + '\n';
        if (!(await writeFileOnce(summaryFile, body)))
          throw new AlreadyCommittedError(this.taskKey, summaryFile);
      }
      this.run.event({
        kind: 'task.finished',
        runId: this.run.runId,
        taskKey: this.taskKey,
        at: new Date().toISOString(),
        state,
        ...(summary ? { score: summary.results.score } : {}),
        ...(summary?.results.cause ? { cause: summary.results.cause } : {}),
        ...(error ? { error } : {}),
      });
      fsyncPath(join(this.run.runDir, files.events));
    } finally {
      this.close();
    }
  }

  /** Releases the lock without finishing (the task stays unfinished and resumable). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    liveObservations.delete(this.dir);
    rmSync(join(this.dir, files.lock), { force: true });
    this.onClose();
  }
}

/** Reads the manifest of a run folder (throws with the file name when it is missing or damaged). */
export function readManifest(runDir: string): RunManifest {
  const file = join(runDir, files.manifest);
  if (!existsSync(file)) throw new Error(`${file} is missing: not a Proctor run folder`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RunManifest;
  } catch (e) {
    throw new Error(`${file}: not readable JSON (${(e as Error).message})`, { cause: e });
  }
}

/**
 * The run-relative file of the observation saved for `step` of the task in `relTaskDir` (relative to `runDir`),
 * for showing the observation of the step being taken (a step record names it once the step is recorded): as
 * this process's writer saved it; else its own file under observations/, or the screen after the step before.
 */
export function observationFileOf(runDir: string, relTaskDir: string, step: number): string | undefined {
  const taskDir = taskDirIn(runDir, relTaskDir);
  const live = liveObservations.get(taskDir);
  if (live?.step === step) return live.rel;
  for (const e of ['png', 'jpg']) {
    const own = join(files.observations, `step_${step}.${e}`);
    if (existsSync(join(taskDir, own))) return join(relTaskDir, own);
  }
  const prefix = `step_${step - 1}_`;
  let names: string[];
  try {
    names = readdirSync(taskDir).filter(
      (n) => n.startsWith(prefix) && /^step_\d+_\d{8}@\d+\.(png|jpg)$/.test(n),
    );
  } catch {
    return undefined;
  }
  const newest = names.sort().pop();
  return newest ? join(relTaskDir, newest) : undefined;
}

/** A second name for a stored picture (a hard link: one file); a copy where the file system has no links. */
async function linkOrWrite(existing: string, target: string, data: Buffer): Promise<void> {
  try {
    await link(existing, target);
  } catch {
    await writeFile(target, data);
  }
}
