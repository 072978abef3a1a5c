// Agreement between raters on nominal labels: Cohen's kappa for a pair, Krippendorff's alpha (nominal) for any
// number of raters with missing labels. Pure functions over plain data; no store, no I/O.

/** One item and the label each rater gave it (a rater with no label is simply absent). */
export interface RatedItem {
  id: string;
  ratings: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
}

export interface KappaResult {
  /** Items both raters labelled. */
  items: number;
  /** Observed agreement (share of items with the same label). */
  observed: number;
  /** Agreement expected by chance from each rater's own label shares. */
  expected: number;
  /**
   * (observed − expected) / (1 − expected); null when there is no item or when chance agreement is already 1
   * (both raters used one and the same label throughout: kappa is undefined, not 1).
   */
  kappa: number | null;
}

/** Cohen's kappa over paired labels `[a's label, b's label]`. Categories neither rater used play no part. */
export function cohenKappa(pairs: readonly (readonly [string, string])[]): KappaResult {
  const n = pairs.length;
  if (n === 0) return { items: 0, observed: 0, expected: 0, kappa: null };
  const shareA = new Map<string, number>();
  const shareB = new Map<string, number>();
  let same = 0;
  for (const [a, b] of pairs) {
    if (a === b) same++;
    shareA.set(a, (shareA.get(a) ?? 0) + 1);
    shareB.set(b, (shareB.get(b) ?? 0) + 1);
  }
  const observed = same / n;
  let expected = 0;
  for (const [c, na] of shareA) expected += (na / n) * ((shareB.get(c) ?? 0) / n);
  const kappa = 1 - expected < 1e-12 ? null : (observed - expected) / (1 - expected);
  return { items: n, observed, expected, kappa };
}

const entriesOf = (r: RatedItem['ratings']): [string, string][] =>
  r instanceof Map
    ? [...(r as ReadonlyMap<string, string>).entries()]
    : Object.entries(r as Record<string, string>);

/** The labels raters `a` and `b` both gave, item by item. */
export function pairedLabels(items: readonly RatedItem[], a: string, b: string): [string, string][] {
  const out: [string, string][] = [];
  for (const item of items) {
    const r = new Map(entriesOf(item.ratings));
    const x = r.get(a);
    const y = r.get(b);
    if (x !== undefined && y !== undefined) out.push([x, y]);
  }
  return out;
}

export interface AlphaResult {
  /** Items with two or more labels (the others carry no information on agreement). */
  items: number;
  /** Labels counted (those of the pairable items). */
  values: number;
  /** 1 − observed / expected disagreement; null when fewer than two labels are pairable or all are one category. */
  alpha: number | null;
}

/**
 * Krippendorff's alpha for nominal data, with missing labels: from the coincidence matrix, each item with m ≥ 2
 * labels adds 1/(m − 1) for every ordered pair of its labels from different raters.
 */
export function krippendorffAlpha(items: readonly RatedItem[]): AlphaResult {
  const coincidence = new Map<string, Map<string, number>>();
  const add = (c: string, k: string, w: number) => {
    let row = coincidence.get(c);
    if (!row) coincidence.set(c, (row = new Map()));
    row.set(k, (row.get(k) ?? 0) + w);
  };
  let units = 0;
  for (const item of items) {
    const labels = entriesOf(item.ratings).map(([, v]) => v);
    const m = labels.length;
    if (m < 2) continue;
    units++;
    for (let i = 0; i < m; i++)
      for (let j = 0; j < m; j++) if (i !== j) add(labels[i], labels[j], 1 / (m - 1));
  }
  const totals = new Map<string, number>();
  let n = 0;
  let disagreeing = 0;
  for (const [c, row] of coincidence)
    for (const [k, w] of row) {
      totals.set(c, (totals.get(c) ?? 0) + w);
      n += w;
      if (c !== k) disagreeing += w;
    }
  n = Math.round(n * 1e9) / 1e9;
  if (n < 2) return { items: units, values: n, alpha: null };
  let expectedPairs = 0;
  for (const [c, nc] of totals) for (const [k, nk] of totals) if (c !== k) expectedPairs += nc * nk;
  if (expectedPairs === 0) return { items: units, values: n, alpha: null };
  return { items: units, values: n, alpha: 1 - ((n - 1) * disagreeing) / expectedPairs };
}
