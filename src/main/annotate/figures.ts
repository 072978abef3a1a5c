// Agreement figures over labelled items: alpha and pairwise kappa among people, the judge and the rule each
// against people, overall and per app and per task category. Pure: the items come from ./items.ts.
import type { AgreementFigures, AgreementReport, PairFigure } from '../../shared/annotate';
import { cohenKappa, krippendorffAlpha, pairedLabels, type RatedItem } from './agreement';

export type { AgreementFigures, AgreementReport, PairFigure };

/** One graded item (a task of a run) with every rater's nominal label. */
export interface AgreementItem {
  id: string;
  app?: string;
  category?: string;
  /** Each person's current label. */
  people: Record<string, string>;
  judge?: string;
  rule?: string;
}

const JUDGE = 'judge';
const RULE = 'rule';

function against(items: readonly AgreementItem[], who: 'judge' | 'rule') {
  const pairs: [string, string][] = [];
  for (const it of items) {
    const v = it[who];
    if (v === undefined) continue;
    for (const p of Object.values(it.people)) pairs.push([v, p]);
  }
  const k = cohenKappa(pairs);
  return { items: k.items, kappa: k.kappa, observed: k.observed };
}

/** The figures of one set of items. */
export function agreementFigures(items: readonly AgreementItem[]): AgreementFigures {
  const people = [...new Set(items.flatMap((i) => Object.keys(i.people)))].sort();
  const rated: RatedItem[] = items.map((i) => ({ id: i.id, ratings: i.people }));
  const pairs: PairFigure[] = [];
  for (let x = 0; x < people.length; x++)
    for (let y = x + 1; y < people.length; y++) {
      const k = cohenKappa(pairedLabels(rated, people[x], people[y]));
      if (k.items)
        pairs.push({ a: people[x], b: people[y], items: k.items, kappa: k.kappa, observed: k.observed });
    }
  const withMachines: RatedItem[] = items.map((i) => ({
    id: i.id,
    ratings: {
      ...i.people,
      ...(i.judge !== undefined ? { [JUDGE]: i.judge } : {}),
      ...(i.rule !== undefined ? { [RULE]: i.rule } : {}),
    },
  }));
  for (const machine of [JUDGE, RULE])
    for (const p of people) {
      const k = cohenKappa(pairedLabels(withMachines, machine, p));
      if (k.items) pairs.push({ a: machine, b: p, items: k.items, kappa: k.kappa, observed: k.observed });
    }
  const labelled = items.filter(
    (i) => Object.keys(i.people).length || i.judge !== undefined || i.rule !== undefined,
  );
  return {
    items: labelled.length,
    alpha: krippendorffAlpha(rated).alpha,
    pairs,
    judge: against(items, 'judge'),
    rule: against(items, 'rule'),
  };
}

function groupBy(
  items: readonly AgreementItem[],
  key: (i: AgreementItem) => string | undefined,
): Record<string, AgreementFigures> {
  const groups = new Map<string, AgreementItem[]>();
  for (const i of items) {
    const k = key(i) ?? 'unknown';
    const g = groups.get(k);
    if (g) g.push(i);
    else groups.set(k, [i]);
  }
  return Object.fromEntries(
    [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([k, g]) => [k, agreementFigures(g)]),
  );
}

/** Overall figures, and the same per app and per task category ("unknown" where an item has none). */
export function agreementReport(items: readonly AgreementItem[]): AgreementReport {
  return {
    ...agreementFigures(items),
    byApp: groupBy(items, (i) => i.app),
    byCategory: groupBy(items, (i) => i.category),
  };
}
