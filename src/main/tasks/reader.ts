// Reading task files of the three shapes into Tasks; folders are walked and split files select subsets.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Problem, Task } from '../../shared/task';
import {
  counterpartFileCandidates,
  duplicateIdProblems,
  linkCounterparts,
  type TaskRef,
} from './counterparts';
import { expandPaths, readJsonFile } from './files';
import { detectFileKind, taskKinds, type FileKind } from './kind';
import { pointerOf } from '../schemas';
import { lintTask } from './lint';
import { collectionOf, toTask } from './normalise';
import { pythonTwin } from './py-floats';
import { schemaProblems } from '../schemas';
import { taskSetOf } from './task-set';

export { detectFileKind, type FileKind } from './kind';

type TaskKind = 'task-native' | 'task-spider2v' | 'task-osworld';

/** Schema-check, lint and normalise one parsed task document. A task comes back whenever the schema holds. With
 * the file's `text`, its checks list the whole numbers written as floats (`pyFloats`: `5.0` stays a Python float). */
export function taskFromJson(
  json: unknown,
  file: string,
  kind: TaskKind,
  options: { checkAssets?: boolean; text?: string } = {},
): { task?: Task; problems: Problem[] } {
  const problems = schemaProblems(kind, json, file);
  if (problems.length) return { problems };
  const obj = json as Record<string, unknown>;
  problems.push(...lintTask(obj, kind, file, options));
  return { task: toTask(obj, file, kind, pythonTwin(options.text)), problems };
}

/** Read one task file (any of the three shapes). */
export async function readTaskFile(file: string): Promise<{ task?: Task; problems: Problem[] }> {
  const abs = resolve(file);
  const read = await readJsonFile(abs);
  if (!read.ok) return { problems: [read.problem] };
  const kind = detectFileKind(abs, read.value);
  if (!taskKinds.has(kind)) {
    return {
      problems: [
        {
          file: abs,
          pointer: '',
          severity: 'error',
          message: `not a task file (it looks like: ${kind}); expected a native, Spider2-V or OSWorld task`,
        },
      ],
    };
  }
  return taskFromJson(read.value, abs, kind as TaskKind, { text: read.text });
}

/** The task files a split file (`{app: [uuid, …]}`) selects, resolved beside it. Missing ones are problems. */
export function resolveSplit(
  file: string,
  json: Record<string, unknown>,
): { files: string[]; problems: Problem[] } {
  const dir = dirname(resolve(file));
  const files: string[] = [];
  const problems: Problem[] = [];
  for (const [app, ids] of Object.entries(json)) {
    if (!Array.isArray(ids)) continue;
    ids.forEach((id, i) => {
      if (typeof id !== 'string' || !/^[\w.-]+$/.test(id) || !/^[\w.+-]+$/.test(app)) {
        problems.push({
          file,
          pointer: pointerOf(app, i),
          severity: 'error',
          message: `not a usable task id: ${JSON.stringify(id)}`,
        });
        return;
      }
      const candidates = [
        join(dir, 'examples', app, id, `${id}.json`),
        join(dir, 'examples', app, `${id}.json`),
        join(dir, app, id, `${id}.json`),
        join(dir, app, `${id}.json`),
      ];
      const found = candidates.find((c) => existsSync(c));
      if (found) files.push(found);
      else
        problems.push({
          file,
          pointer: pointerOf(app, i),
          severity: 'error',
          message: `no task file for '${id}' (looked for ${candidates[0]} and the flat ${candidates[1]})`,
        });
    });
  }
  return { files, problems };
}

/**
 * Load tasks from files, folders (walked; split files and run folders inside folders are ignored) and split files (which
 * select the tasks they list). Counterparts are linked and checked, duplicate ids reported.
 * `files` is the number of task files read.
 */
export async function loadTasks(
  paths: string[],
): Promise<{ tasks: Task[]; problems: Problem[]; files: number }> {
  const problems: Problem[] = [];
  const taskFiles = new Set<string>();
  for (const p of paths) {
    const abs = resolve(p);
    // Run folders hold copies of tasks (summary.json) and trajectories, never tasks to load.
    const { files, problems: missing, skipped } = await expandPaths([abs], { skipRunFolders: true });
    problems.push(...missing, ...skipped);
    const explicitFile = files.length === 1 && files[0] === abs;
    for (const f of files) {
      if (!f.toLowerCase().endsWith('.json')) continue;
      if (!explicitFile) {
        taskFiles.add(f);
        continue;
      }
      const read = await readJsonFile(f);
      if (read.ok && detectFileKind(f, read.value) === 'split') {
        const split = resolveSplit(f, read.value as Record<string, unknown>);
        problems.push(...split.problems);
        split.files.forEach((s) => taskFiles.add(s));
      } else taskFiles.add(f);
    }
  }
  const tasks: Task[] = [];
  const invalid: TaskRef[] = [];
  let files = 0;
  for (const f of taskFiles) {
    const read = await readJsonFile(f);
    if (!read.ok) {
      files++;
      problems.push(read.problem);
      continue;
    }
    const kind: FileKind = detectFileKind(f, read.value);
    if (!taskKinds.has(kind)) continue; // other JSON in a task folder (splits, summaries, notebooks' metadata…)
    files++;
    const r = taskFromJson(read.value, f, kind as TaskKind, { text: read.text });
    problems.push(...r.problems);
    if (r.task) {
      try {
        const screen = taskSetOf(f)?.screen;
        if (screen) r.task.screen = screen;
      } catch (e) {
        problems.push({ file: f, pointer: '', severity: 'error', message: (e as Error).message });
      }
      tasks.push(r.task);
    } else {
      const ref = taskRefOf(read.value, f);
      if (ref) invalid.push(ref);
    }
  }
  problems.push(...duplicateIdProblems(tasks), ...(await counterpartProblems(tasks, invalid)));
  return { tasks, problems, files };
}

/** A counterpart-check stand-in for a task file that is JSON with an id but did not read as a task. */
export function taskRefOf(json: unknown, file: string): TaskRef | undefined {
  if (typeof json !== 'object' || json === null || typeof (json as { id?: unknown }).id !== 'string')
    return undefined;
  const { id, counterpart } = json as { id: string; counterpart?: unknown };
  return { id, file, counterpart: typeof counterpart === 'string' ? counterpart : undefined };
}

/**
 * Counterpart warnings for `tasks`, reading counterparts from disk when they were not loaded. `others` are task
 * files that did not read as tasks (schema errors): they still count as existing.
 */
export async function counterpartProblems(tasks: Task[], others: TaskRef[] = []): Promise<Problem[]> {
  const known = [...tasks, ...others];
  const loaded = new Set(known.map((t) => `${collectionOf(t.file)}\0${t.id}`));
  const extra: TaskRef[] = [...others];
  for (const t of tasks) {
    if (!t.counterpart || t.counterpart === t.id || loaded.has(`${collectionOf(t.file)}\0${t.counterpart}`))
      continue;
    for (const f of counterpartFileCandidates(t, t.counterpart)) {
      if (known.some((x) => x.file === f) || extra.some((x) => x.file === f)) continue;
      const r = await readTaskFile(f);
      if (r.task) extra.push(r.task);
      else {
        const read = await readJsonFile(f);
        const ref = read.ok ? taskRefOf(read.value, f) : undefined;
        if (ref) extra.push(ref);
      }
    }
  }
  return linkCounterparts(tasks, extra).problems;
}
