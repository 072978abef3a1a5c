// Python re's IGNORECASE equivalence classes: characters that match one another under (?i), built from simple
// lower- and upper-case mappings (as sre's lower/upper tables and its case fixes: s ~ ſ, k ~ K (Kelvin), σ ~ ς).

let classes: Map<number, number[]> | undefined;

/** The single code point a case mapping gives, or undefined when it gives several (ß → SS). */
function single(s: string): number | undefined {
  const cp = s.codePointAt(0);
  return cp !== undefined && String.fromCodePoint(cp).length === s.length ? cp : undefined;
}

function build(): Map<number, number[]> {
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let r = x;
    while (parent.has(r) && parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  const union = (a: number, b: number) => {
    const [ra, rb] = [find(a), find(b)];
    if (ra !== rb) parent.set(ra, rb);
  };
  for (let cp = 0; cp < 0x20000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const ch = String.fromCodePoint(cp);
    // Python folds with the simple lower-case mapping: U+0130 (İ) lowers to 'i', where the full mapping gives 'i̇'
    const lower = ch.toLowerCase();
    const lo = single(lower) ?? (cp === 0x130 ? lower.codePointAt(0) : undefined);
    const up = single(ch.toUpperCase());
    if (lo !== undefined && lo !== cp) union(cp, lo);
    if (up !== undefined && up !== cp) union(cp, up);
  }
  const groups = new Map<number, number[]>();
  for (const cp of parent.keys()) {
    const r = find(cp);
    const g = groups.get(r) ?? [];
    g.push(cp);
    groups.set(r, g);
  }
  const out = new Map<number, number[]>();
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    g.sort((a, b) => a - b);
    for (const cp of g) out.set(cp, g);
  }
  return out;
}

/** The characters `cp` matches under IGNORECASE (itself included); `ascii` limits folding to A-Z / a-z. */
export function caseVariants(cp: number, ascii: boolean): number[] {
  if (ascii) {
    if (cp >= 0x41 && cp <= 0x5a) return [cp, cp + 32];
    if (cp >= 0x61 && cp <= 0x7a) return [cp - 32, cp];
    return [cp];
  }
  classes ??= build();
  return classes.get(cp) ?? [cp];
}

/** Every cased character with variants (for closing large ranges). */
export function casedCharacters(): Iterable<number> {
  classes ??= build();
  return classes.keys();
}
