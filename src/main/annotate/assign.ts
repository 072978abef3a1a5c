// Assignments: which people label which tasks of a run, spread so each item gets k people other than its author,
// kept as append-only events in the run folder's assignments.jsonl; and each person's queue ("my work").
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { appendJsonLine, readJsonLines, readRun } from '../store';
import type { WorkItem, WorkQueue } from '../../shared/annotate';
import type { LabelledItem } from './items';

export type { WorkItem, WorkQueue };

export const assignmentsFile = 'assignments.jsonl';

export interface Assignment {
  kind: 'assigned';
  task: string;
  person: string;
  /** Blind: the person sees no rule score, judge verdict or others' labels until they label the item. */
  blind: boolean;
  by: string;
  at: string;
}

export function readAssignments(runDir: string): Assignment[] {
  const file = join(runDir, assignmentsFile);
  if (!existsSync(file)) return [];
  return readJsonLines<Assignment>(file).values.filter(
    (a) => a?.kind === 'assigned' && typeof a.task === 'string' && typeof a.person === 'string',
  );
}

export interface AssignPlan {
  /** New assignments per run folder. */
  byRun: Map<string, Assignment[]>;
  /** Items that could not get k people (too few people besides the author and those already assigned). */
  short: { run: string; task: string; got: number }[];
}

/**
 * Spreads every task of `runDirs` over `people` so each gets `perItem` people other than its author, counting
 * assignments already made; the least-loaded person goes first, ties in the order given.
 */
export function planAssignments(
  runDirs: readonly string[],
  people: readonly string[],
  perItem: number,
  opts: {
    by: string;
    blind: boolean;
    authorOf?: (runDir: string, task: string) => string | undefined;
    now?: () => string;
  },
): AssignPlan {
  const load = new Map(people.map((p) => [p, 0]));
  const runs = runDirs.map((d) => {
    const dir = resolve(d);
    const existing = readAssignments(dir);
    for (const a of existing) if (load.has(a.person)) load.set(a.person, load.get(a.person)! + 1);
    return { dir, existing, tasks: readRun(dir).tasks.map((t) => t.key) };
  });
  const at = (opts.now ?? (() => new Date().toISOString()))();
  const plan: AssignPlan = { byRun: new Map(), short: [] };
  for (const run of runs) {
    const made: Assignment[] = [];
    for (const task of run.tasks) {
      const author = opts.authorOf?.(run.dir, task);
      const already = new Set(run.existing.filter((a) => a.task === task).map((a) => a.person));
      let got = [...already].filter((p) => p !== author).length;
      const candidates = people
        .filter((p) => p !== author && !already.has(p))
        .map((p, i) => ({ p, i }))
        .sort((x, y) => load.get(x.p)! - load.get(y.p)! || x.i - y.i);
      for (const { p } of candidates) {
        if (got >= perItem) break;
        made.push({ kind: 'assigned', task, person: p, blind: opts.blind, by: opts.by, at });
        load.set(p, load.get(p)! + 1);
        got++;
      }
      if (got < perItem) plan.short.push({ run: run.dir, task, got });
    }
    plan.byRun.set(run.dir, made);
  }
  return plan;
}

export function writeAssignments(plan: AssignPlan): number {
  let n = 0;
  for (const [dir, made] of plan.byRun)
    for (const a of made) {
      appendJsonLine(join(dir, assignmentsFile), a, { fsync: true });
      n++;
    }
  return n;
}

/** A person's queue over labelled items: what they were assigned, and whether they have labelled it. */
export function workQueue(person: string, items: readonly LabelledItem[]): WorkQueue {
  const assignments = new Map<string, Assignment[]>();
  const out: WorkItem[] = [];
  for (const i of items) {
    if (!assignments.has(i.runDir)) assignments.set(i.runDir, readAssignments(i.runDir));
    const mine = assignments.get(i.runDir)!.filter((a) => a.task === i.taskKey && a.person === person);
    if (!mine.length) continue;
    out.push({
      run: i.run,
      runId: i.runId,
      taskKey: i.taskKey,
      done: i.people.some((p) => p.person === person),
      blind: mine[mine.length - 1].blind !== false,
    });
  }
  const done = out.filter((w) => w.done).length;
  return { person, items: out, done, total: out.length, next: out.find((w) => !w.done) };
}
