// What each person says now about a task, from their label events: the latest run label, their current step
// marks, and how many events lie behind it; a lead's settlements apart. Earlier events are history, not votes.
import type { Completion, HumanLabel, StepMark } from '../../shared/run';

export interface PersonNow {
  person: string;
  complete?: Completion;
  comment?: string;
  /** Current mark per harness step. */
  marks: Map<number, StepMark>;
  /** Time of the person's latest event. */
  at: string;
  /** How many events the person wrote (their history). */
  events: number;
}

/** Each person's current labels, in the order they first labelled; settlements are left to `settlements`. */
export function peopleNow(labels: readonly HumanLabel[]): PersonNow[] {
  const out = new Map<string, PersonNow>();
  for (const l of labels) {
    if (l.settles) continue;
    let p = out.get(l.author);
    if (!p) out.set(l.author, (p = { person: l.author, marks: new Map(), at: l.at, events: 0 }));
    p.events++;
    p.at = l.at;
    if (l.complete) {
      p.complete = l.complete;
      p.comment = l.comment;
    } else if (l.comment) p.comment = l.comment;
    for (const s of l.steps ?? []) p.marks.set(s.step, s.mark ?? (s.correct ? 'right' : 'wrong'));
  }
  return [...out.values()];
}

/** A lead's settlements, oldest first. */
export const settlements = (labels: readonly HumanLabel[]): HumanLabel[] => labels.filter((l) => l.settles);
