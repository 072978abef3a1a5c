// compare_table's `pivot_table` rule: the pivot tables placed on a worksheet, read from the xlsx package's
// pivotTable parts (linked from the sheet) and their pivotCacheDefinition parts (the source range).
import { stringList } from './inputs';
import {
  attr,
  boolAttr,
  compareSheetObjects,
  intAttr,
  kid,
  kids,
  type PickedSheet,
  type XlsxFiles,
  type XlsxPackage,
} from './xlsx-package';

/** The entries a `pivot_table` rule may list in `pivot_props`: compared properties, then modifiers. */
export const pivotProps = [
  'name',
  'show_total',
  'show_empty_row',
  'show_empty_col',
  'show_headers',
  'location',
  'selection',
  'filter',
  'col_fields',
  'row_fields',
  'data_fields',
] as const;
export const pivotModifiers = ['ordered', 'data_fields_name', 'ignore_special_fields'] as const;

/** A pivot table as the rule compares it: its source key and the asked-for properties. */
export interface SheetPivot {
  /** `<cache source type>;<sheet>!<range>` with the range trimmed as described at `pivotTableRule`. */
  key: string;
  props: Record<string, unknown>;
}

/** `A`→1, `AB`→28. */
function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

function columnLetters(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s || '?';
}

/** The source key: the cache source type and the worksheet range, its first column moved right by `left`
 * fields and its last column left by `right` fields. A named source keeps its name unchanged. */
function sourceKey(cacheDef: Element | undefined, left: number, right: number): string {
  const src = kid(cacheDef, 'cacheSource');
  const type = attr(src, 'type') ?? 'worksheet';
  const ws = kid(src, 'worksheetSource');
  if (!ws) return `${type};?`;
  const sheet = attr(ws, 'sheet') ?? '';
  const ref = attr(ws, 'ref');
  if (!ref) return `${type};${attr(ws, 'name') !== undefined ? `name=${attr(ws, 'name')}` : `${sheet}!?`}`;
  const [from, to = from] = ref.replace(/\$/g, '').split(':');
  const cell = (c: string, shift: number) => {
    const m = /^([A-Za-z]+)(\d+)$/.exec(c);
    return m ? `${columnLetters(columnNumber(m[1]) + shift)}${m[2]}` : c;
  };
  return `${type};${sheet}!${cell(from, left)}:${cell(to, -right)}`;
}

/** A field's chosen items: `[x, hidden]` for each `<item x=…>` (subtotal items have no `x`). */
function fieldItems(field: Element): Array<[number, boolean]> {
  return kids(kid(field, 'items'), 'item')
    .filter((i) => attr(i, 'x') !== undefined)
    .map((i) => [intAttr(i, 'x', -1) as number, boolAttr(i, 'h', false)]);
}

const byJson = (x: unknown, y: unknown) =>
  JSON.stringify(x) < JSON.stringify(y) ? -1 : JSON.stringify(x) > JSON.stringify(y) ? 1 : 0;

function describe(def: Element, cacheDef: Element | undefined, props: Set<string>): SheetPivot {
  const fields = kids(kid(def, 'pivotFields'), 'pivotField').map(fieldItems);
  let left = fields.findIndex((f) => f.length > 0);
  let right = fields.length - 1 - fields.findLastIndex((f) => f.length > 0);
  if (left < 0) [left, right] = [0, 0];
  const selection = fields.slice(left, fields.length - right);
  const shift = (x: number | null) => (x === null ? null : x >= 0 ? x - left : x);
  const axisFields = (local: string) => {
    const xs = kids(kid(def, local), 'field').map((f) => shift(intAttr(f, 'x')));
    return props.has('ignore_special_fields') ? xs.filter((x) => x !== null && x >= 0) : xs;
  };
  const location = kid(def, 'location');
  const out: Record<string, unknown> = {};
  if (props.has('name')) out.name = attr(def, 'name') ?? null;
  if (props.has('show_total')) out.show_total = boolAttr(def, 'visualTotals', true);
  if (props.has('show_empty_row')) out.show_empty_row = boolAttr(def, 'showEmptyRow', false);
  if (props.has('show_empty_col')) out.show_empty_col = boolAttr(def, 'showEmptyCol', false);
  if (props.has('show_headers')) out.show_headers = boolAttr(def, 'showHeaders', true);
  if (props.has('location')) {
    out.location = location
      ? {
          ref: attr(location, 'ref') ?? null,
          firstHeaderRow: intAttr(location, 'firstHeaderRow'),
          firstDataRow: intAttr(location, 'firstDataRow'),
          firstDataCol: intAttr(location, 'firstDataCol'),
          rowPageCount: intAttr(location, 'rowPageCount', 0),
          colPageCount: intAttr(location, 'colPageCount', 0),
        }
      : null;
  }
  if (props.has('filter') || props.has('selection')) {
    out.selection = props.has('ordered') ? selection : selection.map((items) => [...items].sort(byJson));
  }
  if (props.has('filter')) {
    const pages = kids(kid(def, 'pageFields'), 'pageField').map((p) => shift(intAttr(p, 'fld')));
    out.filter_fields = [...new Set(pages)].sort(byJson);
  }
  if (props.has('col_fields')) out.col_fields = axisFields('colFields');
  if (props.has('row_fields')) out.row_fields = axisFields('rowFields');
  if (props.has('data_fields')) {
    out.data_fields = kids(kid(def, 'dataFields'), 'dataField').map((d) => ({
      field: shift(intAttr(d, 'fld')),
      ...(props.has('data_fields_name') ? { name: attr(d, 'name') ?? null } : {}),
      subtotal: attr(d, 'subtotal') ?? 'sum',
      showDataAs: attr(d, 'showDataAs') ?? 'normal',
    }));
  }
  return { key: sourceKey(cacheDef, left, right), props: out };
}

/** The cache definition of a pivot table: through the pivot table part's relationship, else through the
 * workbook's `<pivotCache cacheId>` list. */
async function cacheDefinition(
  pkg: XlsxPackage,
  pivotPart: string,
  def: Element,
): Promise<Element | undefined> {
  const direct = (await pkg.rels(pivotPart)).find((r) => r.kind === 'pivotCacheDefinition' && !r.external);
  if (direct) return pkg.root(direct.target);
  const cache = kids(kid(await pkg.root('xl/workbook.xml'), 'pivotCaches'), 'pivotCache').find(
    (c) => attr(c, 'cacheId') === attr(def, 'cacheId'),
  );
  const rel = (await pkg.rels('xl/workbook.xml')).find((r) => r.id === attr(cache, 'id') && !r.external);
  return rel ? pkg.root(rel.target) : undefined;
}

/** The pivot tables placed on a worksheet, in the order the sheet's relationships list them. */
export async function loadSheetPivots(picked: PickedSheet, props: Set<string>): Promise<SheetPivot[]> {
  const { pkg, sheet } = picked;
  if (!sheet.part) return [];
  const out: SheetPivot[] = [];
  for (const rel of (await pkg.rels(sheet.part)).filter((r) => r.kind === 'pivotTable' && !r.external)) {
    const def = await pkg.root(rel.target);
    if (!def) continue;
    out.push(describe(def, await cacheDefinition(pkg, rel.target, def), props));
  }
  return out;
}

/**
 * compare_table rule `pivot_table {sheet_idx0, sheet_idx1, pivot_props}` — the two sheets carry the same
 * pivot tables.
 *
 * As upstream (OSWorld/Spider2-V `load_pivot_tables`), each pivot table is identified by its source: the
 * cache source type and worksheet range. Fields are numbered by source column; leading and trailing fields
 * that have no items (typically unused or data-only columns at the edges of a wider selection) are trimmed
 * from the range and from the field numbers, so `Sheet1!A1:F9` with an untouched column F keys as
 * `Sheet1!A1:E9`. The sheets must hold the same set of sources, and for each the same `pivot_props`:
 * - `row_fields`, `col_fields`: the axis fields' numbers in order (`-2` is the Σ Values pseudo-field; with
 *   the modifier `ignore_special_fields` such negative entries are dropped);
 * - `data_fields`: `{field, subtotal (sum when unset), showDataAs (normal when unset)}` per data field in
 *   order, plus `name` with the modifier `data_fields_name`;
 * - `filter`: `filter_fields` (the page fields' numbers, as a set) and `selection` (below);
 * - `selection`: per field in the trimmed range its items `[x, hidden]`, as a set (a list with the
 *   modifier `ordered`);
 * - `name`, `show_total` (visualTotals), `show_empty_row`, `show_empty_col`, `show_headers`, `location`
 *   (`{ref, firstHeaderRow, firstDataRow, firstDataCol, rowPageCount, colPageCount}`).
 *
 * Choices where upstream is ambiguous or accidental: an item's hidden flag is a boolean (absent = false;
 * upstream told `h="0"` from no `h`); page-field numbers are trimmed like the others (upstream left them
 * raw) and the Σ Values pseudo-field `-2` is never shifted (upstream shifted it); when no field has items
 * nothing is trimmed; a source given by a defined name keys by that name; a sheet index that names no sheet
 * fails the rule; an unknown `pivot_props` entry fails the rule. Two pivot tables over the same source on
 * one sheet collapse into one, as upstream.
 */
export function pivotTableRule(rule: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  return compareSheetObjects(rule, files, {
    props: stringList(rule.pivot_props),
    propsName: 'pivot_props',
    known: [...pivotProps, ...pivotModifiers],
    noun: 'pivot table',
    load: loadSheetPivots,
  });
}
