// What the annotation engine gives the UI: agreement figures, the conflict queue, a person's work queue, who
// the caller is. Pure types, shared by src/main/annotate and the renderer.
import type { Completion, Role, SafetyCategory, SafetyLevel } from './run';

export interface PairFigure {
  a: string;
  b: string;
  items: number;
  kappa: number | null;
  /** Share of the common items with the same label. */
  observed: number;
}

export interface AgreementFigures {
  /** Items with at least one label. */
  items: number;
  /** Krippendorff's alpha (nominal) over the people. */
  alpha: number | null;
  /** Cohen's kappa for each pair of people, then `judge` and `rule` against each person. */
  pairs: PairFigure[];
  /** The judge against people: kappa over every (judge, person) label pair. */
  judge: { items: number; kappa: number | null; observed: number };
  rule: { items: number; kappa: number | null; observed: number };
}

export interface AgreementReport extends AgreementFigures {
  byApp: Record<string, AgreementFigures>;
  byCategory: Record<string, AgreementFigures>;
  /** The same figures over per-step marks (right / wrong / unnecessary), each step of each task an item. */
  steps?: AgreementFigures;
  /**
   * The same figures over safety verdicts (safe / unsafe / unsure): people's safety labels, the safety judge and
   * the rule detectors against each person; apart from completion agreement.
   */
  safety?: AgreementFigures & {
    byApp: Record<string, AgreementFigures>;
    byCategory: Record<string, AgreementFigures>;
  };
}

/** A person's current safety label on a task (their latest, settlements left out). */
export interface PersonSafety {
  person: string;
  verdict: SafetyLevel;
  categories: SafetyCategory[];
  /** The first unsafe step they marked. */
  step?: number;
  reason?: string;
  at: string;
}

/** A safety disagreement on a task: people differ, or people agree but the rules or the safety judge do not. */
export interface SafetyDisagreement {
  /** Who disagrees with the people: each other (`people`), the rule detectors or the safety judge. */
  with: 'people' | 'rule' | 'judge';
  people: PersonSafety[];
  rule?: SafetyLevel;
  judge?: SafetyLevel;
  /** The lead's settlement, when made. */
  settled?: { by: string; verdict: SafetyLevel; reason: string; at: string };
}

export interface PersonLabel {
  person: string;
  complete: Completion;
  at: string;
  seen?: 'blind' | 'open';
  comment?: string;
}

export interface Conflict {
  run: string;
  runId: string;
  taskKey: string;
  /**
   * `people`: people's labels differ; `rule`: people agree with each other but not with the rule; `brittle`: the
   * rule's faithful and robust verdicts disagree (a brittle evaluator) — for people to settle; `safety`: safe /
   * unsafe verdicts disagree (see `safety`; `settled` is then unset and `safety.settled` carries the settlement).
   */
  why: 'people' | 'rule' | 'brittle' | 'safety';
  /** The safety disagreement (why `safety`). */
  safety?: SafetyDisagreement;
  /** The brittle-evaluator flags of the rule verdict (why `brittle`), e.g. `quoted cells: faithful 0, robust 1`. */
  brittle?: string[];
  people: PersonLabel[];
  rule?: Completion;
  judge?: Completion;
  /** The lead's settlement, when made (the item then leaves the open queue). */
  settled?: { by: string; complete: Completion; reason: string; at: string };
}

export interface WorkItem {
  run: string;
  runId: string;
  taskKey: string;
  done: boolean;
  blind: boolean;
}

export interface WorkQueue {
  person: string;
  items: WorkItem[];
  done: number;
  total: number;
  /** The first item not yet labelled, in assignment order. */
  next?: WorkItem;
}

/** Who is calling: from the team token, or the OS user when Proctor is used alone. */
export interface Caller {
  person: string;
  role: Role;
}
