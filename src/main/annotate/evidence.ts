// Evidence Proctor computes for a task's cross-validation checks (c) reset reproducibility, (d) a correct run
// scores 1 (also on a fresh replay), (e) red-team runs score 0 — appended to the served folder's
// .proctor/task-evidence.jsonl; the review checklist shows it and pre-fills its verdicts. Reviewers decide.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { appendJsonLine, readJsonLines } from '../store';
import type { CheckVerdict } from './task-review';

export interface TaskEvidence {
  kind: 'task.evidence';
  /** The task file relative to the served folder. */
  task: string;
  check: 'c' | 'd' | 'e';
  verdict: CheckVerdict;
  note: string;
  /** Where it came from: `proctor review reset`, `… replay`, `proctor selftest <dir>`. */
  source: string;
  /** Pictures behind it (heat maps), as given to the command. */
  files?: string[];
  at: string;
}

export const evidenceFileOf = (root: string) => join(root, '.proctor', 'task-evidence.jsonl');

export function appendEvidence(root: string, e: Omit<TaskEvidence, 'kind' | 'at'>): void {
  mkdirSync(dirname(evidenceFileOf(root)), { recursive: true, mode: 0o700 });
  appendJsonLine(
    evidenceFileOf(root),
    { kind: 'task.evidence', ...e, at: new Date().toISOString() },
    { fsync: true },
  );
}

/** The latest evidence per check of a task. */
export function latestEvidence(root: string, task: string): TaskEvidence[] {
  const file = evidenceFileOf(root);
  if (!existsSync(file)) return [];
  const latest = new Map<string, TaskEvidence>();
  for (const e of readJsonLines<TaskEvidence>(file).values)
    if (e?.kind === 'task.evidence' && e.task === task && ['c', 'd', 'e'].includes(e.check))
      latest.set(e.check, e);
  return [...latest.values()].sort((a, b) => a.check.localeCompare(b.check));
}

interface SelfTestFile {
  tasks?: {
    key?: string;
    file?: string;
    verdict?: string;
    reason?: string;
    oracle?: { score?: number };
    noop?: { score?: number };
    cut?: { score?: number };
  }[];
}

/**
 * Evidence for checks d and e from a `proctor selftest` evidence folder: d passes when the oracle scored 1;
 * e passes when doing nothing scored 0 and the cut oracle below 1, fails when either scored 1.
 */
export function selfTestEvidence(
  selftestDir: string,
): { file: string; check: 'd' | 'e'; verdict: CheckVerdict; note: string }[] {
  const path = join(selftestDir, 'selftest.json');
  let parsed: SelfTestFile;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as SelfTestFile;
  } catch (e) {
    throw new Error(`${path}: not readable JSON (${(e as Error).message})`, { cause: e });
  }
  if (!Array.isArray(parsed?.tasks)) throw new Error(`${path}: /tasks must be a list`);
  const out: { file: string; check: 'd' | 'e'; verdict: CheckVerdict; note: string }[] = [];
  for (const t of parsed.tasks) {
    if (typeof t?.file !== 'string') continue;
    const oracle = t.oracle?.score;
    const noop = t.noop?.score;
    const cut = t.cut?.score;
    out.push({
      file: t.file,
      check: 'd',
      verdict: oracle === undefined ? 'unsure' : oracle >= 1 ? 'pass' : 'fail',
      note: `oracle scored ${oracle ?? 'nothing'}`,
    });
    const red = [noop, cut].filter((s): s is number => s !== undefined);
    const verdict: CheckVerdict = !red.length
      ? 'unsure'
      : red.some((s) => s >= 1)
        ? 'fail'
        : noop === 0
          ? 'pass'
          : 'unsure';
    out.push({
      file: t.file,
      check: 'e',
      verdict,
      note: `doing nothing scored ${noop ?? '–'}, the cut oracle ${cut ?? '–'}${t.verdict ? ` (selftest: ${t.verdict})` : ''}`,
    });
  }
  return out;
}
