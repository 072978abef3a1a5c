// compare_table as Spider2-V and OSWorld grade it: the `sheet_data` rule reads each sheet as a pandas frame
// (`read_excel`: first row the header, numbers stored as text inferred as numbers), rounds both frames to the
// rule's `precision` decimals (default 4; `DataFrame.round(error_limit)`, numpy's half-to-even) and compares with
// `DataFrame.equals`. (An early Spider2-V revision called `round()` without the precision, i.e. whole numbers; the
// benchmark's current table.py rounds to `precision`, as OSWorld does.) `check_cell` reads its `value` as upstream's
// read_cell_value does (xlsx-cell-value.ts). Other rule types are the robust ones, which read cells as openpyxl does.
import type ExcelJS from 'exceljs';
import { fail, type MetricOutcome } from '../metric';
import { registerDeparture, variants } from '../profile';
import { brief } from './inputs';
import { frameOf, framesEqual, roundFrame, type RawCell } from './pandas-frame';
import { PyFloat, pyRepr } from '../python/value';
import { matchesRule } from './rule-match';
import {
  cellStyle,
  compareTableWith,
  loadBook,
  pickSheet,
  sheetDataPrecision,
  tableRules,
  type RuleCheck,
} from './table';
import { osworldCellValue } from './xlsx-cell-value';

function rawCell(v: ExcelJS.CellValue): RawCell {
  if (v === null || v === undefined) return null;
  if (v instanceof Date || typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v)
      return rawCell((v as { result?: ExcelJS.CellValue }).result ?? null);
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v) return rawCell((v as { text: ExcelJS.CellValue }).text);
    if ('error' in v) return null; // pandas reads error cells as NaN
  }
  return null;
}

/** The rows pandas' openpyxl reader hands to its parser: empty cells as '' (NA), cells a merge covers empty,
 * trailing empty cells and rows trimmed, rows padded to the widest; a lone empty cell row is a blank line and
 * skipped. */
export function sheetRows(ws: ExcelJS.Worksheet): RawCell[][] {
  const rows: RawCell[][] = [];
  let last = -1;
  for (let n = 1; n <= ws.rowCount; n++) {
    const row = ws.getRow(n);
    const cells: RawCell[] = [];
    for (let c = 1; c <= row.cellCount; c++) {
      const cell = row.getCell(c);
      // openpyxl has no value for the cells a merge covers (only its top-left cell holds one); exceljs repeats it
      const v = cell.isMerged && cell.master.address !== cell.address ? null : rawCell(cell.value);
      cells.push(v === '' ? null : v);
    }
    while (cells.length && cells[cells.length - 1] === null) cells.pop();
    if (cells.length) last = rows.length;
    rows.push(cells);
  }
  const kept = rows.slice(0, last + 1);
  const width = Math.max(0, ...kept.map((r) => r.length));
  const padded = kept.map((r) => [...r, ...Array<RawCell>(width - r.length).fill(null)]);
  return width <= 1 ? padded.filter((r) => r.length === 1 && r[0] !== null) : padded;
}

function pandasSheetData(decimals: (rule: Record<string, unknown>) => number): RuleCheck {
  return async (r, result, expected) => {
    const s0 = pickSheet(r.sheet_idx0, result, expected);
    if (typeof s0 === 'string') return s0;
    const s1 = pickSheet(r.sheet_idx1, result, expected);
    if (typeof s1 === 'string') return s1;
    let f0, f1;
    try {
      f0 = roundFrame(frameOf(sheetRows(s0)), decimals(r));
      f1 = roundFrame(frameOf(sheetRows(s1)), decimals(r));
    } catch (e) {
      return `pandas cannot read the sheet: ${(e as Error).message}`;
    }
    const eq = framesEqual(f0, f1);
    return eq === true || `frames of '${s0.name}' and '${s1.name}' differ after round(${decimals(r)}): ${eq}`;
  };
}

/**
 * check_cell as upstream reads the cell: `value` by read_cell_value (xlsx-cell-value.ts: a number is a float, a
 * number stored as text is text, a boolean or a formula's boolean result is None, a formula's other results as
 * cached), the style props from the cell (exceljs, named as openpyxl names them). The props are checked in
 * order and the first that fails decides, as Python's `metric and …` stops.
 */
const osworldCheckCell: RuleCheck = async (r, result, expected, files) => {
  const ws = pickSheet(r.sheet_idx, result, expected);
  if (typeof ws === 'string') return `${ws} (OSWorld scores 0)`;
  const coordinate = String(r.coordinate ?? '');
  if (!/^\$?[A-Za-z]{1,3}\$?\d+$/.test(coordinate))
    return `coordinate '${coordinate}' is not a cell like A1 (openpyxl raises; OSWorld scores 0)`;
  const fromExpected = typeof r.sheet_idx === 'string' && r.sheet_idx.startsWith('E');
  const props =
    r.props !== null && typeof r.props === 'object' && !Array.isArray(r.props)
      ? (r.props as Record<string, unknown>)
      : {};
  for (const [prop, rule] of Object.entries(props)) {
    let value: unknown;
    if (prop === 'value') {
      // read_cell_value's numbers are Python floats: 123 compares as 123 and prints as 123.0
      const cell = await osworldCellValue(fromExpected ? files.expected : files.result, ws.name, coordinate);
      value = typeof cell === 'number' ? new PyFloat(cell) : cell;
    } else {
      value = cellStyle(ws.getCell(coordinate.replace(/\$/g, '').toUpperCase()), prop);
      if (value === undefined)
        return `cell property '${prop}' is not one upstream reads (NotImplementedError; OSWorld scores 0)`;
    }
    const m = matchesRule(value, rule);
    if (m !== true) return `${coordinate}.${prop} read as OSWorld reads it (${brief(pyRepr(value))}): ${m}`;
  }
  return true;
};

const spider2vRules = (): Record<string, RuleCheck> => ({
  ...tableRules,
  sheet_data: pandasSheetData(sheetDataPrecision),
  check_cell: osworldCheckCell,
});
const osworldRules = (): Record<string, RuleCheck> => ({
  ...tableRules,
  sheet_data: pandasSheetData(sheetDataPrecision),
  check_cell: osworldCheckCell,
});

/** compare_table, Spider2-V: `sheet_data` as pandas frames rounded to `precision` (default 4); a missing result is 0. */
async function compareTableSpider2v(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (result === undefined || result === null) return fail('no result workbook');
  return compareTableWith(spider2vRules(), result, expected, options);
}

/** compare_table, OSWorld: `sheet_data` as pandas frames rounded to `precision` decimals. */
async function compareTableOsworld(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (result === undefined || result === null) return fail('no result workbook');
  return compareTableWith(osworldRules(), result, expected, options);
}

/** Why pandas frames and typed cells disagree, from the first cell of a `sheet_data` rule's sheets that differs:
 * a number against the same number as text, or two numbers (rounding), else header / blank-row handling. */
async function diagnoseTable(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<string | undefined> {
  const rules = (Array.isArray(options.rules) ? options.rules : []).filter(
    (r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r),
  );
  const data = rules.filter((r) => r.type === 'sheet_data');
  if (!data.length && rules.some((r) => r.type === 'check_cell'))
    return 'check_cell: the cell read as read_cell_value (floats, text kept as text, booleans None)';
  if (!data.length) return `rules ${brief(rules.map((r) => r.type))}`;
  const rb = await loadBook(result);
  const eb = expected === undefined || expected === null ? undefined : await loadBook(expected);
  if (typeof rb === 'string' || typeof eb === 'string') return 'sheet_data';
  for (const r of data) {
    const s0 = pickSheet(r.sheet_idx0, rb, eb);
    const s1 = pickSheet(r.sheet_idx1, rb, eb);
    if (typeof s0 === 'string' || typeof s1 === 'string') continue;
    const a = sheetRows(s0);
    const b = sheetRows(s1);
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      for (let c = 0; c < Math.max(a[i]?.length ?? 0, b[i]?.length ?? 0); c++) {
        const x = a[i]?.[c] ?? null;
        const y = b[i]?.[c] ?? null;
        if (x === y || (x instanceof Date && y instanceof Date && x.getTime() === y.getTime())) continue;
        if (
          (typeof x === 'string' && typeof y === 'number') ||
          (typeof x === 'number' && typeof y === 'string')
        )
          return 'sheet_data: numbers stored as text';
        if (typeof x === 'number' && typeof y === 'number') return 'sheet_data: rounding';
        return 'sheet_data: cell values';
      }
    }
  }
  return 'sheet_data: header or blank rows';
}

variants.register('compare_table', {
  spider2v: compareTableSpider2v,
  osworld: compareTableOsworld,
  diagnose: diagnoseTable,
});

registerDeparture({
  metric: 'compare_table',
  profile: 'all',
  case: 'rules style, chart, pivot_table, freeze and the style props of check_cell',
  why: "OSWorld reads these through openpyxl's object model (load_workbook: cell fonts and fills, chart and pivot classes, sheet views); Proctor reads the same xlsx parts with exceljs and its own part readers (xlsx-charts.ts, xlsx-pivots.ts): equal on the Calc- and exceljs-written workbooks tested, not proven equal for every part openpyxl parses. (check_cell's value is read as OSWorld's read_cell_value reads it, and sheet_data as pandas 2.2 reads it.)",
});
registerDeparture({
  metric: 'compare_table',
  profile: 'all',
  case: 'sheet_data with time-of-day or duration cells',
  why: "pandas 2.2's read_excel gets datetime.time (a time format, value below 1) and datetime.timedelta ([h]:mm formats) objects from openpyxl, an object column; Proctor reads such cells as datetime64 like dates. Sheets with the same times agree; a time against the same moment written as a date (or a duration against a number) is equal here and unequal upstream",
});
