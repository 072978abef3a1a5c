// What a finished task left behind that grading can use again: the agent's last action, the run's own rule
// verdict, and the guest files that grading fetched (their copies in the task's `cache/` folder).
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { MetricRecord, RuleVerdict, StepRecord, Verdict } from '../../shared/run';
import type { GetterSpec } from '../../shared/task';
import { givenIndexes } from '../evaluators/getters/file';
import { safeFileName } from '../evaluators/task-files';

/** Where the run's grading keeps its fetched copies, inside the task folder (step-loop.ts). */
export const gradingCacheFolder = 'cache';

/**
 * Guest path → host copy fetched at grading, or `null` when grading found that the file did not exist
 * (a fact of the run too: re-grading scores it as a missing file again).
 */
export type FetchedFiles = Map<string, string | null>;

/** The agent's last DONE / FAIL, as the runner passes it to grading (undefined: step limit, no answer). */
export function lastActionOf(steps: StepRecord[]): string | undefined {
  const last = steps.at(-1);
  const terminal = last?.actions?.filter((a) => a.type === 'DONE' || a.type === 'FAIL').at(-1);
  return terminal?.type;
}

/** The run's own grading: the latest rule verdict without provenance (later ones are re-gradings). */
export function runVerdictOf(verdicts: Verdict[]): RuleVerdict | undefined {
  for (let i = verdicts.length - 1; i >= 0; i--) {
    const v = verdicts[i];
    if (v.kind === 'rule' && !v.provenance) return v;
  }
  return undefined;
}

/** The score each check got in `verdict`, by its JSON pointer (the last record for a pointer is the check's). */
export function checkScoresOf(verdict: RuleVerdict | undefined): Map<string, number> {
  const scores = new Map<string, number>();
  for (const r of verdict?.metrics ?? [])
    if (r.pointer !== undefined && Number.isFinite(r.score)) scores.set(r.pointer, r.score);
  return scores;
}

function specOf(v: unknown): GetterSpec | undefined {
  return typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'
    ? (v as GetterSpec)
    : undefined;
}

/** The copy's path now: as recorded, or under this task folder's cache when the run folder has moved. */
function copyNow(recorded: string, taskDir: string): string | undefined {
  if (existsSync(recorded)) return recorded;
  const moved = join(taskDir, gradingCacheFolder, basename(recorded));
  return existsSync(moved) ? moved : undefined;
}

/**
 * One side (`result` / `expected`) of a record: which guest files it fetched, and where they went. A `multi` vm_file
 * records only the values of its `gives` indexes; the other files it copied are found in the cache by their `dest`
 * (none there: the file did not exist).
 */
function addSide(
  found: FetchedFiles,
  record: MetricRecord,
  side: 'result' | 'expected',
  taskDir: string,
): void {
  const spec = specOf(record.getters?.[side]);
  if (spec?.type !== 'vm_file') return;
  const value = record[side];
  const missing = side === 'result' ? /^result file does not exist/ : /^expected file is missing/;
  const put = (guest: unknown, host: unknown, multi: boolean) => {
    if (typeof guest !== 'string' || found.has(guest)) return;
    if ((host === null || host === undefined) && multi)
      found.set(guest, null); // multi: a missing entry
    else if (typeof host === 'string') {
      const now = copyNow(host, taskDir);
      if (now) found.set(guest, now);
    }
  };
  const absent = !(side in record) && record.error !== undefined && missing.test(record.error);
  if (spec.multi !== true || !Array.isArray(spec.path)) {
    if (absent && typeof spec.path === 'string') found.set(spec.path, null);
    else if (!absent) put(spec.path, value, false);
    return;
  }
  const gives = givenIndexes(spec)
    .filter((i) => i >= 0 && i < (spec.path as unknown[]).length)
    .sort((a, b) => a - b);
  const values = absent
    ? gives.map(() => null)
    : gives.length === 1
      ? [value]
      : Array.isArray(value)
        ? value
        : [];
  gives.forEach((i, k) => put((spec.path as unknown[])[i], values[k] ?? null, true));
  const dests = Array.isArray(spec.dest) ? spec.dest : [];
  spec.path.forEach((p, i) => {
    if (gives.includes(i) || typeof p !== 'string' || found.has(p)) return;
    const copy = join(
      taskDir,
      gradingCacheFolder,
      safeFileName(typeof dests[i] === 'string' ? dests[i] : undefined, 'file'),
    );
    found.set(p, existsSync(copy) ? copy : null);
  });
}

/** The guest files the run's grading fetched, read from its verdict's records. */
export function fetchedFilesOf(verdict: RuleVerdict | undefined, taskDir: string): FetchedFiles {
  const found: FetchedFiles = new Map();
  for (const record of verdict?.metrics ?? []) {
    addSide(found, record, 'result', taskDir);
    addSide(found, record, 'expected', taskDir);
  }
  return found;
}
