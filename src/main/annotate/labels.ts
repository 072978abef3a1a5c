// People's labels as the store keeps them (human verdict events in a task's verdicts.jsonl, appended, never
// rewritten) and what follows from them: each person's current label, the step marks, and an item's settled
// verdict (lead's, else agreed people's, else judge, else rule).
import { join } from 'node:path';
import type { Completion, HumanLabel, StepMark, Verdict } from '../../shared/run';
import type { PersonLabel } from '../../shared/annotate';
import { readJsonLines, runFiles, taskDirOf } from '../store';

export type { PersonLabel };

const completions = new Set(['yes', 'no', 'unsure']);

/** A human verdict event well-formed enough to count (someone else's file may hold anything). */
export function isHumanLabel(v: unknown): v is HumanLabel {
  const h = v as Partial<HumanLabel> | null;
  return (
    typeof h === 'object' &&
    h !== null &&
    h.kind === 'human' &&
    typeof h.author === 'string' &&
    h.author !== '' &&
    typeof h.at === 'string' &&
    (h.complete === undefined || completions.has(h.complete))
  );
}

/** Every verdict of a task, in the order they were appended. */
export function readVerdicts(runDir: string, taskKey: string): Verdict[] {
  return readJsonLines<Verdict>(join(taskDirOf(runDir, taskKey), runFiles.verdicts)).values.filter(
    (v) => typeof v === 'object' && v !== null,
  );
}

/** The human labels among `verdicts`, in order. */
export const humanLabels = (verdicts: readonly Verdict[]): HumanLabel[] => verdicts.filter(isHumanLabel);

/** Each person's current run label: their latest event with a `complete`, settlements left out. */
export function currentLabels(labels: readonly HumanLabel[]): PersonLabel[] {
  const byPerson = new Map<string, PersonLabel>();
  for (const l of labels) {
    if (l.settles || !l.complete) continue;
    byPerson.set(l.author, {
      person: l.author,
      complete: l.complete,
      at: l.at,
      seen: l.seen,
      ...(l.comment ? { comment: l.comment } : {}),
    });
  }
  return [...byPerson.values()].sort((a, b) => a.person.localeCompare(b.person));
}

/** Each step's current marks, per person (the latest mark of that step by that person). */
export function currentStepMarks(
  labels: readonly HumanLabel[],
): Map<number, Map<string, { mark: StepMark; note?: string }>> {
  const out = new Map<number, Map<string, { mark: StepMark; note?: string }>>();
  for (const l of labels) {
    if (!Array.isArray(l.steps)) continue;
    for (const s of l.steps) {
      if (typeof s?.step !== 'number') continue;
      const mark: StepMark = s.mark ?? (s.correct ? 'right' : 'wrong');
      let m = out.get(s.step);
      if (!m) out.set(s.step, (m = new Map()));
      m.set(l.author, { mark, ...(s.note ? { note: s.note } : {}) });
    }
  }
  return out;
}

/**
 * The events of `author` among `earlier` that `next` replaces: their run label when `next` gives `complete`, and
 * their marks of the steps `next` marks (settlements are never replaced). Each event's `at`, oldest first.
 */
export function supersededBy(
  earlier: readonly HumanLabel[],
  author: string,
  next: Pick<HumanLabel, 'complete' | 'steps'>,
): string[] {
  const steps = new Set((next.steps ?? []).map((s) => s.step));
  return earlier
    .filter((l) => l.author === author && !l.settles)
    .filter((l) => (next.complete && l.complete) || (l.steps ?? []).some((s) => steps.has(s.step)))
    .map((l) => l.at);
}

/** The latest settlement of a lead, if any. */
export function lastSettlement(labels: readonly HumanLabel[]): HumanLabel | undefined {
  for (let i = labels.length - 1; i >= 0; i--) if (labels[i].settles && labels[i].complete) return labels[i];
  return undefined;
}

/** The rule score read as a label: 1 passes, anything lower does not. */
export const ruleLabel = (score: number | undefined): Completion | undefined =>
  score === undefined ? undefined : score >= 1 ? 'yes' : 'no';

export type VerdictSource = 'lead' | 'people' | 'judge' | 'rule';

export interface SettledVerdict {
  complete?: Completion;
  source?: VerdictSource;
  /** Who it rests on: the lead, the agreeing people, `judge` or `rule`. */
  by: string[];
}

/**
 * An item's settled verdict: a lead's settlement; else the people's label when every labelling person agrees
 * (and it is not `unsure`); else the judge's (when not `unsure`); else the rule's. Settlements made before a
 * person's later label still stand: the lead saw the disagreement and decided.
 */
export function settledVerdict(
  labels: readonly HumanLabel[],
  judge: Completion | undefined,
  score: number | undefined,
): SettledVerdict {
  const settled = lastSettlement(labels);
  if (settled) return { complete: settled.complete, source: 'lead', by: [settled.author] };
  const people = currentLabels(labels);
  const kinds = new Set(people.map((p) => p.complete));
  if (people.length && kinds.size === 1 && !kinds.has('unsure'))
    return { complete: people[0].complete, source: 'people', by: people.map((p) => p.person) };
  if (judge && judge !== 'unsure') return { complete: judge, source: 'judge', by: ['judge'] };
  const rule = ruleLabel(score);
  if (rule) return { complete: rule, source: 'rule', by: ['rule'] };
  return { by: [] };
}
