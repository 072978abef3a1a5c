// compare_table's row_props, col_props and zoom rules (OSWorld table.py with utils.load_rows_or_cols): rows
// and columns as openpyxl's row_dimensions / column_dimensions hold them after load_workbook, the zoom of
// the sheet's first view.
import { isDeepStrictEqual } from 'node:util';
import { brief } from './inputs';
import { attr, kid, kids, type XlsxFiles } from './xlsx-package';
import {
  columnLetters,
  namedSheet,
  pyBool,
  pyNumber,
  sheetTag,
  worksheetRoot,
  type NamedSheet,
} from './xlsx-sheets';
import { matchValueRule } from './xlsx-validation';

type Props = Record<string, unknown>;
type Reader = (el: Element) => unknown;

/** RowDimension attributes a rule may name (openpyxl's names and aliases), with openpyxl's defaults. */
const rowProps: Record<string, Reader> = {
  hidden: (el) => pyBool(el, 'hidden', false),
  collapsed: (el) => pyBool(el, 'collapsed', false),
  height: (el) => pyNumber(el, 'ht', null),
  ht: (el) => pyNumber(el, 'ht', null),
  customHeight: (el) => pyNumber(el, 'ht', null) !== null,
  customFormat: (el) => (attr(el, 's') ?? '0') !== '0',
  outlineLevel: (el) => pyNumber(el, 'outlineLevel', 0),
  outline_level: (el) => pyNumber(el, 'outlineLevel', 0),
  thickBot: (el) => pyBool(el, 'thickBot', null),
  thickTop: (el) => pyBool(el, 'thickTop', null),
};

/** ColumnDimension attributes (openpyxl's names and aliases), with openpyxl's defaults (width 13). */
const colProps: Record<string, Reader> = {
  width: (el) => pyNumber(el, 'width', 13),
  customWidth: () => true, // openpyxl: `width is not None`, and width is never None
  bestFit: (el) => pyBool(el, 'bestFit', false),
  auto_size: (el) => pyBool(el, 'bestFit', false),
  hidden: (el) => pyBool(el, 'hidden', false),
  collapsed: (el) => pyBool(el, 'collapsed', false),
  min: (el) => pyNumber(el, 'min', null),
  max: (el) => pyNumber(el, 'max', null),
  outlineLevel: (el) => pyNumber(el, 'outlineLevel', 0),
  outline_level: (el) => pyNumber(el, 'outlineLevel', 0),
};

/** Whether openpyxl keeps a row dimension: the row has an attribute other than r, spans and namespaced ones. */
function hasRowInfo(row: Element): boolean {
  for (let i = 0; i < row.attributes.length; i++) {
    const a = row.attributes[i];
    if (a.name.includes(':') || a.name === 'xmlns') continue;
    if (a.name !== 'r' && a.name !== 'spans') return true;
  }
  return false;
}

/** The rows (by number) or columns (by letter of `min`) openpyxl loads, each with the named props; {} when
 * the sheet does not exist (upstream's KeyError is caught). */
async function dimensions(
  s: NamedSheet,
  obj: 'row' | 'column',
  props: string[],
): Promise<Map<string, Props> | string> {
  const table = obj === 'row' ? rowProps : colProps;
  const unknown = props.filter((p) => !(p in table));
  if (unknown.length)
    return `unknown ${obj} propert${unknown.length > 1 ? 'ies' : 'y'} ${unknown.join(', ')} (OSWorld raises; known: ${Object.keys(table).join(', ')})`;
  if (s.path === undefined) return `${sheetTag(s)}: there is no expected workbook (OSWorld raises)`;
  const root = await worksheetRoot(s);
  const out = new Map<string, Props>();
  if (!root) return out;
  const info = (el: Element) => Object.fromEntries(props.map((p) => [p, table[p](el)]));
  if (obj === 'row') {
    let counter = 0;
    for (const row of kids(kid(root, 'sheetData'), 'row')) {
      const r = pyNumber(row, 'r', null);
      counter = r ?? counter + 1;
      if (hasRowInfo(row)) out.set(String(counter), info(row));
    }
  } else {
    for (const col of kids(kid(root, 'cols'), 'col')) {
      const min = pyNumber(col, 'min', null);
      if (min !== null) out.set(columnLetters(min), info(col));
    }
  }
  return out;
}

function compareDimensions(
  a: Map<string, Props>,
  b: Map<string, Props>,
  noun: string,
  tags: [string, string],
): true | string {
  const only0 = [...a.keys()].filter((k) => !b.has(k));
  const only1 = [...b.keys()].filter((k) => !a.has(k));
  if (only0.length || only1.length) {
    const list = (ks: string[]) => ks.slice(0, 8).join(', ') + (ks.length > 8 ? ', …' : '');
    const parts = [
      only0.length ? `${noun}s ${list(only0)} only in ${tags[0]}` : '',
      only1.length ? `${noun}s ${list(only1)} only in ${tags[1]}` : '',
    ];
    return `${noun} dimensions differ: ${parts.filter(Boolean).join('; ')}`;
  }
  for (const [k, pa] of a) {
    if (!isDeepStrictEqual(pa, b.get(k)))
      return `${noun} ${k}: ${brief(pa)} in ${tags[0]}, ${brief(b.get(k))} in ${tags[1]}`;
  }
  return true;
}

function propsRule(obj: 'row' | 'column') {
  /**
   * row_props / col_props `{sheet_idx0, sheet_idx1, props}` — the same rows (columns) carry dimension
   * records, each with the same values of `props`: rows hidden, collapsed, height, outlineLevel; columns
   * width, auto_size, hidden, collapsed, min, max, outlineLevel. As openpyxl, a row counts when its `<row>`
   * has any attribute beyond r and spans (Calc writes them for every row it saves); columns are keyed by
   * the letter of their `<col min>`.
   */
  return async (r: Record<string, unknown>, files: XlsxFiles): Promise<true | string> => {
    const props = Array.isArray(r.props) ? r.props.map(String) : [];
    const s0 = await namedSheet(r.sheet_idx0, files);
    if (typeof s0 === 'string') return s0;
    const s1 = await namedSheet(r.sheet_idx1, files);
    if (typeof s1 === 'string') return s1;
    const a = await dimensions(s0, obj, props);
    if (typeof a === 'string') return a;
    const b = await dimensions(s1, obj, props);
    if (typeof b === 'string') return b;
    return compareDimensions(a, b, obj, [sheetTag(s0), sheetTag(s1)]);
  };
}

export const rowPropsRule = propsRule('row');
export const colPropsRule = propsRule('column');

/**
 * zoom `{sheet_idx, method, ref}` — the zoom of the sheet's first view (`zoomScale`, 100 when absent or 0)
 * matches `{method, ref}`. A sheet that does not exist fails the rule.
 */
export async function zoomRule(r: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  const s = await namedSheet(r.sheet_idx, files);
  if (typeof s === 'string') return s;
  const root = await worksheetRoot(s);
  if (!root) return `${sheetTag(s)} does not exist`;
  const view = kids(kid(root, 'sheetViews'), 'sheetView')[0];
  const zoom = pyNumber(view, 'zoomScale', 0) || 100;
  const m = matchValueRule(zoom, { method: r.method, ref: r.ref });
  return m === true || `zoom of ${sheetTag(s)}: ${m}`;
}
