// Sheets as OSWorld's later compare_table rules find them (sheet_print, sheet_fuzzy, sparkline, zoom,
// data_validation, row_props, col_props, filter). Upstream first turns a sheet index into a sheet NAME (an
// index past the end gives the name "", which no sheet has), then reads that sheet either through openpyxl
// (the workbook's relationships) or straight from the zip as `xl/worksheets/sheet<sheetId>.xml` (its
// read_cell_value and load_sparklines). Both ways are here, over the package parts xlsx-package.ts reads.
import { brief, sharedValue } from './inputs';
import { attr, kid, kids, XlsxPackage, type SheetEntry, type XlsxFiles } from './xlsx-package';

/** A sheet named by a rule's sheet index; `entry` is undefined when the workbook has no sheet of that name. */
export interface NamedSheet {
  side: 'result' | 'expected';
  /** The workbook file; undefined when the index names the expected workbook and there is none. */
  path?: string;
  pkg?: XlsxPackage;
  name: string;
  entry?: SheetEntry;
}

/** The package at `path`, opened once per grading. */
export function openPackage(path: string): Promise<XlsxPackage | string> {
  return sharedValue(`xlsx-package:${path}`, () => XlsxPackage.open(path));
}

/**
 * Resolves a sheet index as upstream's _parse_sheet_idx: an integer or `RI<n>` (result sheet at position n,
 * negative counting from the end as a Python list), `RN<name>` (result sheet by name, not checked), `EI<n>` /
 * `EN<name>` (expected workbook). Returns the reason only for an index upstream rejects or an unreadable file.
 */
export async function namedSheet(idx: unknown, files: XlsxFiles): Promise<NamedSheet | string> {
  let side: 'result' | 'expected';
  let pos: number | undefined;
  let name: string | undefined;
  if (typeof idx === 'number' && Number.isInteger(idx)) [side, pos] = ['result', idx];
  else if (typeof idx === 'string' && /^[RE]I/.test(idx)) {
    // int() of the rest; where it raises upstream takes the name "" (no sheet)
    const n = /^\s*-?\d+\s*$/.test(idx.slice(2)) ? Number(idx.slice(2)) : NaN;
    [side, pos] = [idx[0] === 'R' ? 'result' : 'expected', Number.isNaN(n) ? Number.MAX_SAFE_INTEGER : n];
  } else if (typeof idx === 'string' && /^[RE]N/.test(idx))
    [side, name] = [idx[0] === 'R' ? 'result' : 'expected', idx.slice(2)];
  else return `sheet index ${brief(idx)} is not n, RI<n>, RN<name>, EI<n> or EN<name> (OSWorld raises)`;
  const path = side === 'result' ? files.result : files.expected;
  if (path === undefined) return { side, name: '' };
  const pkg = await openPackage(path);
  if (typeof pkg === 'string') return pkg;
  const sheets = await pkg.sheets();
  if (pos !== undefined) name = sheets[pos < 0 ? sheets.length + pos : pos]?.name ?? '';
  const entry = sheets.find((s) => s.name === name);
  return { side, path, pkg, name: name ?? '', entry };
}

/** How a sheet is named in reasons. */
export function sheetTag(s: NamedSheet): string {
  return `${s.side} '${s.name}'`;
}

/** The worksheet's root element as openpyxl finds it (through the workbook's relationships). */
export async function worksheetRoot(s: NamedSheet): Promise<Element | undefined> {
  if (!s.pkg || !s.entry?.part) return undefined;
  return s.pkg.root(s.entry.part);
}

/** The worksheet read as upstream's zip readers do: `xl/worksheets/sheet<sheetId>.xml` of the sheet with
 * that name; undefined when the name or the part is missing (upstream raises KeyError there). */
export async function worksheetRootById(s: NamedSheet): Promise<Element | undefined> {
  if (!s.pkg) return undefined;
  const wb = await s.pkg.root('xl/workbook.xml');
  const sheet = kids(kid(wb, 'sheets'), 'sheet').find((e) => attr(e, 'name') === s.name);
  const id = attr(sheet, 'sheetId');
  return id === undefined ? undefined : s.pkg.root(`xl/worksheets/sheet${id}.xml`);
}

/** An xsd:boolean attribute as openpyxl's Bool descriptor reads it: 'false', 'f' and '0' are false, any
 * other text true; `dflt` when absent. */
export function pyBool<T>(el: Element | undefined, local: string, dflt: T): boolean | T {
  const v = attr(el, local);
  return v === undefined ? dflt : !['false', 'f', '0'].includes(v);
}

/** A number attribute as openpyxl reads it (Float / Integer), `dflt` when absent or not a number. */
export function pyNumber<T>(el: Element | undefined, local: string, dflt: T): number | T {
  const v = attr(el, local);
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isNaN(n) ? dflt : n;
}

/** Column letters of a 1-based column number: 1 → A, 28 → AB. */
export function columnLetters(n: number): string {
  let s = '';
  for (; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}
