#!/usr/bin/python3
# An independent reference for agreement.test.ts, written apart from agreement.ts and in another way:
# kappa from a contingency table; alpha from pairable values by counting every disagreeing pair
# (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability", D_o / D_e over pairs), not a coincidence
# matrix. Run once (`python3 src/main/annotate/testing/reference_agreement.py`); its output is pinned in the test.
import json
from fractions import Fraction
from itertools import combinations

def kappa(a, b):
    n = len(a)
    cats = sorted(set(a) | set(b))
    po = Fraction(sum(1 for x, y in zip(a, b) if x == y), n)
    pe = sum(Fraction(a.count(c), n) * Fraction(b.count(c), n) for c in cats)
    return float((po - pe) / (1 - pe))

def alpha(units):
    # units: list of lists of values (missing already left out)
    units = [u for u in units if len(u) >= 2]
    n = sum(len(u) for u in units)
    do = Fraction(0)
    for u in units:
        m = len(u)
        diff = sum(1 for i in range(m) for j in range(m) if i != j and u[i] != u[j])
        do += Fraction(diff, m - 1)
    do /= n
    values = [v for u in units for v in u]
    de = Fraction(sum(1 for i in range(n) for j in range(n) if i != j and values[i] != values[j]), n * (n - 1))
    return float(1 - do / de)

# Case 1: a small labelled set (yes/no/unsure), three people, some missing.
people = {
    'ann': ['yes', 'no', 'yes', 'unsure', 'no', 'yes', None, 'no', 'yes', 'yes'],
    'bob': ['yes', 'no', 'no', 'unsure', 'no', 'yes', 'yes', None, 'yes', 'no'],
    'cyd': [None, 'no', 'yes', 'yes', 'no', 'yes', 'yes', 'no', 'unsure', 'yes'],
}
out = {}
for p, q in combinations(sorted(people), 2):
    both = [(x, y) for x, y in zip(people[p], people[q]) if x is not None and y is not None]
    out[f'{p}-{q}'] = {'items': len(both), 'kappa': kappa([x for x, _ in both], [y for _, y in both])}
units = [[people[p][i] for p in sorted(people) if people[p][i] is not None] for i in range(10)]
out['alpha'] = alpha(units)
# Case 2: Krippendorff's own 4 observers x 12 units example (values 1..5, missing marked None).
k = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, None, None, None],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, None, 3],
    [None, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, None],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, None],
]
out['krippendorff_example_alpha'] = alpha([[str(r[i]) for r in k if r[i] is not None] for i in range(12)])
print(json.dumps(out, indent=1))
