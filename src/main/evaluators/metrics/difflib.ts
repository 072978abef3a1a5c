// Python's difflib.SequenceMatcher(None, a, b).ratio(), autojunk included: when b has 200 items or more, items
// that occur in more than 1% of b (plus one) are "popular" and start no match, though matches still grow over
// them. OSWorld's diff_text_file (and so compare_epub) compares lists of lines with it.

/** 2·M / (|a| + |b|), M the items of Python's matching blocks; 1 for two empty sequences. */
export function difflibRatio(a: readonly string[], b: readonly string[]): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const b2j = new Map<string, number[]>();
  for (const [j, x] of b.entries()) {
    const list = b2j.get(x);
    if (list) list.push(j);
    else b2j.set(x, [j]);
  }
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [x, idxs] of [...b2j]) if (idxs.length > ntest) b2j.delete(x);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let [besti, bestj, bestsize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    // no junk function: the match extends over equal neighbours, popular ones included
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1])
      [besti, bestj, bestsize] = [besti - 1, bestj - 1, bestsize + 1];
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize])
      bestsize++;
    return [besti, bestj, bestsize];
  };
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k === 0) continue;
    matched += k;
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  return (2 * matched) / total;
}

const separators = '\\x1c-\\x1e'; // file, group and record separators
const lineBreak = new RegExp(`\\r\\n|[\\n\\r\\v\\f${separators}\\x85\\u2028\\u2029]`);

/** Python's str.splitlines(). */
export function pySplitLines(s: string): string[] {
  const lines = s.split(lineBreak);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
