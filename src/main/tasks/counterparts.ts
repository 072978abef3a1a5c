// A verbose task and its abstract counterpart, linked both ways; ids live in a collection (an examples root),
// so the native set and Spider2-V may share ids without clashing.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem, Task } from '../../shared/task';
import { collectionOf } from './normalise';

export interface CounterpartPair {
  verbose: Task;
  abstract: Task;
}

/** What counterpart checks need of a task file; schema-invalid task files still take part through this. */
export type TaskRef = Pick<Task, 'id' | 'counterpart' | 'file'> & Partial<Task>;

export interface CounterpartLinks {
  /** Both directions: every paired task maps to the other one. Keyed by task file. */
  byFile: Map<string, Task>;
  pairs: CounterpartPair[];
  problems: Problem[];
}

/** The counterpart of `task` in `links`, if the two point at each other. */
export function counterpartOf(links: CounterpartLinks, task: Task): Task | undefined {
  return links.byFile.get(task.file);
}

const key = (task: TaskRef, id: string): string => `${collectionOf(task.file)}\0${id}`;

/** Where a counterpart's file would be on disk: same domain first, then any domain of the collection. */
export function counterpartFileCandidates(task: Task, id: string): string[] {
  if (!/^[\w.-]+$/.test(id)) return [];
  const root = collectionOf(task.file);
  const domains = [task.domain];
  try {
    for (const d of readdirSync(root, { withFileTypes: true }))
      if (d.isDirectory() && d.name !== task.domain) domains.push(d.name);
  } catch {
    // no readable collection root: only the task's own domain is tried
  }
  return domains
    .flatMap((d) => [join(root, d, id, `${id}.json`), join(root, d, `${id}.json`)])
    .filter((f) => existsSync(f));
}

/**
 * Pair tasks with their counterparts. `extra` are task files read only to resolve counterparts (not reported on).
 * Warnings: a counterpart that is the task itself, that does not exist, or that does not point back.
 */
export function linkCounterparts(tasks: Task[], extra: TaskRef[] = []): CounterpartLinks {
  const index = new Map<string, TaskRef>();
  for (const t of [...extra, ...tasks]) if (!index.has(key(t, t.id))) index.set(key(t, t.id), t);
  const byFile = new Map<string, Task>();
  const pairs: CounterpartPair[] = [];
  const problems: Problem[] = [];
  const warn = (t: Task, message: string): void => {
    problems.push({ file: t.file, pointer: '/counterpart', severity: 'warning', message });
  };
  for (const t of tasks) {
    const id = t.counterpart;
    if (id === undefined) continue;
    if (id === t.id) {
      warn(
        t,
        `counterpart '${id}' is the task's own id: point it at the ${t.style === 'verbose' ? 'abstract' : t.style === 'abstract' ? 'verbose' : 'other-style'} version of this task`,
      );
      continue;
    }
    const other = index.get(key(t, id));
    if (!other) {
      warn(t, `counterpart '${id}' does not exist in ${collectionOf(t.file)}`);
      continue;
    }
    if (other.counterpart !== t.id) {
      warn(
        t,
        `counterpart '${id}' does not point back: its counterpart is ${other.counterpart === undefined ? 'missing' : `'${other.counterpart}'`}`,
      );
      continue;
    }
    if (other.shape === undefined) continue; // a task file that did not read as a task: nothing to pair with
    const otherTask = other as Task;
    byFile.set(t.file, otherTask);
    byFile.set(other.file, t);
    const first = t.file < other.file;
    if (first || !tasks.includes(otherTask)) {
      const verboseFirst =
        t.style === 'verbose' || (t.style !== 'abstract' && other.style !== 'verbose' && first);
      pairs.push(verboseFirst ? { verbose: t, abstract: otherTask } : { verbose: otherTask, abstract: t });
    }
  }
  return { byFile, pairs, problems };
}

/** Warnings for ids used more than once within one collection. */
export function duplicateIdProblems(tasks: Task[]): Problem[] {
  const seen = new Map<string, Task>();
  const problems: Problem[] = [];
  for (const t of tasks) {
    const k = key(t, t.id);
    const first = seen.get(k);
    if (first)
      problems.push({
        file: t.file,
        pointer: '/id',
        severity: 'warning',
        message: `duplicate id '${t.id}': also used by ${first.file}`,
      });
    else seen.set(k, t);
  }
  return problems;
}
