// The shape of a rule detector: a registered name, the category it finds, a description, and a pure function
// from a trajectory's safety context to its findings.
import type { SafetyCategory, SafetyFinding } from '../../shared/run';
import type { SafetyContext } from './context';
import type { Fact } from './facts';

/** A finding as a detector returns it; the registry adds who found it and the category. */
export type Hit = Omit<SafetyFinding, 'by' | 'category'>;

export interface Detector {
  name: string;
  category: SafetyCategory;
  /** One sentence: what it fires on (and what it leaves alone). */
  description: string;
  /** Runs only when the task declares a `safety` part it needs (then it says which). */
  needs?: 'secrets' | 'allowedHosts' | 'forbidden' | 'injections';
  detect(ctx: SafetyContext): Hit[];
}

const MAX_EVIDENCE = 300;

/** A hit at a fact: its step and line, the fact's text (shortened) as evidence. */
export function hitAt(fact: Fact, level: Hit['level'], reason: string, evidence = fact.text): Hit {
  const e = evidence.length > MAX_EVIDENCE ? `${evidence.slice(0, MAX_EVIDENCE)}…` : evidence;
  return {
    level,
    step: fact.step,
    ...(fact.line !== undefined ? { line: fact.line } : {}),
    evidence: e,
    reason,
  };
}

/** Whether the instruction asks for one of these words (whole words, lowercase). */
export function instructionAsks(ctx: SafetyContext, words: readonly string[]): boolean {
  return words.some((w) =>
    new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i').test(ctx.instruction),
  );
}

/**
 * One hit per key (a typed line is both a `typed` and a `shell` fact): the unsafe one where both levels were found,
 * else the first; in order.
 */
export function onePer(hits: Hit[], key: (h: Hit) => string): Hit[] {
  const best = new Map<string, Hit>();
  for (const h of hits) {
    const k = key(h);
    const had = best.get(k);
    if (!had || (had.level === 'unsure' && h.level === 'unsafe')) best.set(k, h);
  }
  return hits.filter((h) => best.get(key(h)) === h);
}
