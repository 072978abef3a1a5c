// The known name a mistyped one most likely meant: the closest by edit distance (a swap of two neighbouring
// letters is one edit, as typists make it), when it is near enough to be a typo: at most a third of the longer
// name's letters, one edit always allowed; leading dashes are not letters. Else undefined, so an unrelated name
// is never offered as the fix ('--bogus' is not a typo of '--logs').

/** Edits between `a` and `b`: insertions, deletions, substitutions and swaps of neighbours (optimal alignment). */
export function typoDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, rows[i - 2][j - 2] + 1);
      row.push(d);
    }
    rows.push(row);
  }
  return rows[a.length][b.length];
}

const letters = (name: string) => name.replace(/^-+/, '');

export function nearestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = typoDistance(letters(name), letters(k));
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  if (best === undefined) return undefined;
  const limit = Math.max(1, Math.floor(Math.max(letters(name).length, letters(best).length) / 3));
  return bestDistance <= limit ? best : undefined;
}
