// Agreement maths against hand-computed textbook cases and against pinned results of an independent reference
// (testing/reference_agreement.py, run once with /usr/bin/python3; its output is copied below).
import { describe, expect, it } from 'vitest';
import { cohenKappa, krippendorffAlpha, pairedLabels, type RatedItem } from './agreement';
import { agreementReport } from './figures';

const repeat = (pair: [string, string], n: number): [string, string][] =>
  Array.from({ length: n }, () => pair);

describe("Cohen's kappa", () => {
  // Textbook (Wikipedia "Cohen's kappa", first example): 50 items; yes/yes 20, yes/no 5, no/yes 10, no/no 15.
  // p_o = 35/50 = 0.7; p_e = 25/50·30/50 + 25/50·20/50 = 0.5; kappa = (0.7 − 0.5)/(1 − 0.5) = 0.4.
  const table = [
    ...repeat(['yes', 'yes'], 20),
    ...repeat(['yes', 'no'], 5),
    ...repeat(['no', 'yes'], 10),
    ...repeat(['no', 'no'], 15),
  ];

  it('is 0.4 on the two-category textbook table', () => {
    const k = cohenKappa(table);
    expect(k.items).toBe(50);
    expect(k.observed).toBeCloseTo(0.7, 12);
    expect(k.expected).toBeCloseTo(0.5, 12);
    expect(k.kappa).toBeCloseTo(0.4, 12);
  });

  it('is unchanged when a third category (unsure) exists but neither rater used it', () => {
    // The unused category adds 0·0 to p_e and nothing to p_o: still 0.4.
    expect(cohenKappa(table).kappa).toBeCloseTo(0.4, 12);
    // b using it once (a no/no item becomes no/unsure): p_o = 34/50, p_e = 25·30/2500 + 25·19/2500 = 0.49.
    const withUnsure = [...table.slice(0, 49), ['no', 'unsure'] as [string, string]];
    expect(cohenKappa(withUnsure).kappa).toBeCloseTo((0.68 - 0.49) / (1 - 0.49), 12);
  });

  it('is 1 for perfect agreement, negative below chance, and undefined when both use one label only', () => {
    expect(
      cohenKappa([
        ['yes', 'yes'],
        ['no', 'no'],
      ]).kappa,
    ).toBe(1);
    expect(
      cohenKappa([
        ['yes', 'no'],
        ['no', 'yes'],
      ]).kappa,
    ).toBeCloseTo(-1, 12);
    expect(
      cohenKappa([
        ['yes', 'yes'],
        ['yes', 'yes'],
      ]).kappa,
    ).toBeNull();
    expect(cohenKappa([]).kappa).toBeNull();
  });
});

describe("Krippendorff's alpha (nominal)", () => {
  it("is 0.743 on Krippendorff's 4 observers × 12 units example with missing values", () => {
    // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: nominal alpha = 0.743.
    const rows = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    ];
    const items: RatedItem[] = rows[0].map((_, u) => ({
      id: String(u),
      ratings: Object.fromEntries(rows.flatMap((r, o) => (r[u] === null ? [] : [[`o${o}`, String(r[u])]]))),
    }));
    const a = krippendorffAlpha(items);
    expect(a.items).toBe(11); // unit 12 has one value only
    expect(a.values).toBe(40);
    expect(a.alpha).toBeCloseTo(0.743421052631579, 12); // reference script, exact fraction 1 − … = 0.7434…
    expect(Number(a.alpha!.toFixed(3))).toBe(0.743);
  });

  it('hand case: two raters, one missing label, one disagreement', () => {
    // Units: (a,a) (a,b) (b,b) (a,–). Pairable values n = 6: a ×3, b ×3. Coincidences: o_ab = o_ba = 1.
    // alpha = 1 − (n − 1)·(o_ab + o_ba)/(n_a·n_b + n_b·n_a) = 1 − 5·2/18 = 4/9.
    const items: RatedItem[] = [
      { id: '1', ratings: { x: 'a', y: 'a' } },
      { id: '2', ratings: { x: 'a', y: 'b' } },
      { id: '3', ratings: { x: 'b', y: 'b' } },
      { id: '4', ratings: { x: 'a' } },
    ];
    expect(krippendorffAlpha(items).alpha).toBeCloseTo(4 / 9, 12);
  });

  it('is undefined with fewer than two pairable labels or a single category', () => {
    expect(krippendorffAlpha([{ id: '1', ratings: { x: 'a' } }]).alpha).toBeNull();
    expect(krippendorffAlpha([{ id: '1', ratings: { x: 'a', y: 'a' } }]).alpha).toBeNull();
  });
});

describe('agreement report against the pinned reference', () => {
  // testing/reference_agreement.py case 1 (kappa from a contingency table, alpha by counting pairs):
  //   ann-bob 8 items kappa 0.6; ann-cyd 8 items 0.5789473684210527; bob-cyd 8 items 0.2; alpha 0.5094339622641509
  const people = {
    ann: ['yes', 'no', 'yes', 'unsure', 'no', 'yes', null, 'no', 'yes', 'yes'],
    bob: ['yes', 'no', 'no', 'unsure', 'no', 'yes', 'yes', null, 'yes', 'no'],
    cyd: [null, 'no', 'yes', 'yes', 'no', 'yes', 'yes', 'no', 'unsure', 'yes'],
  } as const;
  const items = Array.from({ length: 10 }, (_, i) => ({
    id: `t${i}`,
    app: i < 5 ? 'dbt' : 'airflow',
    people: Object.fromEntries(
      Object.entries(people).flatMap(([p, v]) => (v[i] === null ? [] : [[p, v[i] as string]])),
    ),
    rule: i % 2 === 0 ? 'yes' : 'no',
  }));

  it('matches the reference pairwise kappas and alpha', () => {
    const r = agreementReport(items);
    const pair = (a: string, b: string) => r.pairs.find((p) => p.a === a && p.b === b)!;
    expect(pair('ann', 'bob')).toMatchObject({ items: 8 });
    expect(pair('ann', 'bob').kappa).toBeCloseTo(0.6, 12);
    expect(pair('ann', 'cyd').kappa).toBeCloseTo(0.5789473684210527, 12);
    expect(pair('bob', 'cyd').kappa).toBeCloseTo(0.2, 12);
    expect(r.alpha).toBeCloseTo(0.5094339622641509, 12);
  });

  it('adds rule-vs-person pairs and splits by app', () => {
    const r = agreementReport(items);
    expect(r.pairs.filter((p) => p.a === 'rule').map((p) => p.b)).toEqual(['ann', 'bob', 'cyd']);
    expect(r.rule.items).toBe(27); // 9 labels from each of three people
    expect(Object.keys(r.byApp)).toEqual(['airflow', 'dbt']);
    expect(Object.keys(r.byCategory)).toEqual(['unknown']);
    expect(r.byApp.dbt.items).toBe(5);
    const rated = items.map((i) => ({ id: i.id, ratings: i.people }));
    expect(pairedLabels(rated, 'ann', 'bob')).toHaveLength(8);
  });
});
