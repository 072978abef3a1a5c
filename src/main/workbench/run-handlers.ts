// runs.*: runs below the served root (Proctor, OSWorld and Spider2-V result folders) and live events.
// runs.compare and runs.stepDiffs (several runs of one task) are in compare-handlers.ts; people's labels are
// annotate-handlers.ts's.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ApiHandlers, ComparedRun, RunDetail, TaskTrajectory } from '../../shared/api';
import { listRuns, matchingTaskKey, readRun, readTaskTrajectory, runFiles, type RunManifest } from '../store';
import { ApiRequestError } from './dispatch';
import { runQueueView } from './queue-handlers';
import type { EventHub } from './events';
import { relativeToRoot, resolveBelow, runDirBelow } from './paths';
import { RunTail } from './run-live';
import { RunControl } from './run-control';
import type { TaskSourceOptions } from './task-sources';
import { compareHandlers } from './compare-handlers';
import { statsHandlers } from './stats-handlers';
import { readJsonFile } from '../store/files';
import { isOsworldRunDir } from '../store/osworld-reader';
import { isSpider2vRunDir } from '../store/spider2v-reader';

/**
 * A Proctor run folder whose manifest cannot be read (cut, 100,000 levels deep, the wrong shape) is shown with
 * that as its problem — never a failed call; a folder that is no run at all is still an error.
 */
function readRunOrProblem(dir: string, root: string): RunDetail {
  try {
    return readRun(dir, root);
  } catch (e) {
    const manifest = join(dir, runFiles.manifest);
    if (!existsSync(manifest)) throw e;
    const message = (e as Error).message;
    return {
      run: {
        runId: basename(dir),
        path: relativeToRoot(root, dir) || '.',
        format: 'proctor',
        tasks: 0,
        finished: 0,
        live: false,
        error: message,
      },
      tasks: [],
      problems: [
        {
          file: manifest,
          severity: 'error',
          message: message.startsWith(`${manifest}: `) ? message.slice(manifest.length + 2) : message,
        },
      ],
    };
  }
}

type RunMethods = Pick<
  ApiHandlers,
  | 'runs.list'
  | 'runs.get'
  | 'runs.task'
  | 'runs.queue'
  | 'runs.compare'
  | 'runs.stepDiffs'
  | 'runs.start'
  | 'runs.control'
  | 'runs.pending'
  | 'runs.act'
  | 'runs.stats'
  | 'runs.pairedStats'
>;

export function runHandlers(
  root: string,
  hub: EventHub,
  sources: TaskSourceOptions = {},
): { handlers: RunMethods; close(): Promise<void>; stopAll(): number } {
  const tail = new RunTail(hub);
  const control = new RunControl(root, sources);
  // Runs of this process (and their pauses and approvals) are on the store's live bus: the hub forwards it.
  const stopForwarding = hub.forwardRunEvents();

  const runDir = (runId: string): string => runDirBelow(root, runId);
  const readable = <T>(read: () => T): T => {
    try {
      return read();
    } catch (e) {
      if (e instanceof ApiRequestError) throw e;
      throw new ApiRequestError('not_found', (e as Error).message);
    }
  };

  /** A run's task with its step files relative to the served root (the UI loads them from there). */
  const trajectory = (runId: string, taskKey: string): TaskTrajectory => {
    const dir = runDir(runId);
    const traj = readable(() => readTaskTrajectory(dir, taskKey));
    if (!control.owns(traj.runId)) tail.follow(dir);
    const runRel = relativeToRoot(root, dir);
    // OSWorld and Spider2-V runs are named by their folder below the root, as runs.list names them (dated runs
    // of one task under the same settings differ only there).
    if (!existsSync(join(dir, runFiles.manifest)) && (isOsworldRunDir(dir) || isSpider2vRunDir(dir)))
      traj.runId = runRel || basename(dir);
    const below = (p?: string) => (p === undefined ? undefined : runRel ? `${runRel}/${p}` : p);
    traj.steps = traj.steps.map((s) => ({
      ...s,
      observation: below(s.observation),
      somObservation: below(s.somObservation),
      screenshot: below(s.screenshot),
      a11yTable: below(s.a11yTable),
    }));
    return traj;
  };
  /** Who ran a run, from its manifest where it has one (other tools' folders name no agent). */
  const comparedRun = (runId: string): ComparedRun => {
    const dir = runDir(runId);
    const read = readJsonFile<Record<string, unknown>>(join(dir, runFiles.manifest));
    const m = read.value && typeof read.value === 'object' ? read.value : {};
    const text = (v: unknown) => (typeof v === 'string' && v ? v.slice(0, 200) : undefined);
    return { path: relativeToRoot(root, dir) || '.', agent: text(m.agent), model: text(m.model) };
  };

  /** The task key a run keeps `taskKey` under: a repeated run keeps attempts (`x#1`), a run of single attempts the task. */
  const comparedKey = (runId: string, taskKey: string): string => {
    const read = readJsonFile<Partial<RunManifest>>(join(runDir(runId), runFiles.manifest));
    const keys = Array.isArray(read.value?.tasks)
      ? read.value.tasks.filter((k): k is string => typeof k === 'string')
      : undefined;
    return (keys && matchingTaskKey(keys, taskKey)) ?? taskKey;
  };

  const handlers: RunMethods = {
    'runs.list': async ({ path, withTask }) => {
      const all = listRuns(path ? resolveBelow(root, path) : root);
      for (const r of all) if (r.live && !control.owns(r.runId)) tail.follow(resolveBelow(root, r.path));
      for (const r of all) if (r.live && control.isPaused(r.runId)) r.paused = true;
      if (withTask === undefined) return all;
      return all.filter((r) => {
        try {
          return (
            matchingTaskKey(
              readRun(resolveBelow(root, r.path), root).tasks.map((t) => t.key),
              withTask,
            ) !== undefined
          );
        } catch {
          return false;
        }
      });
    },
    'runs.get': async ({ runId }) => {
      const dir = runDir(runId);
      const detail = readable(() => readRunOrProblem(dir, root));
      if (detail.run.live && !control.owns(detail.run.runId)) tail.follow(dir);
      if (detail.run.live && control.isPaused(detail.run.runId)) detail.run.paused = true;
      return detail;
    },
    'runs.task': async ({ runId, taskKey }) => trajectory(runId, taskKey),
    'runs.queue': async ({ runId }) => {
      const detail = readable(() => readRunOrProblem(runDir(runId), root));
      const queue = detail.manifest?.queue;
      return typeof queue === 'string' ? runQueueView(queue, detail.run.runId) : null;
    },
    ...compareHandlers(root, { trajectory, run: comparedRun, keyIn: comparedKey }),
    ...statsHandlers(root, runDir),
    'runs.start': async (params) => control.start(params),
    'runs.control': async ({ runId, action, taskKey, step, code }) =>
      control.control(runId, action, taskKey, step, code),
    'runs.pending': async ({ runId }) => control.pending(runId),
    'runs.act': async ({ runId, taskKey, text }) => control.act(runId, taskKey, text),
  };
  return {
    handlers,
    stopAll: () => control.stopAll(),
    close: async () => {
      stopForwarding();
      tail.close();
      await control.close();
    },
  };
}
