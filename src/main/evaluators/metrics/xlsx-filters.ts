// compare_table's filter and sparkline rules (OSWorld table.py with utils.load_filters and load_sparklines):
// a sheet's autofilter as openpyxl reads `<autoFilter>` (its columns and sort state), and its sparklines as
// upstream reads the x14 extension of `xl/worksheets/sheet<sheetId>.xml` (target cell → source range).
import { isDeepStrictEqual } from 'node:util';
import { brief } from './inputs';
import { attr, descendants, kid, kids, type XlsxFiles } from './xlsx-package';
import { namedSheet, pyBool, pyNumber, sheetTag, worksheetRoot, worksheetRootById } from './xlsx-sheets';

const sorted = (xs: string[]) => [...new Set(xs)].sort();

/** One `<filterColumn>` as load_filters describes it (sets as sorted lists). */
function filterColumn(fc: Element): Record<string, unknown> {
  const out: Record<string, unknown> = {
    col_id: pyNumber(fc, 'colId', null),
    hidden_button: pyBool(fc, 'hiddenButton', false),
    show_button: pyBool(fc, 'showButton', true),
  };
  const filters = kid(fc, 'filters');
  if (filters) {
    out.filters_blank = pyBool(filters, 'blank', null);
    out.filters = sorted(kids(filters, 'filter').map((f) => attr(f, 'val') ?? ''));
  }
  const custom = kid(fc, 'customFilters');
  if (custom) {
    out.custom_filters_op = pyBool(custom, 'and', false);
    out.custom_filters = sorted(
      kids(custom, 'customFilter').map((f) =>
        JSON.stringify([attr(f, 'operator') ?? 'equal', attr(f, 'val') ?? null]),
      ),
    );
  }
  return out;
}

/** load_filters: `{ref, filter_column: [...by col_id], sort_state?}`; {} when the sheet does not exist. */
export async function loadFilters(
  idx: unknown,
  files: XlsxFiles,
): Promise<{ tag: string; filters: Record<string, unknown> } | string> {
  const s = await namedSheet(idx, files);
  if (typeof s === 'string') return s;
  if (s.path === undefined) return `${sheetTag(s)}: there is no expected workbook (OSWorld raises)`;
  const root = await worksheetRoot(s);
  if (!root) return { tag: sheetTag(s), filters: {} };
  const af = kid(root, 'autoFilter');
  const columns = kids(af, 'filterColumn').map(filterColumn);
  columns.sort((a, b) => Number(a.col_id ?? 0) - Number(b.col_id ?? 0));
  const filters: Record<string, unknown> = { ref: attr(af, 'ref') ?? null, filter_column: columns };
  const sort = kid(af, 'sortState');
  if (sort) {
    filters.sort_state = {
      sort: pyBool(sort, 'columnSort', null),
      case: pyBool(sort, 'caseSensitive', null),
      method: attr(sort, 'sortMethod') ?? null,
      ref: attr(sort, 'ref') ?? null,
      condition: kids(sort, 'sortCondition').map((c) => ({
        descending: pyBool(c, 'descending', null),
        key: attr(c, 'sortBy') ?? null,
        ref: attr(c, 'ref') ?? null,
        custom_list: attr(c, 'customList') ?? null,
        dxf_id: pyNumber(c, 'dxfId', null),
        icon: attr(c, 'iconSet') ?? null,
        iconid: pyNumber(c, 'iconId', null),
      })),
    };
  }
  return { tag: sheetTag(s), filters };
}

/**
 * filter `{sheet_idx0, sheet_idx1}` — the two sheets' autofilters are alike: the same range, the same
 * filtered columns (values, blanks, custom conditions, buttons) and the same sort state.
 */
export async function filterRule(r: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  const a = await loadFilters(r.sheet_idx0, files);
  if (typeof a === 'string') return a;
  const b = await loadFilters(r.sheet_idx1, files);
  if (typeof b === 'string') return b;
  for (const key of new Set([...Object.keys(a.filters), ...Object.keys(b.filters)])) {
    if (!isDeepStrictEqual(a.filters[key], b.filters[key]))
      return `autofilter ${key}: ${brief(a.filters[key] ?? null)} in ${a.tag}, ${brief(b.filters[key] ?? null)} in ${b.tag}`;
  }
  return true;
}

/** load_sparklines: target cells (`xm:sqref`) → source ranges (`xm:f`), or why upstream raises. */
export async function loadSparklines(
  idx: unknown,
  files: XlsxFiles,
): Promise<{ tag: string; lines: Map<string, string> } | string> {
  const s = await namedSheet(idx, files);
  if (typeof s === 'string') return s;
  const root = await worksheetRootById(s).catch(() => undefined);
  if (!root) return `${sheetTag(s)}: no sheet part xl/worksheets/sheet<sheetId>.xml for it (OSWorld raises)`;
  const lines = new Map<string, string>();
  for (const sp of descendants(root, 'sparkline')) {
    const f = kid(sp, 'f');
    const sqref = kid(sp, 'sqref');
    if (!f || !sqref) return `${sheetTag(s)}: a sparkline without xm:f or xm:sqref (OSWorld raises)`;
    lines.set(sqref.textContent ?? '', f.textContent ?? '');
  }
  return { tag: sheetTag(s), lines };
}

/** sparkline `{sheet_idx0, sheet_idx1}` — the two sheets have the same sparklines: same cells, same data ranges. */
export async function sparklineRule(r: Record<string, unknown>, files: XlsxFiles): Promise<true | string> {
  const a = await loadSparklines(r.sheet_idx0, files);
  if (typeof a === 'string') return a;
  const b = await loadSparklines(r.sheet_idx1, files);
  if (typeof b === 'string') return b;
  for (const cell of new Set([...a.lines.keys(), ...b.lines.keys()])) {
    const [x, y] = [a.lines.get(cell), b.lines.get(cell)];
    if (x !== y) return `sparkline at ${cell}: ${x ?? 'none'} in ${a.tag}, ${y ?? 'none'} in ${b.tag}`;
  }
  return true;
}
