// Table metrics: CSV files (csv-parse) and xlsx workbooks (exceljs).
import ExcelJS from 'exceljs';
import { isDeepStrictEqual } from 'node:util';
import { fail, metrics, pass, verdict, type MetricOutcome } from '../metric';
import { brief, isRecord, readText, sharedValue } from './inputs';
import { csvRecords } from './csv-records';
import { matchesRule } from './rule-match';
import { chartRule } from './xlsx-charts';
import { pivotTableRule } from './xlsx-pivots';
import { filterRule, sparklineRule } from './xlsx-filters';
import { sheetFuzzyRule, sheetPrintRule } from './xlsx-print';
import { colPropsRule, rowPropsRule, zoomRule } from './xlsx-props';
import { dataValidationRule } from './xlsx-validation';
import type { XlsxFiles } from './xlsx-package';

/**
 * compare_csv — `result`, `expected`: CSV file paths. Identical files pass; otherwise both are parsed as CSV (so quoting and CRLF/LF do
 * not matter) and compared record by record, header included. Options: `strict` (default true; false trims
 * every cell), `ignore_case`, `ignore_order` (sorts all records, the header among them, as upstream).
 */
async function compareCsv(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const a = await readText(result);
  const b = await readText(expected);
  if (a === undefined) return fail(`result file ${brief(result)} cannot be read`);
  if (b === undefined) return fail(`expected file ${brief(expected)} cannot be read`);
  if (a === b) return pass('the files are identical');
  let ra = csvRecords(a);
  let rb = csvRecords(b);
  if (typeof ra === 'string') return fail(`result is not CSV: ${ra}`);
  if (typeof rb === 'string') return fail(`expected file is not CSV: ${rb}`);
  const cell = (s: string) => {
    let v = options.strict === false ? s.trim() : s;
    if (options.ignore_case) v = v.toLowerCase();
    return v;
  };
  ra = ra.map((r) => r.map(cell));
  rb = rb.map((r) => r.map(cell));
  if (options.ignore_order) {
    const key = (r: string[]) => JSON.stringify(r);
    ra = [...ra].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
    rb = [...rb].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0));
  }
  if (ra.length !== rb.length) return fail(`${ra.length} records, expected ${rb.length}`);
  for (let i = 0; i < ra.length; i++) {
    if (!isDeepStrictEqual(ra[i], rb[i]))
      return fail(`record ${i} differs: got ${brief(ra[i])}, expected ${brief(rb[i])}`);
  }
  return pass(`all ${ra.length} records match${options.ignore_order ? ' (order ignored)' : ''}`);
}

export type Book = ExcelJS.Workbook;

/** The workbook at `path` (shared by a metric's variants within one grading: the faithful one and its second
 * opinion read the same object), or why it cannot be read. */
export function loadBook(path: unknown): Promise<Book | string> {
  if (typeof path !== 'string') return Promise.resolve(`no workbook (${brief(path)})`);
  return sharedValue(`xlsx:${path}`, () => readBook(path));
}

async function readBook(path: string): Promise<Book | string> {
  try {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    return wb;
  } catch (e) {
    return `${path} is not an xlsx workbook: ${(e as Error).message}`;
  }
}

/** Sheet reference of compare_table rules: an integer (result sheet index), `RI<n>` / `RN<name>` (result
 * by index / name) or `EI<n>` / `EN<name>` (expected). */
export function pickSheet(
  idx: unknown,
  result: Book,
  expected: Book | undefined,
): ExcelJS.Worksheet | string {
  const byIndex = (b: Book | undefined, n: number) => b?.worksheets[n];
  const byName = (b: Book | undefined, n: string) => b?.worksheets.find((w) => w.name === n);
  let ws: ExcelJS.Worksheet | undefined;
  if (typeof idx === 'number') ws = byIndex(result, idx);
  else if (typeof idx === 'string' && /^RI\d+$/.test(idx)) ws = byIndex(result, Number(idx.slice(2)));
  else if (typeof idx === 'string' && idx.startsWith('RN')) ws = byName(result, idx.slice(2));
  else if (typeof idx === 'string' && /^EI\d+$/.test(idx)) ws = byIndex(expected, Number(idx.slice(2)));
  else if (typeof idx === 'string' && idx.startsWith('EN')) ws = byName(expected, idx.slice(2));
  else return `sheet index ${brief(idx)} is not n, RI<n>, RN<name>, EI<n> or EN<name>`;
  return ws ?? `sheet ${brief(idx)} does not exist`;
}

/** A cell's value as compared: formulas by their cached result, rich text as text, dates as ISO, numbers
 * rounded to `precision` decimals, empty text as empty. */
function cellValue(v: ExcelJS.CellValue, precision: number): unknown {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'number') return Number(v.toFixed(precision));
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v)
      return cellValue((v as { result?: ExcelJS.CellValue }).result ?? null, precision);
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('text' in v) return cellValue((v as { text: ExcelJS.CellValue }).text, precision);
    if ('error' in v) return String(v.error);
  }
  return v;
}

function sheetGrid(ws: ExcelJS.Worksheet, precision: number): unknown[][] {
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const values: unknown[] = [];
    row.eachCell({ includeEmpty: true }, (cell, c) => {
      values[c - 1] = cellValue(cell.value, precision);
    });
    rows[n - 1] = Array.from(values, (x) => (x === undefined ? null : x));
  });
  const grid = Array.from(rows, (r) => r ?? []);
  for (const r of grid) while (r.length && r[r.length - 1] === null) r.pop();
  while (grid.length && grid[grid.length - 1].length === 0) grid.pop();
  return grid;
}

/** Style properties of a cell, named as upstream (openpyxl) names them. */
export function cellStyle(cell: ExcelJS.Cell, prop: string): unknown {
  const font = cell.font ?? {};
  const fill = cell.fill as ExcelJS.FillPattern | undefined;
  switch (prop) {
    case 'font_name':
      return font.name ?? null;
    case 'font_size':
      return font.size ?? null;
    case 'font_bold':
      return Boolean(font.bold);
    case 'font_italic':
      return Boolean(font.italic);
    case 'font_underline':
      return font.underline ? (font.underline === true ? 'single' : font.underline) : null;
    case 'font_strike':
      return Boolean(font.strike);
    case 'font_color':
      return font.color?.argb ?? null;
    case 'bgcolor':
      return fill?.type === 'pattern' ? (fill.fgColor?.argb ?? null) : null;
    case 'fill_type':
      return fill?.type === 'pattern' ? fill.pattern : null;
    case 'number_format':
      return cell.numFmt ?? 'General';
    case 'horizontal_alignment':
      return cell.alignment?.horizontal ?? null;
    default:
      return undefined;
  }
}

function sheetStyles(ws: ExcelJS.Worksheet, props: string[]): Record<string, unknown[]> | string {
  const unknown = props.filter((p) => cellStyle(ws.getCell('A1'), p) === undefined);
  if (unknown.length) return `unknown style props ${unknown.join(', ')}`;
  const out: Record<string, unknown[]> = {};
  ws.eachRow((row) =>
    row.eachCell((cell) => {
      if (cellValue(cell.value, 4) === null) return;
      out[cell.address] = props.map((p) => cellStyle(cell, p));
    }),
  );
  return out;
}

function frozen(ws: ExcelJS.Worksheet): unknown {
  const v = ws.views?.find((x) => x.state === 'frozen') as { xSplit?: number; ySplit?: number } | undefined;
  return v ? { x: v.xSplit ?? 0, y: v.ySplit ?? 0 } : null;
}

/** The decimals a `sheet_data` rule rounds both sides to: its `precision` (a whole number of digits), else 4. */
export const sheetDataPrecision = (r: Record<string, unknown>): number =>
  typeof r.precision === 'number' && Number.isInteger(r.precision) && r.precision >= 0 && r.precision <= 15
    ? r.precision
    : 4;

export type RuleCheck = (
  r: Record<string, unknown>,
  result: Book,
  expected: Book | undefined,
  files: XlsxFiles,
) => Promise<string | true>;

/** The rule types of compare_table. Each returns `true` or the reason it fails. */
export const tableRules: Record<string, RuleCheck> = {
  async sheet_name(_r, result, expected) {
    const a = result.worksheets.map((w) => w.name);
    const b = expected?.worksheets.map((w) => w.name);
    return isDeepStrictEqual(a, b) || `sheet names ${brief(a)}, expected ${brief(b)}`;
  },
  async sheet_data(r, result, expected) {
    const precision = sheetDataPrecision(r);
    const s0 = pickSheet(r.sheet_idx0, result, expected);
    if (typeof s0 === 'string') return s0;
    const s1 = pickSheet(r.sheet_idx1, result, expected);
    if (typeof s1 === 'string') return s1;
    const g0 = sheetGrid(s0, precision);
    const g1 = sheetGrid(s1, precision);
    if (g0.length !== g1.length)
      return `sheet '${s0.name}' has ${g0.length} rows, '${s1.name}' has ${g1.length}`;
    for (let i = 0; i < g0.length; i++) {
      if (!isDeepStrictEqual(g0[i], g1[i])) return `row ${i + 1} differs: ${brief(g0[i])} vs ${brief(g1[i])}`;
    }
    return true;
  },
  async style(r, result, expected) {
    const s0 = pickSheet(r.sheet_idx0, result, expected);
    if (typeof s0 === 'string') return s0;
    const s1 = pickSheet(r.sheet_idx1, result, expected);
    if (typeof s1 === 'string') return s1;
    const props = Array.isArray(r.props) ? r.props.map(String) : [];
    const a = sheetStyles(s0, props);
    const b = sheetStyles(s1, props);
    if (typeof a === 'string') return a;
    if (typeof b === 'string') return b;
    for (const addr of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!isDeepStrictEqual(a[addr], b[addr]))
        return `style of ${addr} differs: ${brief(a[addr])} vs ${brief(b[addr])} (${props.join(', ')})`;
    }
    return true;
  },
  async freeze(r, result, expected) {
    const s0 = pickSheet(r.sheet_idx0, result, expected);
    if (typeof s0 === 'string') return s0;
    const s1 = pickSheet(r.sheet_idx1, result, expected);
    if (typeof s1 === 'string') return s1;
    return (
      isDeepStrictEqual(frozen(s0), frozen(s1)) || `frozen panes ${brief(frozen(s0))} vs ${brief(frozen(s1))}`
    );
  },
  async check_cell(r, result, expected) {
    const ws = pickSheet(r.sheet_idx, result, expected);
    if (typeof ws === 'string') return ws;
    const coordinate = String(r.coordinate ?? '');
    if (!/^[A-Z]+\d+$/.test(coordinate)) return `coordinate '${coordinate}' is not like A1`;
    const cell = ws.getCell(coordinate);
    const props = isRecord(r.props) ? r.props : {};
    for (const [prop, rule] of Object.entries(props)) {
      const value = prop === 'value' ? cellValue(cell.value, 15) : cellStyle(cell, prop);
      if (value === undefined) return `unknown cell property '${prop}'`;
      const m = matchesRule(value, rule);
      if (m !== true) return `${coordinate}.${prop}: ${m}`;
    }
    return true;
  },
  chart: (r, _result, _expected, files) => chartRule(r, files),
  pivot_table: (r, _result, _expected, files) => pivotTableRule(r, files),
  sheet_print: (r, _result, _expected, files) => sheetPrintRule(r, files),
  sheet_fuzzy: (r, _result, _expected, files) => sheetFuzzyRule(r, files),
  sparkline: (r, _result, _expected, files) => sparklineRule(r, files),
  zoom: (r, _result, _expected, files) => zoomRule(r, files),
  data_validation: (r, _result, _expected, files) => dataValidationRule(r, files),
  row_props: (r, _result, _expected, files) => rowPropsRule(r, files),
  col_props: (r, _result, _expected, files) => colPropsRule(r, files),
  filter: (r, _result, _expected, files) => filterRule(r, files),
};

/**
 * compare_table — `result`, `expected`: xlsx paths; `options.rules`: a list of checks, all of which must
 * hold. Rule types: `sheet_name` (same sheet names), `sheet_data {sheet_idx0, sheet_idx1, precision=4}`
 * (same cell values; formulas by cached result, both sides' numbers rounded to `precision` decimals, default
 * 4, as Spider2-V and OSWorld round), `style {sheet_idx0, sheet_idx1, props}` (font_name, font_size, font_bold,
 * font_italic, font_underline, font_strike, font_color, bgcolor, fill_type, number_format,
 * horizontal_alignment of every non-empty cell), `freeze`, `check_cell {sheet_idx, coordinate, props:
 * {prop: {method, ref}}}`, plus the types registered in `tableRules` by other modules: chart, pivot_table
 * (xlsx-charts.ts, xlsx-pivots.ts), sheet_print and sheet_fuzzy (xlsx-print.ts), sparkline and filter
 * (xlsx-filters.ts), zoom, row_props and col_props (xlsx-props.ts), data_validation (xlsx-validation.ts).
 * Sheet indices: n / RI<n> / RN<name> for the result, EI<n> / EN<name> for the expected workbook. A list for
 * `result` or `expected` (a `multi` vm_file getter's files, the workbook first) counts as its first file, the
 * one upstream's getter hands over (its `gives` default); the others (printed CSV sheets) lie beside it.
 */
async function compareTable(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  return compareTableWith(tableRules, result, expected, options);
}

/** compare_table with a given set of rule types (the grading profiles swap some, e.g. `sheet_data`). */
export async function compareTableWith(
  ruleTypes: Record<string, RuleCheck>,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (Array.isArray(result)) result = result[0];
  if (Array.isArray(expected)) expected = expected[0];
  if (result === undefined || result === null) return fail('no result workbook (OSWorld scores 0)');
  const rb = await loadBook(result);
  if (typeof rb === 'string') return fail(rb);
  let eb: Book | undefined;
  if (expected !== undefined && expected !== null) {
    const e = await loadBook(expected);
    if (typeof e === 'string') return fail(`expected: ${e}`);
    eb = e;
  }
  const rules = Array.isArray(options.rules) ? options.rules.filter(isRecord) : [];
  if (!rules.length) return fail('compare_table needs options.rules');
  for (const [n, rule] of rules.entries()) {
    const check = ruleTypes[String(rule.type)];
    if (!check)
      return fail(
        `rule ${n}: unknown rule type '${String(rule.type)}' (known: ${Object.keys(ruleTypes).join(', ')})`,
      );
    const ok = await check(rule, rb, eb, {
      result: String(result),
      expected: eb ? String(expected) : undefined,
    });
    if (ok !== true) return fail(`rule ${n} (${String(rule.type)}): ${ok}`);
  }
  return verdict(true, `all ${rules.length} rules hold (${rules.map((r) => r.type).join(', ')})`, '');
}

metrics.register('compare_csv', compareCsv).register('compare_table', compareTable);
