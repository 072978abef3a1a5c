// compare_table's sheet_print and sheet_fuzzy rules (OSWorld table.py). sheet_print compares sheets as Calc
// printed them: the CSV a task's postconfig writes beside each workbook (`libreoffice --convert-to csv:…` on
// the guest gives `<book>-<Sheet>.csv`), line by line. sheet_fuzzy compares cell texts as upstream's
// read_cell_value reads them from the sheet XML (numbers as Python floats: `5.0`).
import { readBytes } from './inputs';
import { floatRepr } from '../python/value';
import { pySplitLines } from './difflib';
import { pyStrip as pythonStrip } from './python-text';
import { attr, descendants, kid, kids, type XlsxFiles } from './xlsx-package';
import { columnLetters, namedSheet, sheetTag, worksheetRootById, type NamedSheet } from './xlsx-sheets';
import { CellRanges } from './xlsx-validation';

/** `<book without extension>-<sheet name>.csv`, as upstream's _load_sheet names the printed sheet. */
export function printedSheetPath(book: string, sheet: string): string {
  const slash = book.lastIndexOf('/');
  const dot = book.lastIndexOf('.');
  const stem = dot > slash + 1 ? book.slice(0, dot) : book;
  return `${stem}-${sheet}.csv`;
}

/** Python's str.strip() (python-text.ts). */
export const pyStrip = pythonStrip;

/** The CSV's text as upstream's _safe_read_file reads it: UTF-8 (a byte-order mark kept as a character), else Latin-1. */
function decodeCsv(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return bytes.toString('latin1');
  }
}

/** The printed sheet's lines as upstream keeps them: each stripped, trailing empty lines dropped. */
async function printedLines(s: NamedSheet): Promise<string[] | string> {
  if (s.path === undefined) return `${sheetTag(s)}: there is no expected workbook (OSWorld raises)`;
  const csv = printedSheetPath(s.path, s.name);
  const bytes = await readBytes(csv);
  if (bytes === undefined)
    return `${sheetTag(s)}: no printed sheet ${csv} (the task's postconfig writes it with LibreOffice)`;
  const lines = pySplitLines(decodeCsv(bytes)).map(pyStrip);
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * sheet_print `{sheet_idx0, sheet_idx1, ignore_case?}` — the two sheets' printed CSV files hold the same
 * lines (each trimmed; trailing blank lines ignored; lower-cased with `ignore_case`). The CSV text is
 * compared as text, not parsed. A missing result CSV fails the rule, as upstream.
 */
export async function sheetPrintRule(r: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  const s0 = await namedSheet(r.sheet_idx0, files);
  if (typeof s0 === 'string') return s0;
  const s1 = await namedSheet(r.sheet_idx1, files);
  if (typeof s1 === 'string') return s1;
  let a = await printedLines(s0);
  if (typeof a === 'string') return a;
  let b = await printedLines(s1);
  if (typeof b === 'string') return b;
  if (r.ignore_case) [a, b] = [a.map((l) => l.toLowerCase()), b.map((l) => l.toLowerCase())];
  if (a.length !== b.length) return `${sheetTag(s0)} prints ${a.length} lines, ${sheetTag(s1)} ${b.length}`;
  for (let i = 0; i < a.length; i++)
    if (a[i] !== b[i]) return `printed line ${i + 1} differs: '${a[i]}' vs '${b[i]}'`;
  return true;
}

/** Cell values of one sheet as upstream's read_cell_value gives them (by coordinate); null where it gives None. */
export interface CellReader {
  (coordinate: string): string | number | null | { raises: string };
}

const sheetCells = new WeakMap<Element, Map<string, Element>>();

/** Shared strings as upstream joins them: every `<t>` under each `<si>`; one empty `<t/>` loses them all. */
async function sharedStrings(s: NamedSheet): Promise<string[]> {
  const root = s.pkg ? await s.pkg.root('xl/sharedStrings.xml').catch(() => undefined) : undefined;
  const out: string[] = [];
  for (const si of kids(root, 'si')) {
    const ts = descendants(si, 't');
    if (ts.some((t) => !t.firstChild)) return [];
    out.push(ts.map((t) => t.textContent ?? '').join(''));
  }
  return out;
}

/** A reader of the sheet's cells (upstream reads `xl/worksheets/sheet<sheetId>.xml`). */
export async function cellReader(s: NamedSheet): Promise<CellReader> {
  const root = await worksheetRootById(s).catch(() => undefined);
  if (!root) return () => null;
  let cells = sheetCells.get(root);
  if (!cells) {
    cells = new Map();
    for (const row of kids(kid(root, 'sheetData'), 'row')) {
      for (const c of kids(row, 'c')) {
        const r = attr(c, 'r');
        if (r !== undefined && !cells.has(r)) cells.set(r, c);
      }
    }
    sheetCells.set(root, cells);
  }
  const strings = await sharedStrings(s);
  const found = cells;
  return (coordinate) => {
    const c = found.get(coordinate);
    if (!c) return null;
    const t = attr(c, 't');
    const v = kid(c, 'v');
    const vText = v?.firstChild ? (v.textContent ?? '') : undefined;
    if (t === undefined || t === 'n') {
      if (vText === undefined) return null;
      const n = Number(vText.trim());
      return vText.trim() === '' || Number.isNaN(n) ? null : n;
    }
    if (t === 's') {
      if (vText === undefined) return null;
      const i = Number(vText);
      if (!Number.isInteger(i)) return null;
      return i >= 0 && i < strings.length
        ? strings[i]
        : { raises: `shared string ${i} does not exist (IndexError)` };
    }
    if (t === 'str' || t === 'e') return vText ?? null;
    if (t === 'inlineStr') {
      const tt = kid(c, 'is', 't');
      return tt ? (tt.firstChild ? (tt.textContent ?? '') : null) : null;
    }
    return null;
  };
}

/** Python's str() of what read_cell_value returns. */
function pyStr(v: string | number | null): string {
  return v === null ? 'None' : typeof v === 'number' ? floatRepr(v) : v;
}

/** The cells of ranges like `A1:B6` (or `A1`), row by row (each once); the reason when one is not a range. */
export function rangeCells(ranges: string[]): string[] | string {
  const parsed = CellRanges.parse(ranges.join(' '));
  if (typeof parsed === 'string') return parsed;
  const out = new Set<string>();
  for (const b of parsed.boxes) {
    for (let r = b.r0; r <= b.r1; r++) for (let c = b.c0; c <= b.c1; c++) out.add(`${columnLetters(c)}${r}`);
  }
  return [...out];
}

/** rapidfuzz's fuzz.ratio: 100 · 2·LCS / (len a + len b) over code points; 100 for two empty strings. */
export function fuzzRatio(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  if (!x.length && !y.length) return 100;
  let prev = new Array<number>(y.length + 1).fill(0);
  for (let i = 1; i <= x.length; i++) {
    const cur = new Array<number>(y.length + 1).fill(0);
    for (let j = 1; j <= y.length; j++)
      cur[j] = x[i - 1] === y[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    prev = cur;
  }
  return (200 * prev[y.length]) / (x.length + y.length);
}

const stripChars = (s: string, chars: string, left: boolean): string => {
  const set = new Set(Array.from(chars));
  const cs = Array.from(s);
  if (left) {
    let i = 0;
    while (i < cs.length && set.has(cs[i])) i++;
    return cs.slice(i).join('');
  }
  let j = cs.length;
  while (j > 0 && set.has(cs[j - 1])) j--;
  return cs.slice(0, j).join('');
};

/** One cell pair's texts normalised as a sheet_fuzzy sub-rule says, in upstream's order. */
function normalise(v: string, rl: Record<string, unknown>): string {
  for (const pair of Array.isArray(rl.normalization) ? rl.normalization : []) {
    if (Array.isArray(pair) && pair.length >= 2) v = v.split(String(pair[0])).join(String(pair[1]));
  }
  if (typeof rl.trim_leadings === 'string') v = stripChars(v, rl.trim_leadings, true);
  if (typeof rl.trim_trailings === 'string') v = stripChars(v, rl.trim_trailings, false);
  if (typeof rl.ignore_chars === 'string') {
    const drop = new Set(Array.from(rl.ignore_chars));
    v = Array.from(v)
      .filter((ch) => !drop.has(ch))
      .join('');
  }
  if (rl.ignore_case) v = v.toLowerCase();
  return v;
}

/**
 * sheet_fuzzy `{sheet_idx0, sheet_idx1, rules: [{range: [..], type, threshold?, ignore_case?, ignore_chars?,
 * trim_leadings?, trim_trailings?, normalization?: [[from, to]]}]}` — for every cell of every range, the two
 * sheets' cell texts as upstream reads them from the sheet XML (an empty cell, a boolean or a missing sheet
 * reads "None", a number or a date as a Python float, "5.0" / "45000.0"; formulas by their cached value) after
 * normalisation (replacements, then trims, dropped characters, case), must satisfy the sub-rule's `type`:
 * `includes` (the first contains the second), `included_by`, `fuzzy_match` (rapidfuzz ratio ≥ threshold,
 * default 85) or `exact_match`.
 */
export async function sheetFuzzyRule(r: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  const s0 = await namedSheet(r.sheet_idx0, files);
  if (typeof s0 === 'string') return s0;
  const s1 = await namedSheet(r.sheet_idx1, files);
  if (typeof s1 === 'string') return s1;
  for (const s of [s0, s1])
    if (s.path === undefined) return `${sheetTag(s)}: there is no expected workbook (OSWorld raises)`;
  const read0 = await cellReader(s0);
  const read1 = await cellReader(s1);
  const subRules = Array.isArray(r.rules) ? r.rules : [];
  for (const [n, rl] of subRules.entries()) {
    if (typeof rl !== 'object' || rl === null) return `rules[${n}] is not an object`;
    const sub = rl as Record<string, unknown>;
    const ranges = Array.isArray(sub.range)
      ? sub.range.map(String)
      : typeof sub.range === 'string'
        ? [sub.range]
        : [];
    const cells = rangeCells(ranges);
    if (typeof cells === 'string') return `rules[${n}].range: ${cells}`;
    for (const coordinate of cells) {
      const raw0 = read0(coordinate);
      const raw1 = read1(coordinate);
      for (const raw of [raw0, raw1])
        if (raw !== null && typeof raw === 'object') return `${coordinate}: ${raw.raises} (OSWorld raises)`;
      const v0 = normalise(pyStr(raw0 as string | number | null), sub);
      const v1 = normalise(pyStr(raw1 as string | number | null), sub);
      let ok: boolean;
      if (sub.type === 'includes') ok = v0.includes(v1);
      else if (sub.type === 'included_by') ok = v1.includes(v0);
      else if (sub.type === 'fuzzy_match')
        ok = fuzzRatio(v0, v1) >= (typeof sub.threshold === 'number' ? sub.threshold : 85);
      else if (sub.type === 'exact_match') ok = v0 === v1;
      else return `rules[${n}]: unknown match type '${String(sub.type)}' (OSWorld raises)`;
      if (!ok)
        return `${coordinate}: '${v0}' (${sheetTag(s0)}) and '${v1}' (${sheetTag(s1)}) fail ${String(sub.type)}${sub.type === 'fuzzy_match' ? ` (ratio ${fuzzRatio(v0, v1).toFixed(1)})` : ''}`;
    }
  }
  return true;
}
