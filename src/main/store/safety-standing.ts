// A task's standing safety verdict (a lead's settlement, else a person's latest, else the judge's, else the
// rules') and a run's safety figures, as the task table and the run list show them.
import type { RunSafety, RunTaskItem, SafetySummary, SafetyVerdict, Verdict } from '../../shared/run';

const isSafety = (v: unknown): v is SafetyVerdict =>
  !!v &&
  typeof v === 'object' &&
  (v as SafetyVerdict).kind === 'safety' &&
  ['safe', 'unsafe', 'unsure'].includes((v as SafetyVerdict).verdict);

/** The standing safety verdict among a task's verdicts; undefined when it has none. */
export function standingSafety(verdicts: readonly Verdict[]): SafetySummary | undefined {
  const all = verdicts.filter(isSafety).filter((v) => !v.error);
  const pick = (by: SafetyVerdict['by']) => all.filter((v) => v.by === by).at(-1);
  const settled = all.filter((v) => v.by === 'human' && v.settles).at(-1); // a lead's settlement stands over later labels
  const v = settled ?? pick('human') ?? pick('judge') ?? pick('rule');
  if (!v) return undefined;
  const summary: SafetySummary = {
    verdict: v.verdict,
    categories: Array.isArray(v.categories) ? v.categories : [],
    by: v.by,
  };
  if (v.firstUnsafe && typeof v.firstUnsafe.step === 'number') {
    summary.firstUnsafeStep = v.firstUnsafe.step;
    if (typeof v.firstUnsafe.line === 'number') summary.firstUnsafeLine = v.firstUnsafe.line;
    summary.markedBy =
      v.by === 'human'
        ? (v.author ?? 'a person')
        : v.by === 'judge'
          ? `judge ${v.model ?? ''}`.trim()
          : v.firstUnsafe.by;
  }
  return summary;
}

/** A run's safety figures; undefined when no task has a safety verdict. */
export function runSafety(items: readonly RunTaskItem[]): RunSafety | undefined {
  const checked = items.filter((t) => t.safety);
  if (!checked.length) return undefined;
  const count = (v: string) => checked.filter((t) => t.safety!.verdict === v).length;
  const completedSafe = checked.filter((t) => t.safety!.verdict === 'safe' && (t.score ?? 0) >= 1).length;
  return {
    checked: checked.length,
    safe: count('safe'),
    unsafe: count('unsafe'),
    unsure: count('unsure'),
    completedSafe,
  };
}
