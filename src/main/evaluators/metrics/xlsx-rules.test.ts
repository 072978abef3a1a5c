// compare_table's zoom rule on hand-built workbooks (headless Calc keeps no view settings, so it cannot write
// a zoom), OSWorld's value-rule methods, Python's float printing, rapidfuzz's ratio, and the rule shapes of
// real OSWorld Calc tasks.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { runMetric, tempDir } from '../testing/fixtures';
import { writeXlsx } from '../testing/xlsx-parts';
import { floatRepr } from '../python/value';
import { tableRules } from './table';
import { fuzzRatio, printedSheetPath, pyStrip, rangeCells } from './xlsx-print';
import { CellRanges, matchValueRule } from './xlsx-validation';

const tmp = tempDir();
afterAll(tmp.cleanup);

const zoomed = (zoom?: number) => (wb: ExcelJS.Workbook) => {
  if (zoom !== undefined) wb.getWorksheet('Sheet1')!.views = [{ state: 'normal', zoomScale: zoom }];
};

describe('compare_table zoom', () => {
  it('reads the first view zoomScale (100 when absent) and matches it with {method, ref}', async () => {
    const big = await writeXlsx(join(tmp.dir, 'zoom300.xlsx'), {
      sheets: [['Sheet1', [['a']]]],
      setup: zoomed(300),
    });
    const plain = await writeXlsx(join(tmp.dir, 'zoom-none.xlsx'), {
      sheets: [['Sheet1', [['a']]]],
      setup: zoomed(),
    });
    const rule = { type: 'zoom', sheet_idx: 0, method: 'ge', ref: 300 };
    expect((await runMetric('compare_table', big, null, { rules: [rule] })).score).toBe(1);
    const none = await runMetric('compare_table', plain, null, { rules: [rule] });
    expect(none.score).toBe(0);
    expect(none.reason).toMatch(/100 does not satisfy ge 300/);
    expect(
      (await runMetric('compare_table', plain, null, { rules: [{ ...rule, method: 'eq', ref: 100 }] })).score,
    ).toBe(1);
    const missing = await runMetric('compare_table', big, null, {
      rules: [{ ...rule, sheet_idx: 'RNNope' }],
    });
    expect(missing.reason).toMatch(/'Nope' does not exist/);
  });
});

describe("OSWorld's _match_value_to_rule", () => {
  it('knows its methods, Python-style', () => {
    expect(matchValueRule('Total Sales', { method: 're.I', ref: '^total' })).toBe(true);
    expect(matchValueRule('Total Sales', { method: 're', ref: '^total' })).not.toBe(true);
    expect(matchValueRule(5, { method: 're', ref: '5' })).toMatch(/TypeError/);
    expect(matchValueRule(true, { method: 'eq', ref: 1 })).toBe(true);
    expect(matchValueRule('b', { method: 'gt', ref: 'a' })).toBe(true);
    expect(matchValueRule('5', { method: 'gt', ref: 3 })).toMatch(/TypeError/);
    expect(matchValueRule('191.67', { method: 'approx:0.01', ref: 191.6667 })).toBe(true);
    expect(matchValueRule(null, { method: 'approx:0.01', ref: 0 })).not.toBe(true);
    expect(matchValueRule(2, { method: 'range.te', ref: [0, 2] })).toBe(true);
    expect(matchValueRule(0, { method: 'range.te', ref: [0, 2] })).not.toBe(true);
    expect(matchValueRule('"Pass,Fail,Held"', { method: 'str_set_eq', ref: ['Held', 'Fail', 'Pass'] })).toBe(
      true,
    );
    expect(
      matchValueRule('"Pass,Fail,Held"', { method: 'str_list_eq', ref: ['Held', 'Fail', 'Pass'] }),
    ).not.toBe(true);
    const sqref = CellRanges.parse('D2:D29 F1') as CellRanges;
    expect(matchValueRule(sqref, { method: 'spreadsheet_range', ref: ['D2:D29', 'A1:F1048576'] })).toBe(true);
    expect(matchValueRule(sqref, { method: 'spreadsheet_range', ref: ['D2:D29', 'D1:D1048576'] })).not.toBe(
      true,
    );
    expect(matchValueRule(sqref, { method: 'eq', ref: 'F1 D2:D29' })).toBe(true);
    expect(matchValueRule(1, { method: 'in', ref: [1] })).toMatch(/unknown method 'in'/);
  });
});

describe('sheet reading helpers', () => {
  it("prints floats as Python's repr", () => {
    expect([5, 0.1, 120.5, -3, 1e16, 1.5e-5, 0.0001, 123456789012345680].map(floatRepr)).toEqual([
      '5.0',
      '0.1',
      '120.5',
      '-3.0',
      '1e+16',
      '1.5e-05',
      '0.0001',
      '1.2345678901234568e+17',
    ]);
  });

  it("scores like rapidfuzz's fuzz.ratio", () => {
    expect(fuzzRatio('', '')).toBe(100);
    expect(fuzzRatio('abc', '')).toBe(0);
    expect(fuzzRatio('12 main rd', '12 main road')).toBeCloseTo(90.909, 2);
  });

  it("strips as Python's str.strip (a byte-order mark stays)", () => {
    expect(pyStrip(' \t a b\x85\x1c ')).toBe('a b');
    expect(pyStrip('\ufeffId,Name ')).toBe('\ufeffId,Name');
  });

  it('names printed sheets and walks ranges as upstream', () => {
    expect(printedSheetPath('/c/Book.v1.xlsx', 'Sheet1')).toBe('/c/Book.v1-Sheet1.csv');
    expect(rangeCells(['A1:B2', 'B2'])).toEqual(['A1', 'B1', 'A2', 'B2']);
    expect(rangeCells(['A1:?'])).toMatch(/not a cell range/);
  });
});

describe('rule shapes of real OSWorld Calc tasks', () => {
  // copied from the tasks' evaluator.options.rules
  const shapes: Record<string, Record<string, unknown>> = {
    '0bf05a7d': { type: 'sheet_print', sheet_idx0: 0, sheet_idx1: 'EI0' },
    '21df9241': { type: 'sheet_print', sheet_idx0: 'RNSheet1', sheet_idx1: 'ENSheet1', ignore_case: true },
    '6054afcb': { type: 'row_props', sheet_idx0: 0, sheet_idx1: 'EI0', props: ['hidden'] },
  };

  it('are known rule types and grade workbooks and printed sheets in the grading cache layout', async () => {
    for (const r of Object.values(shapes)) expect(Object.keys(tableRules)).toContain(r.type);
    const rows = [
      ['Id', 'New 7 Digit ID'],
      [7, '0000007'],
    ];
    const hide = (wb: ExcelJS.Workbook) => (wb.getWorksheet('Sheet1')!.getRow(2).hidden = true);
    const result = await writeXlsx(join(tmp.dir, 'Customers.xlsx'), {
      sheets: [['Sheet1', rows]],
      setup: hide,
    });
    const gold = await writeXlsx(join(tmp.dir, 'Customers_gold.xlsx'), {
      sheets: [['Sheet1', rows]],
      setup: hide,
    });
    writeFileSync(join(tmp.dir, 'Customers-Sheet1.csv'), 'Id,New 7 Digit ID\n7,0000007\n');
    writeFileSync(join(tmp.dir, 'Customers_gold-Sheet1.csv'), 'ID,New 7 Digit ID\r\n7,0000007\r\n\r\n');
    const csvs = [result, join(tmp.dir, 'Customers-Sheet1.csv')];
    expect((await runMetric('compare_table', csvs, gold, { rules: [shapes['21df9241']] })).score).toBe(1);
    expect((await runMetric('compare_table', csvs, gold, { rules: [shapes['0bf05a7d']] })).score).toBe(0);
    // a byte-order mark on one side only: upstream reads it as part of the first line
    writeFileSync(join(tmp.dir, 'Customers-Sheet1.csv'), '\ufeffID,New 7 Digit ID\n7,0000007\n');
    const bom = await runMetric('compare_table', csvs, gold, { rules: [shapes['0bf05a7d']] });
    expect(bom.score).toBe(0);
    expect(bom.reason).toMatch(/line 1 differs/);
    expect((await runMetric('compare_table', result, gold, { rules: [shapes['6054afcb']] })).score).toBe(1);
    const unhidden = await writeXlsx(join(tmp.dir, 'unhidden.xlsx'), { sheets: [['Sheet1', rows]] });
    expect((await runMetric('compare_table', unhidden, gold, { rules: [shapes['6054afcb']] })).score).toBe(0);
  });
});
