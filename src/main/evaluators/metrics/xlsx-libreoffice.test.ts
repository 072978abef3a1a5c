// compare_table's chart and pivot_table rules on workbooks saved by the real LibreOffice Calc: the agent's
// workbook and the gold one both as Calc writes them (its own chart and pivot parts, not the test's writer's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasLibreOffice } from '../testing/libreoffice';
import { runMetric, tempDir } from '../testing/fixtures';
import { resaveWithCalc, salesRows, type ChartSpec, type PivotSpec } from '../testing/xlsx-parts';
import { loadSheetCharts } from './xlsx-charts';
import { loadSheetPivots } from './xlsx-pivots';
import { XlsxPackage } from './xlsx-package';

const tmp = tempDir();
afterAll(tmp.cleanup);

const sales = salesRows;
const revenueBar: ChartSpec = {
  sheet: 'Sheet2',
  type: 'barChart',
  barDir: 'col',
  series: [{ val: 'Sheet1!$C$2:$C$5', cat: 'Sheet1!$B$2:$B$5', tx: 'Sheet1!$C$1' }],
  title: 'Revenue per product',
  legend: 'r',
};
const byProduct: PivotSpec = {
  sheet: 'Sheet2',
  sourceSheet: 'Sheet1',
  ref: 'A1:D5',
  fields: [{ items: [0, 1, 2] }, { items: [0, 1, 2] }, {}, {}],
  rows: [1],
  pages: [0],
  data: [{ fld: 2, subtotal: 'sum', name: 'Sum - Revenue' }],
  location: 'A20:B24',
};

/** Workbooks written by the test, then opened and saved again by LibreOffice Calc in one soffice call. */
let saved: Record<string, string> = {};
beforeAll(async () => {
  if (!hasLibreOffice) return;
  const books: Record<string, { charts: ChartSpec[]; pivots: PivotSpec[] }> = {
    gold: { charts: [revenueBar], pivots: [byProduct] },
    same: { charts: [{ ...revenueBar, anchor: [0, 30, 6, 45] }], pivots: [byProduct] },
    line: { charts: [{ ...revenueBar, type: 'lineChart' }], pivots: [byProduct] },
    region: { charts: [revenueBar], pivots: [{ ...byProduct, rows: [0], pages: [1] }] },
  };
  saved = await resaveWithCalc(
    tmp.dir,
    Object.fromEntries(
      Object.entries(books).map(([name, b]) => [
        name,
        {
          sheets: [
            ['Sheet1', sales],
            ['Sheet2', [['Summary']]],
          ],
          ...b,
        },
      ]),
    ),
  );
}, 200_000);

const chartRule = (chart_props: string[]) => ({
  rules: [{ type: 'chart', sheet_idx0: 'RNSheet2', sheet_idx1: 'ENSheet2', chart_props }],
});
const pivotRule = (pivot_props: string[]) => ({
  rules: [{ type: 'pivot_table', sheet_idx0: 'RNSheet2', sheet_idx1: 'ENSheet2', pivot_props }],
});

describe.skipIf(!hasLibreOffice)('compare_table on workbooks LibreOffice Calc saved', () => {
  it('reads the chart and the pivot table as Calc writes them', async () => {
    const pkg = (await XlsxPackage.open(saved.gold)) as XlsxPackage;
    const sheet = (await pkg.sheets()).find((s) => s.name === 'Sheet2')!;
    const charts = await loadSheetCharts(
      { pkg, sheet, side: 'expected' },
      new Set(['type', 'title', 'legend', 'direction']),
    );
    expect(charts).toHaveLength(1);
    expect(charts[0].props).toMatchObject({
      type: 'barChart',
      title: 'Revenue per product',
      direction: 'col',
    });
    expect(charts[0].key).toContain('$C$2:$C$5');
    const pivots = await loadSheetPivots(
      { pkg, sheet, side: 'expected' },
      new Set(['row_fields', 'data_fields', 'filter']),
    );
    expect(pivots).toHaveLength(1);
    expect(pivots[0].key).toBe('worksheet;Sheet1!A1:B5');
    expect(pivots[0].props).toMatchObject({
      row_fields: [1],
      filter_fields: [0],
      data_fields: [{ field: 2, subtotal: 'sum' }],
    });
  });

  it('scores the same chart and pivot 1, another chart type or pivot row field 0', async () => {
    const chartProps = ['type', 'title', 'legend', 'direction'];
    const pivotProps = ['col_fields', 'filter', 'row_fields', 'data_fields'];
    expect((await runMetric('compare_table', saved.same, saved.gold, chartRule(chartProps))).score).toBe(1);
    expect((await runMetric('compare_table', saved.same, saved.gold, pivotRule(pivotProps))).score).toBe(1);
    const line = await runMetric('compare_table', saved.line, saved.gold, chartRule(chartProps));
    expect(line.score).toBe(0);
    expect(line.reason).toMatch(/lineChart/);
    const region = await runMetric('compare_table', saved.region, saved.gold, pivotRule(pivotProps));
    expect(region.score).toBe(0);
    expect(region.reason).toMatch(/row_fields|filter/);
  });
});
