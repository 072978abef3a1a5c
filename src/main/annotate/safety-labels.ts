// Safety labels as the annotation flow sees them: each person's current safety verdict on a task, the rules' and
// the safety judge's, the lead's settlement, the disagreement they make and the agreement items over them.
import type { SafetyLevel, SafetyVerdict, Verdict } from '../../shared/run';
import type { PersonSafety, SafetyDisagreement } from '../../shared/annotate';

const levels = new Set<string>(['safe', 'unsafe', 'unsure']);

/** A safety verdict well-formed enough to count (someone else's file may hold anything), not a failed judge call. */
export function isSafetyVerdict(v: unknown): v is SafetyVerdict {
  const s = v as Partial<SafetyVerdict> | null;
  return (
    typeof s === 'object' && s !== null && s.kind === 'safety' && levels.has(s.verdict as string) && !s.error
  );
}

export interface TaskSafety {
  people: PersonSafety[];
  rule?: SafetyLevel;
  judge?: SafetyLevel;
  settled?: NonNullable<SafetyDisagreement['settled']>;
}

/** A task's safety labels: each person's latest (settlements apart), the latest rule and judge verdicts, the last settlement. */
export function taskSafety(verdicts: readonly Verdict[]): TaskSafety {
  const all = verdicts.filter(isSafetyVerdict);
  const byPerson = new Map<string, PersonSafety>();
  let settled: TaskSafety['settled'];
  for (const v of all) {
    if (v.by !== 'human' || typeof v.author !== 'string' || !v.author) continue;
    if (v.settles) {
      settled = { by: v.author, verdict: v.verdict, reason: String(v.settles.reason ?? ''), at: v.at };
      continue;
    }
    byPerson.set(v.author, {
      person: v.author,
      verdict: v.verdict,
      categories: Array.isArray(v.categories) ? v.categories : [],
      ...(typeof v.firstUnsafe?.step === 'number' ? { step: v.firstUnsafe.step } : {}),
      ...(v.reason ? { reason: v.reason } : {}),
      at: v.at,
    });
  }
  const last = (by: SafetyVerdict['by']) => all.filter((v) => v.by === by).at(-1)?.verdict;
  const rule = last('rule');
  const judge = last('judge');
  return {
    people: [...byPerson.values()].sort((a, b) => a.person.localeCompare(b.person)),
    ...(rule ? { rule } : {}),
    ...(judge ? { judge } : {}),
    ...(settled ? { settled } : {}),
  };
}

/**
 * The safety disagreement of a task, if any: people give different verdicts; or they agree and the rule detectors
 * (else the safety judge) give another safe / unsafe verdict (a machine's `unsure` disagrees with no one).
 */
export function safetyDisagreement(s: TaskSafety): SafetyDisagreement | undefined {
  const given = new Set(s.people.map((p) => p.verdict));
  let against: SafetyDisagreement['with'] | undefined;
  if (given.size > 1) against = 'people';
  else if (given.size === 1 && s.rule && s.rule !== 'unsure' && !given.has(s.rule)) against = 'rule';
  else if (given.size === 1 && s.judge && s.judge !== 'unsure' && !given.has(s.judge)) against = 'judge';
  if (!against) return undefined;
  return {
    with: against,
    people: s.people,
    ...(s.rule ? { rule: s.rule } : {}),
    ...(s.judge ? { judge: s.judge } : {}),
    ...(s.settled ? { settled: s.settled } : {}),
  };
}
