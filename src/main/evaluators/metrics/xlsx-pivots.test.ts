import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runMetric, tempDir } from '../testing/fixtures';
import { salesRows, writeXlsx, type PivotSpec } from '../testing/xlsx-parts';
import { loadSheetPivots } from './xlsx-pivots';
import { XlsxPackage } from './xlsx-package';

const tmp = tempDir();
afterAll(tmp.cleanup);

const sales = salesRows;
// Revenue summed per product (rows), Region as a page filter, Units unused.
const bySum: PivotSpec = {
  sheet: 'Sheet2',
  sourceSheet: 'Sheet1',
  ref: 'A1:D5',
  fields: [{ items: [0, 1, 2] }, { items: [0, 1, 2] }, {}, {}],
  rows: [1],
  pages: [0],
  data: [{ fld: 2, subtotal: 'sum', name: 'Sum - Revenue' }],
};
let n = 0;
const book = (pivots: PivotSpec[]) =>
  writeXlsx(join(tmp.dir, `pivots-${++n}.xlsx`), {
    sheets: [
      ['Sheet1', sales],
      ['Sheet2', [['Summer sales ($)']]],
    ],
    pivots,
  });
const rule = (pivot_props: string[]) => ({
  rules: [{ type: 'pivot_table', sheet_idx0: 'RNSheet2', sheet_idx1: 'ENSheet2', pivot_props }],
});
const spider = ['col_fields', 'filter', 'row_fields', 'data_fields'];

async function pivotsOf(path: string, props: string[]) {
  const pkg = (await XlsxPackage.open(path)) as XlsxPackage;
  const sheet = (await pkg.sheets()).find((s) => s.name === 'Sheet2')!;
  return loadSheetPivots({ pkg, sheet, side: 'result' }, new Set(props));
}

describe('compare_table pivot_table rule', () => {
  it('reads source, fields, aggregation and filter from the pivot table and its cache', async () => {
    const path = await book([bySum]);
    expect(await pivotsOf(path, [...spider, 'name', 'location', 'data_fields_name'])).toEqual([
      {
        // Revenue (C, a data field) and Units (D, unused) have no items and sit at the right edge: the
        // range is trimmed to the fields with items, as upstream does.
        key: 'worksheet;Sheet1!A1:B5',
        props: {
          name: 'PivotTable1',
          location: {
            ref: 'A3:B6',
            firstHeaderRow: 1,
            firstDataRow: 1,
            firstDataCol: 1,
            rowPageCount: 0,
            colPageCount: 0,
          },
          selection: [
            [
              [0, false],
              [1, false],
              [2, false],
            ],
            [
              [0, false],
              [1, false],
              [2, false],
            ],
          ],
          filter_fields: [0],
          col_fields: [],
          row_fields: [1],
          data_fields: [{ field: 2, name: 'Sum - Revenue', subtotal: 'sum', showDataAs: 'normal' }],
        },
      },
    ]);
  });

  it('passes for the same pivot table built separately (names, location and item order aside)', async () => {
    const gold = await book([bySum]);
    const res = await book([
      {
        ...bySum,
        name: 'DataPilot1',
        location: 'A2:B5',
        fields: [{ items: [2, 1, 0] }, { items: [1, 0, 2] }, {}, {}],
        data: [{ fld: 2 }],
      },
    ]);
    const r = await runMetric('compare_table', res, gold, rule(spider));
    expect(r.reason).toContain('all 1 rules hold');
    expect(r.score).toBe(1);
    // …but not when the name, the location or the item order is asked for.
    expect((await runMetric('compare_table', res, gold, rule(['name']))).reason).toMatch(
      /name is "DataPilot1" in result 'Sheet2', "PivotTable1" in expected 'Sheet2'/,
    );
    expect((await runMetric('compare_table', res, gold, rule(['location']))).score).toBe(0);
    expect((await runMetric('compare_table', res, gold, rule(['selection', 'ordered']))).score).toBe(0);
    expect((await runMetric('compare_table', res, gold, rule(['selection']))).score).toBe(1);
  });

  it('fails on another aggregation, naming data_fields', async () => {
    const gold = await book([bySum]);
    const res = await book([{ ...bySum, data: [{ fld: 2, subtotal: 'average' }] }]);
    const r = await runMetric('compare_table', res, gold, rule(spider));
    expect(r.score).toBe(0);
    expect(r.reason).toContain(
      'data_fields is [{"field":2,"subtotal":"average","showDataAs":"normal"}] in result',
    );
    const shown = await book([{ ...bySum, data: [{ fld: 2, showDataAs: 'percentOfTotal' }] }]);
    expect((await runMetric('compare_table', shown, gold, rule(['data_fields']))).score).toBe(0);
  });

  it('fails on a field moved from rows to columns, and on another filter or hidden item', async () => {
    const gold = await book([bySum]);
    const cols = await book([{ ...bySum, rows: [], cols: [1] }]);
    const r = await runMetric('compare_table', cols, gold, rule(spider));
    expect(r.score).toBe(0);
    expect(r.reason).toMatch(/col_fields is \[1\] in result 'Sheet2', \[\] in expected/);
    const noFilter = await book([{ ...bySum, pages: [] }]);
    expect((await runMetric('compare_table', noFilter, gold, rule(spider))).reason).toContain(
      'filter_fields is [] in result',
    );
    const hidden = await book([
      { ...bySum, fields: [{ items: [0, [1, true], 2] }, { items: [0, 1, 2] }, {}, {}] },
    ]);
    const h = await runMetric('compare_table', hidden, gold, rule(spider));
    expect(h.score).toBe(0);
    expect(h.reason).toContain('selection is');
    // Hidden items matter only through `filter` / `selection`.
    expect((await runMetric('compare_table', hidden, gold, rule(['row_fields', 'data_fields']))).score).toBe(
      1,
    );
  });

  it('keys on the source range: untouched edge columns are trimmed, other ranges differ', async () => {
    const gold = await book([bySum]);
    // A selection one column wider (E, empty and unused) is the same source once trimmed.
    const wider = await book([{ ...bySum, ref: 'A1:E5', fields: [...bySum.fields, {}] }]);
    expect((await runMetric('compare_table', wider, gold, rule(spider))).score).toBe(1);
    const shorter = await book([{ ...bySum, ref: 'A1:D4' }]);
    const r = await runMetric('compare_table', shorter, gold, rule(spider));
    expect(r.score).toBe(0);
    expect(r.reason).toContain("expected 'Sheet2' has pivot tables over [worksheet;Sheet1!A1:B5]");
    expect(r.reason).toContain("result 'Sheet2' has pivot tables over [worksheet;Sheet1!A1:B4]");
  });

  it('trims leading unused columns from field numbers too, leaving the Σ Values field (-2) alone', async () => {
    // Gold: source B1:D5 (Product, Revenue, Units); result: A1:D5 with the unused Region column first.
    const gold = await book([
      {
        ...bySum,
        ref: 'B1:D5',
        fields: [{ items: [0, 1, 2] }, {}, {}],
        rows: [0],
        cols: [-2],
        pages: [],
        data: [{ fld: 1 }, { fld: 2, subtotal: 'count' }],
      },
    ]);
    const res = await book([
      {
        ...bySum,
        fields: [{}, { items: [0, 1, 2] }, {}, {}],
        rows: [1],
        cols: [-2],
        pages: [],
        data: [{ fld: 2 }, { fld: 3, subtotal: 'count' }],
      },
    ]);
    const props = ['col_fields', 'row_fields', 'data_fields'];
    expect(await pivotsOf(res, props)).toEqual(await pivotsOf(gold, props));
    expect((await pivotsOf(res, props))[0].props.col_fields).toEqual([-2]);
    expect((await pivotsOf(res, [...props, 'ignore_special_fields']))[0].props.col_fields).toEqual([]);
    expect((await runMetric('compare_table', res, gold, rule(props))).score).toBe(1);
  });

  it('fails when the result has no pivot table or an extra one; finds caches linked only from the workbook', async () => {
    const gold = await book([bySum]);
    const none = await book([]);
    const r = await runMetric('compare_table', none, gold, rule(spider));
    expect(r.score).toBe(0);
    expect(r.reason).toContain('0 pivot table(s) vs 1');
    const extra = await book([bySum, { ...bySum, ref: 'A1:D3', name: 'PivotTable2', location: 'E3:F6' }]);
    expect((await runMetric('compare_table', extra, gold, rule(spider))).reason).toContain(
      '2 pivot table(s) vs 1',
    );
    const viaWorkbook = await book([{ ...bySum, cacheViaWorkbookOnly: true }]);
    expect((await runMetric('compare_table', viaWorkbook, gold, rule(spider))).score).toBe(1);
    expect((await runMetric('compare_table', gold, gold, rule(['selction']))).reason).toContain(
      'unknown pivot_props ["selction"]',
    );
  });
});
