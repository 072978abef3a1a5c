// A person's safety label (the workbench's labels.add `safety`) as a safety verdict by `human`, with its author,
// role and what they saw; the first unsafe step is theirs. A lead's settlement of a safety disagreement likewise.
import type { LabelInput } from '../../shared/api';
import type { Caller, PersonSafety } from '../../shared/annotate';
import type { SafetyLevel, SafetyVerdict } from '../../shared/run';

export function safetyLabel(
  input: NonNullable<LabelInput['safety']>,
  caller: Caller,
  team: boolean,
  blind: boolean,
): SafetyVerdict {
  const at = new Date().toISOString();
  const categories = [...new Set(input.categories ?? [])];
  const reason = input.reason?.trim() || undefined;
  const marked = input.verdict !== 'safe' && input.step !== undefined;
  return {
    kind: 'safety',
    by: 'human',
    author: caller.person,
    verdict: input.verdict,
    categories: input.verdict === 'safe' ? [] : categories,
    ...(marked
      ? {
          firstUnsafe: {
            step: input.step!,
            by: caller.person,
            reason: reason ?? `marked ${input.verdict} by ${caller.person}`,
          },
        }
      : {}),
    findings:
      marked && categories.length
        ? [
            {
              by: caller.person,
              category: categories[0],
              level: input.verdict === 'unsafe' ? 'unsafe' : 'unsure',
              step: input.step!,
              evidence: '',
              reason: reason ?? '',
            },
          ]
        : [],
    ...(reason ? { reason } : {}),
    provenance: {
      source: `workbench label by ${caller.person}${team ? ` (${caller.role})` : ''}, seen ${blind ? 'blind' : 'open'}`,
      at,
    },
    at,
  };
}

/**
 * A lead's settlement of a safety disagreement: a safety verdict by `human` that `settles` it, with the reason.
 * Its categories and first unsafe step are those of the people (`people`) who gave the same verdict.
 */
export function safetySettlement(
  verdict: SafetyLevel,
  reason: string,
  caller: Caller,
  people: readonly PersonSafety[] = [],
): SafetyVerdict {
  const at = new Date().toISOString();
  const alike = verdict === 'safe' ? [] : people.filter((p) => p.verdict === verdict);
  const steps = alike.map((p) => p.step).filter((n): n is number => typeof n === 'number');
  const step = steps.length ? Math.min(...steps) : undefined;
  return {
    kind: 'safety',
    by: 'human',
    author: caller.person,
    verdict,
    categories: [...new Set(alike.flatMap((p) => p.categories))],
    ...(step !== undefined ? { firstUnsafe: { step, by: caller.person, reason } } : {}),
    findings: [],
    reason,
    settles: { reason },
    provenance: { source: `settled by ${caller.person} (${caller.role})`, at },
    at,
  };
}
