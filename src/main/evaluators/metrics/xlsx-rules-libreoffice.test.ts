// compare_table's sheet_print, sheet_fuzzy, sparkline, data_validation, row_props, col_props and filter
// rules on workbooks LibreOffice Calc saved (written by the test, re-saved by Calc in one soffice call), and
// on the CSV sheets Calc prints from them (a second call, with the filter OSWorld's postconfig uses).
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertWithLibreOffice, hasLibreOffice } from '../testing/libreoffice';
import { runMetric, tempDir } from '../testing/fixtures';
import { afterAutoFilter, resaveWithCalc, sparklinesXml, type BookSpec } from '../testing/xlsx-parts';
import { cellReader } from './xlsx-print';
import { namedSheet } from './xlsx-sheets';

const tmp = tempDir();
afterAll(tmp.cleanup);

interface Variant {
  a4?: string;
  b2?: string;
  hiddenRow?: number;
  widthB?: number;
  hideC?: boolean;
  statuses?: string;
  sparkTo?: string;
  filterVal?: string;
  qFormat?: string;
}

function book(v: Variant): BookSpec {
  const rows = [
    ['Region', 'Item', 'Q1', 'Q2', 'Q3', 'Trend', 'Status'],
    ['North', v.b2 ?? '12 Main Rd', 120, 130, 140, null, 'Pass'],
    ['South', 'N/A', 80, 75, 90.5, null, 'Fail'],
    [v.a4 ?? 'East', '5 High St', 60, 65, 70, null, 'Held'],
  ];
  const setup = (wb: ExcelJS.Workbook) => {
    const ws = wb.getWorksheet('Sheet1')!;
    ws.getRow(v.hiddenRow ?? 3).hidden = true;
    ws.getColumn(2).width = v.widthB ?? 30;
    if (v.hideC) ws.getColumn(3).hidden = true;
    if (v.qFormat) for (const c of ['C', 'D', 'E']) ws.getColumn(c).numFmt = v.qFormat;
    for (const c of ['G2', 'G3', 'G4'])
      ws.getCell(c).dataValidation = {
        type: 'list',
        allowBlank: true,
        formulae: [`"${v.statuses ?? 'Pass,Fail,Held'}"`],
      };
  };
  const filter = `<autoFilter ref="A1:B4"><filterColumn colId="0"><filters><filter val="${v.filterVal ?? 'Ann'}"/></filters></filterColumn></autoFilter>`;
  return {
    sheets: [
      ['Sheet1', rows],
      [
        'Sheet2',
        [
          ['Name', 'Score'],
          ['Ann', 1],
          ['Bob', 2],
          ['Cid', 3],
        ],
      ],
    ],
    setup,
    sheetXml: [
      {
        sheet: 'Sheet1',
        xml: sparklinesXml([2, 3, 4].map((r) => [`F${r}`, `Sheet1!C${r}:${v.sparkTo ?? 'E'}${r}`])),
      },
      { sheet: 'Sheet2', xml: filter, before: afterAutoFilter },
    ],
    definedNames: [
      '<definedName name="_xlnm._FilterDatabase" localSheetId="1" hidden="1">Sheet2!$A$1:$B$4</definedName>',
    ],
  };
}

const variants: Record<string, Variant> = {
  gold: {},
  upper: { a4: 'EAST' },
  road: { b2: '12 Main Road' },
  other: {
    hiddenRow: 4,
    widthB: 12,
    hideC: true,
    statuses: 'Pass,Fail',
    sparkTo: 'D',
    filterVal: 'Bob',
    qFormat: '0.0',
  },
};

/** Calc-saved workbooks by name, each with its printed first sheet `<name>-Sheet1.csv` beside it. */
let saved: Record<string, string> = {};
beforeAll(async () => {
  if (!hasLibreOffice) return;
  saved = await resaveWithCalc(
    tmp.dir,
    Object.fromEntries(Object.entries(variants).map(([name, v]) => [name, book(v)])),
  );
  const out = join(tmp.dir, 'calc');
  // as OSWorld's postconfig prints the saved workbook (0bf05a7d, 21df9241, 4f07fbe9, a01fbce3)
  const csv = 'csv:Text - txt - csv (StarCalc):44,34,UTF-8,,,,false,true,true,false,false,1';
  convertWithLibreOffice(tmp.dir, Object.values(saved), csv, out);
}, 300_000);

const score = async (result: unknown, expected: string, rule: Record<string, unknown>) =>
  runMetric('compare_table', result, expected, { rules: [rule] });

describe.skipIf(!hasLibreOffice)('compare_table rules on workbooks LibreOffice Calc saved', () => {
  it('sheet_print compares the sheets Calc printed, line by line, ignore_case as upstream', async () => {
    // 4f07fbe9 / a01fbce3 shape; the result as the multi vm_file getter hands it: [workbook, printed sheet]
    const rule = { type: 'sheet_print', sheet_idx0: 'RNSheet1', sheet_idx1: 'ENSheet1' };
    expect(
      (await score([saved.gold, saved.gold.replace('.xlsx', '-Sheet1.csv')], saved.gold, rule)).score,
    ).toBe(1);
    const upper = await score(saved.upper, saved.gold, rule);
    expect(upper.score).toBe(0);
    expect(upper.reason).toMatch(/line 4 differs: 'EAST,5 High St/);
    // 21df9241 shape
    expect((await score(saved.upper, saved.gold, { ...rule, ignore_case: true })).score).toBe(1);
    // the same values printed with another number format: sheet_data holds, sheet_print does not
    const other = await score(saved.other, saved.gold, {
      type: 'sheet_print',
      sheet_idx0: 0,
      sheet_idx1: 'EI0',
    });
    expect(other.score).toBe(0);
    expect(other.reason).toMatch(/120\.0/);
    const missing = await score(saved.gold, saved.gold, {
      type: 'sheet_print',
      sheet_idx0: 'RNSheet2',
      sheet_idx1: 'ENSheet2',
    });
    expect(missing.score).toBe(0);
    expect(missing.reason).toMatch(/gold-Sheet2\.csv/);
  });

  it('sheet_fuzzy reads cells as upstream (numbers as Python floats) and normalises before matching', async () => {
    const s = await namedSheet(0, { result: saved.gold });
    const read = await cellReader(s as Exclude<typeof s, string>);
    expect([read('A2'), read('C2'), read('E3'), read('F2'), read('Z9')]).toEqual([
      'North',
      120,
      90.5,
      null,
      null,
    ]);
    const fuzzy = (rules: unknown[]) => ({
      type: 'sheet_fuzzy',
      sheet_idx0: 'RNSheet1',
      sheet_idx1: 'ENSheet1',
      rules,
    });
    expect(
      (
        await score(
          saved.road,
          saved.gold,
          fuzzy([{ range: ['B2:B4'], type: 'exact_match', normalization: [['Road', 'Rd']] }]),
        )
      ).score,
    ).toBe(1);
    const exact = await score(saved.road, saved.gold, fuzzy([{ range: ['A1:E4'], type: 'exact_match' }]));
    expect(exact.score).toBe(0);
    expect(exact.reason).toMatch(/B2: '12 Main Road'/);
    expect((await score(saved.road, saved.gold, fuzzy([{ range: ['B2'], type: 'fuzzy_match' }]))).score).toBe(
      1,
    );
    expect(
      (await score(saved.road, saved.gold, fuzzy([{ range: ['B2'], type: 'fuzzy_match', threshold: 95 }])))
        .score,
    ).toBe(0);
    expect(
      (
        await score(
          saved.road,
          saved.gold,
          fuzzy([
            { range: ['B2'], type: 'includes', ignore_chars: 'oa' },
            { range: ['C2:E4', 'F2'], type: 'exact_match' },
          ]),
        )
      ).score,
    ).toBe(1);
    expect(
      (
        await score(
          saved.upper,
          saved.gold,
          fuzzy([{ range: ['A4'], type: 'exact_match', ignore_case: true, trim_leadings: ' ' }]),
        )
      ).score,
    ).toBe(1);
  });

  it('row_props and col_props compare the row and column records Calc writes', async () => {
    // 6054afcb shape
    const rows = { type: 'row_props', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['hidden'] };
    expect((await score(saved.upper, saved.gold, rows)).score).toBe(1);
    const hidden = await score(saved.other, saved.gold, rows);
    expect(hidden.score).toBe(0);
    expect(hidden.reason).toMatch(/row 3: \{"hidden":false\}.*\{"hidden":true\}/);
    const cols = { type: 'col_props', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['width', 'hidden'] };
    expect((await score(saved.upper, saved.gold, cols)).score).toBe(1);
    const width = await score(saved.other, saved.gold, cols);
    expect(width.score).toBe(0);
    expect(width.reason).toMatch(/column/);
    const unknown = await score(saved.gold, saved.gold, { ...rows, props: ['colour'] });
    expect(unknown.score).toBe(0);
    expect(unknown.reason).toMatch(/unknown row property colour/);
  });

  it('data_validation matches each validation against dv_props', async () => {
    const rule = {
      type: 'data_validation',
      sheet_idx: 0,
      dv_props: [
        {
          ranges: { method: 'spreadsheet_range', ref: ['G2:G4', 'G2:G1048576'] },
          type: { method: 'eq', ref: 'list' },
          formula1: { method: 'str_set_eq', ref: ['Held', 'Pass', 'Fail'] },
        },
      ],
    };
    expect((await score(saved.gold, saved.gold, rule)).score).toBe(1);
    const other = await score(saved.other, saved.gold, rule);
    expect(other.score).toBe(0);
    expect(other.reason).toMatch(/formula1/);
    const wider = await score(saved.gold, saved.gold, {
      ...rule,
      dv_props: [{ ranges: { method: 'spreadsheet_range', ref: ['G2:G10', 'G2:G1048576'] } }],
    });
    expect(wider.score).toBe(0);
    const tooMany = await score(saved.gold, saved.gold, { ...rule, dv_props: [{}, {}] });
    expect(tooMany.reason).toMatch(/1 data validation/);
  });

  it('data_validation patterns are Python re on what Calc wrote (\\Z, (?P<q>…) / (?P=q), re.I); an ordering across types raises', async () => {
    const dv = (props: Record<string, unknown>) => ({
      type: 'data_validation',
      sheet_idx: 0,
      dv_props: [props],
    });
    // formula1 as Calc writes it: "Pass,Fail,Held" with its quotes
    expect(
      (
        await score(
          saved.gold,
          saved.gold,
          dv({ formula1: { method: 're', ref: '^(?P<q>")Pass,Fail,Held(?P=q)\\Z' } }),
        )
      ).score,
    ).toBe(1);
    expect(
      (
        await score(
          saved.other,
          saved.gold,
          dv({ formula1: { method: 're', ref: '^(?P<q>")Pass,Fail,Held(?P=q)\\Z' } }),
        )
      ).score,
    ).toBe(0);
    expect((await score(saved.gold, saved.gold, dv({ type: { method: 're.I', ref: '^LIST$' } }))).score).toBe(
      1,
    );
    expect((await score(saved.gold, saved.gold, dv({ type: { method: 're', ref: '^LIST$' } }))).score).toBe(
      0,
    );
    // Python: 'list' > 1 raises TypeError, so OSWorld's compare_table raises
    const raised = await score(saved.gold, saved.gold, dv({ type: { method: 'gt', ref: 1 } }));
    expect(raised.score).toBe(0);
    expect(raised.reason).toMatch(/TypeError.*OSWorld raises/);
  });

  it('sparkline compares the sparklines Calc writes back', async () => {
    const rule = { type: 'sparkline', sheet_idx0: 0, sheet_idx1: 'EI0' };
    expect((await score(saved.upper, saved.gold, rule)).score).toBe(1);
    const other = await score(saved.other, saved.gold, rule);
    expect(other.score).toBe(0);
    expect(other.reason).toMatch(/sparkline at F2: Sheet1!C2:D2 in result 'Sheet1', Sheet1!C2:E2/);
  });

  it('filter compares the autofilters Calc writes back', async () => {
    const rule = { type: 'filter', sheet_idx0: 'RNSheet2', sheet_idx1: 'ENSheet2' };
    expect((await score(saved.upper, saved.gold, rule)).score).toBe(1);
    const other = await score(saved.other, saved.gold, rule);
    expect(other.score).toBe(0);
    expect(other.reason).toMatch(/filter_column.*Bob.*Ann/);
    const none = await score(saved.gold, saved.gold, { ...rule, sheet_idx0: 'RNSheet1' });
    expect(none.score).toBe(0);
    expect(none.reason).toMatch(/ref: null/);
  });
});
