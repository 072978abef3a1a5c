// OSWorld's Calc metric compare_conference_city_in_order (family `sheets`; table.py), on workbooks read with
// exceljs (table.ts loadBook), cell values taken as openpyxl's load_workbook gives them (formulas as "=…").
import type ExcelJS from 'exceljs';
import { registerMetricFamily } from '../family';
import { fail, pass, type MetricOutcome } from '../metric';
import { brief, isRecord } from './inputs';
import { loadBook } from './table';

/** A cell's value as openpyxl (not data_only) shows it: text, a number, "=formula", a date, a bool, or null. */
function openpyxlValue(cell: ExcelJS.Cell): unknown {
  const v = cell.value;
  if (v === null || v === undefined) return null;
  if (typeof v !== 'object' || v instanceof Date) return v;
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('formula' in v || 'sharedFormula' in v) return `=${cell.formula}`;
  if ('hyperlink' in v) return v.text;
  if ('error' in v) return v.error;
  return null;
}

/**
 * compare_conference_city_in_order — `result`: an xlsx; `expected`: `{expected: [city | [alternatives]]}`.
 * The active sheet's C2:C22, in order: each cell's text must contain its expected city (or one of the
 * alternatives). Anything OSWorld's loop stumbles on scores 0, as its bare `except` does: a cell that is not
 * text (empty, a number, a date), fewer than 21 expected entries, an entry neither text nor a list.
 */
async function compareConferenceCityInOrder(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const book = await loadBook(result);
  if (typeof book === 'string') return fail(`${book} (OSWorld raises)`);
  const want = isRecord(expected) && Array.isArray(expected.expected) ? expected.expected : undefined;
  if (!want) return fail(`expected {expected: [cities]} (got ${brief(expected)})`);
  const active = book.views?.[0]?.activeTab ?? 0;
  const sheet = book.worksheets[active];
  if (!sheet) return fail(`the workbook has no sheet ${active + 1} (its active one)`);
  for (let row = 2; row <= 22; row++) {
    const got = openpyxlValue(sheet.getCell(`C${row}`));
    const w: unknown = want[row - 2];
    if (w === undefined) return fail(`only ${want.length} expected cities for C2:C22`);
    const options = typeof w === 'string' ? [w] : Array.isArray(w) ? w : undefined;
    if (!options) return fail(`expected city ${row - 1} is neither text nor a list (${brief(w)})`);
    if (typeof got !== 'string')
      return fail(`C${row} holds ${got === null ? 'nothing' : brief(got)}, not text`);
    let hit = false;
    for (const o of options) {
      if (typeof o !== 'string') return fail(`expected city ${row - 1} lists ${brief(o)}, not text`);
      if ((hit = got.includes(o))) break;
    }
    if (!hit) return fail(`C${row} is '${brief(got, 60)}', expected ${brief(w)}`);
  }
  return pass(`C2:C22 of sheet ${sheet.name} hold the expected cities in order`);
}

registerMetricFamily('sheets', {
  compare_conference_city_in_order: compareConferenceCityInOrder,
});
