import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import JSZip from 'jszip';
import { runMetric, tempDir } from '../testing/fixtures';
import { writeXlsx, type ChartSpec } from '../testing/xlsx-parts';
import { loadSheetCharts } from './xlsx-charts';
import { XlsxPackage } from './xlsx-package';

const tmp = tempDir();
afterAll(tmp.cleanup);

const data: Array<[string, unknown[][]]> = [
  [
    'Sheet1',
    [
      ['Product', 'Revenue', 'Units'],
      ['Apples', 120, 10],
      ['Pears', 80, 7],
      ['Plums', 45, 3],
    ],
  ],
  ['Sheet2', [['Summary']]],
];
const revenueBar: ChartSpec = {
  sheet: 'Sheet2',
  type: 'barChart',
  barDir: 'bar',
  series: [{ val: 'Sheet1!$B$2:$B$4', cat: 'Sheet1!$A$2:$A$4', tx: 'Sheet1!$B$1' }],
  title: 'Revenue of Each Product',
  legend: null,
};
let n = 0;
const book = (charts: ChartSpec[]) =>
  writeXlsx(join(tmp.dir, `charts-${++n}.xlsx`), { sheets: data, charts });
const rule = (chart_props: string[], extra: Record<string, unknown> = {}) => ({
  rules: [{ type: 'chart', sheet_idx0: 'RNSheet2', sheet_idx1: 'ENSheet2', chart_props, ...extra }],
});
const all = ['type', 'title', 'legend', 'direction', 'xtitle', 'ytitle'];

describe('compare_table chart rule', () => {
  it('passes for the same chart built separately, whatever its place and series name', async () => {
    const gold = await book([revenueBar]);
    const res = await book([
      { ...revenueBar, anchor: [0, 20, 6, 35], series: [{ ...revenueBar.series[0], tx: undefined }] },
    ]);
    const r = await runMetric('compare_table', res, gold, rule(all));
    expect(r.reason).toContain('all 1 rules hold');
    expect(r.score).toBe(1);
  });

  it('fails on another chart type, naming the property and both values', async () => {
    const gold = await book([revenueBar]);
    const res = await book([{ ...revenueBar, type: 'lineChart' }]);
    const r = await runMetric('compare_table', res, gold, rule(['type']));
    expect(r.score).toBe(0);
    expect(r.reason).toMatch(/type is "lineChart" in result 'Sheet2', "barChart" in expected 'Sheet2'/);
    // The type is only compared when asked for: the same series with only `title` passes.
    expect((await runMetric('compare_table', res, gold, rule(['title']))).score).toBe(1);
  });

  it('fails on a different series range, listing the ranges each side has', async () => {
    const gold = await book([revenueBar]);
    const res = await book([
      { ...revenueBar, series: [{ val: 'Sheet1!$C$2:$C$4', cat: 'Sheet1!$A$2:$A$4' }] },
    ]);
    const r = await runMetric('compare_table', res, gold, rule(['type']));
    expect(r.score).toBe(0);
    expect(r.reason).toContain("expected 'Sheet2' has charts over [Sheet1!$B$2:$B$4,Sheet1!$A$2:$A$4]");
    expect(r.reason).toContain("result 'Sheet2' has charts over [Sheet1!$C$2:$C$4,Sheet1!$A$2:$A$4]");
    // Categories are part of the key too.
    const noCats = await book([{ ...revenueBar, series: [{ val: 'Sheet1!$B$2:$B$4' }] }]);
    expect((await runMetric('compare_table', noCats, gold, rule(['type']))).score).toBe(0);
  });

  it('fails when the result has no chart, and when it has an extra one', async () => {
    const gold = await book([revenueBar]);
    const none = await book([]);
    const r = await runMetric('compare_table', none, gold, rule(['type']));
    expect(r.score).toBe(0);
    expect(r.reason).toContain('0 chart(s) vs 1');
    const extra = await book([
      revenueBar,
      { ...revenueBar, type: 'pieChart', series: [{ val: 'Sheet1!$C$2:$C$4', cat: 'Sheet1!$A$2:$A$4' }] },
    ]);
    const e = await runMetric('compare_table', extra, gold, rule(['type']));
    expect(e.score).toBe(0);
    expect(e.reason).toContain('2 chart(s) vs 1');
    // Both sheets without charts are equal.
    expect((await runMetric('compare_table', none, none, rule(['type']))).score).toBe(1);
  });

  it('compares title text across runs, legend presence and position, bar direction and axis titles', async () => {
    const gold = await book([{ ...revenueBar, xTitle: 'Product', yTitle: 'USD' }]);
    const same = await book([
      { ...revenueBar, title: ['Revenue of ', 'Each Product'], xTitle: 'Product', yTitle: 'USD' },
    ]);
    expect((await runMetric('compare_table', same, gold, rule(all))).score).toBe(1);
    const cases: Array<[Partial<ChartSpec>, RegExp]> = [
      [{ title: 'Revenue' }, /title is "Revenue"/],
      [{ title: null }, /title is null/],
      [{ legend: 'r' }, /legend is "r" in result/],
      [{ barDir: 'col' }, /direction is "col"/],
      [{ yTitle: 'EUR', xTitle: 'Product' }, /ytitle is "EUR"/],
      [{ xTitle: undefined, yTitle: 'USD' }, /xtitle is null/],
    ];
    for (const [change, reason] of cases) {
      const res = await book([{ ...revenueBar, xTitle: 'Product', yTitle: 'USD', ...change }]);
      const r = await runMetric('compare_table', res, gold, rule(all));
      expect(r.score, JSON.stringify(change)).toBe(0);
      expect(r.reason).toMatch(reason);
    }
    // A legend that names no position sits on the right, as the schema's default says.
    const right = await book([{ ...revenueBar, legend: 'r' }]);
    const unplaced = await book([{ ...revenueBar, legend: '' }]);
    expect((await runMetric('compare_table', unplaced, right, rule(['legend']))).score).toBe(1);
  });

  it('reads anchor and size from the drawing and keys scatter series on their X and Y ranges', async () => {
    const scatter: ChartSpec = {
      sheet: 'Sheet2',
      type: 'scatterChart',
      series: [{ val: 'Sheet1!$B$2:$B$4', cat: 'Sheet1!$C$2:$C$4' }],
      xTitle: 'Units',
    };
    const path = await book([{ ...scatter, anchor: [1, 2, 7, 18] }]);
    const pkg = (await XlsxPackage.open(path)) as XlsxPackage;
    const sheet = (await pkg.sheets())[1];
    const charts = await loadSheetCharts(
      { pkg, sheet, side: 'result' },
      new Set(['type', 'anchor', 'width', 'height', 'xtitle', 'direction']),
    );
    expect(charts).toEqual([
      {
        key: 'Sheet1!$B$2:$B$4,Sheet1!$C$2:$C$4',
        props: {
          type: 'scatterChart',
          anchor: ['oneCell', 1, 2, 7, 18],
          width: 15,
          height: 7.5,
          xtitle: 'Units',
          direction: null,
        },
      },
    ]);
    const otherY = await book([
      { ...scatter, series: [{ val: 'Sheet1!$C$2:$C$4', cat: 'Sheet1!$B$2:$B$4' }] },
    ]);
    expect((await runMetric('compare_table', otherY, path, rule(['type']))).score).toBe(0);
  });

  it('resolves sheet indices like the other rules and rejects what it cannot check', async () => {
    const gold = await book([revenueBar]);
    const byIndex = { rules: [{ type: 'chart', sheet_idx0: 1, sheet_idx1: 'EI1', chart_props: ['type'] }] };
    expect((await runMetric('compare_table', gold, gold, byIndex)).score).toBe(1);
    const sheet1 = {
      rules: [{ type: 'chart', sheet_idx0: 'RI0', sheet_idx1: 'EI1', chart_props: ['type'] }],
    };
    expect((await runMetric('compare_table', gold, gold, sheet1)).reason).toContain('0 chart(s) vs 1');
    const missing = await runMetric('compare_table', gold, gold, rule(['type'], { sheet_idx0: 'RNSheet9' }));
    expect(missing.score).toBe(0);
    expect(missing.reason).toMatch(
      /sheet_idx0: sheet RNSheet9 does not exist in the result workbook \(sheets: Sheet1, Sheet2\)/,
    );
    const typo = await runMetric('compare_table', gold, gold, rule(['tilte']));
    expect(typo.reason).toContain('unknown chart_props ["tilte"]');
    const noExpected = await runMetric('compare_table', gold, undefined, rule(['type']));
    expect(noExpected.reason).toContain('names the expected workbook, but there is none');
  });

  it('reports a chart part that is not XML, naming the file and the part', async () => {
    const gold = await book([revenueBar]);
    const zip = await JSZip.loadAsync(await (await import('node:fs/promises')).readFile(gold));
    zip.file('xl/charts/chart1.xml', '<c:chartSpace xmlns:c="x"><c:chart>');
    const broken = join(tmp.dir, 'broken-chart.xlsx');
    await writeFile(broken, await zip.generateAsync({ type: 'nodebuffer' }));
    const r = await runMetric('compare_table', broken, gold, rule(['type']));
    expect(r.score).toBe(0);
    expect(r.reason).toContain(`${broken}: part xl/charts/chart1.xml is not well-formed XML`);
  });
});
