// Spider2-V excel tasks that grade charts and pivot tables, graded end to end: the real task file (its
// evaluator as written), a gold workbook built next to it, the result put in a shell environment's home.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { loadTasks } from '../../tasks/reader';
import { gradeTask } from '../grade';
import { runMetric, spider2vExamples, tempDir } from '../testing/fixtures';
import { writeXlsx, type BookSpec, type ChartSpec, type PivotSpec } from '../testing/xlsx-parts';

const tmp = tempDir();
afterAll(tmp.cleanup);

// "In a new sheet named Sheet2 … pivot table … revenue sum for each product … horizontal bar chart …
// title 'Revenue of Each Product' and remove the legend." Rules: sheet_data, chart, pivot_table on Sheet2.
const SUMMER = '0f0ee112-c8e2-4827-8324-398aa32432e8';
// "Summarize the revenue sum for each product in a new sheet as a pivot table and plot a pie chart …
// legend on the right." Rules: chart (type, legend) and pivot_table on sheet index 1.
const PIE = 'b6e9778c-11b3-455f-b720-655048787484';
const taskFile = (id: string) => join(spider2vExamples, 'excel', id, `${id}.json`);
const haveFixtures = existsSync(taskFile(SUMMER)) && existsSync(taskFile(PIE));

const sheet1 = [
  ['Product', 'Units', 'Revenue'],
  ['Sunscreen', 10, 150],
  ['Sandals', 4, 120],
  ['Sunscreen', 6, 90],
  ['Hat', 5, 75],
  ['Sandals', 2, 60],
];
const sheet2 = [
  ['Summer sales ($)'],
  ['Product', 'Sum - Revenue'],
  ['Hat', 75],
  ['Sandals', 180],
  ['Sunscreen', 240],
  ['Total Result', 495],
];
const pivot: PivotSpec = {
  sheet: 'Sheet2',
  sourceSheet: 'Sheet1',
  ref: 'A1:C6',
  fields: [{ items: [0, 1, 2] }, {}, {}],
  rows: [0],
  data: [{ fld: 2, subtotal: 'sum', name: 'Sum - Revenue' }],
  location: 'A2:B6',
};
const bar: ChartSpec = {
  sheet: 'Sheet2',
  type: 'barChart',
  barDir: 'bar',
  series: [{ val: 'Sheet2!$B$3:$B$5', cat: 'Sheet2!$A$3:$A$5', tx: 'Sheet2!$B$2' }],
  title: 'Revenue of Each Product',
  legend: null,
};
const summer = (change: Partial<BookSpec> = {}): BookSpec => ({
  sheets: [
    ['Sheet1', sheet1],
    ['Sheet2', sheet2],
  ],
  charts: [bar],
  pivots: [pivot],
  ...change,
});

describe.skipIf(!haveFixtures)('Spider2-V excel tasks with chart and pivot_table rules', () => {
  let env: ShellEnvironment;
  let n = 0;
  beforeEach(async () => {
    env = await createShellEnvironment();
  });
  afterEach(async () => env.close());

  /** The real task file copied into a task folder with the gold workbook it names; the loaded task. */
  async function summerTask() {
    const dir = join(tmp.dir, 'examples', 'excel', SUMMER);
    mkdirSync(dir, { recursive: true });
    copyFileSync(taskFile(SUMMER), join(dir, `${SUMMER}.json`));
    await writeXlsx(join(dir, 'gold_EntireSummerSales.xlsx'), summer());
    const { tasks, problems } = await loadTasks([dir]);
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    return tasks[0];
  }
  async function grade(result: BookSpec) {
    const task = await summerTask();
    const path = await writeXlsx(join(tmp.dir, `result-${++n}.xlsx`), result);
    await env.putFile('/home/user/EntireSummerSales.xlsx', readFileSync(path));
    return gradeTask(task, { env, task, cacheDir: join(tmp.dir, `cache-${n}`), lastAction: 'DONE' });
  }

  it(`${SUMMER.slice(0, 8)}: the task's own rules (sheet_data, chart, pivot_table) pass for a matching workbook`, async () => {
    const task = await summerTask();
    expect(task.checks.map((c) => c.metric)).toEqual(['compare_table']);
    const rules = task.checks[0].options.rules as Array<{ type: string }>;
    expect(rules.map((r) => r.type)).toEqual(['sheet_data', 'chart', 'pivot_table']);
    // Built separately: another pivot table name, another chart position, no series name.
    const v = await grade(
      summer({
        charts: [{ ...bar, anchor: [3, 1, 10, 18], series: [{ ...bar.series[0], tx: undefined }] }],
        pivots: [{ ...pivot, name: 'DataPilot1' }],
      }),
    );
    expect(v.reason ?? v.metrics[0]?.reason).not.toMatch(/unknown rule type/);
    expect(v.metrics[0].reason).toContain('all 3 rules hold (sheet_data, chart, pivot_table)');
    expect(v.score).toBe(1);
  });

  it(`${SUMMER.slice(0, 8)}: a kept legend, a line chart or a missing pivot table score 0, each for its reason`, async () => {
    const legend = await grade(summer({ charts: [{ ...bar, legend: 'r' }] }));
    expect(legend.score).toBe(0);
    expect(legend.metrics[0].reason).toMatch(
      /rule 1 \(chart\): .*legend is "r" in result 'Sheet2', null in expected 'Sheet2'/,
    );
    const line = await grade(summer({ charts: [{ ...bar, type: 'lineChart' }] }));
    expect(line.metrics[0].reason).toMatch(/rule 1 \(chart\): .*type is "lineChart"/);
    const noPivot = await grade(summer({ pivots: [] }));
    expect(noPivot.score).toBe(0);
    expect(noPivot.metrics[0].reason).toMatch(/rule 2 \(pivot_table\): 0 pivot table\(s\) vs 1/);
  });

  it(`${PIE.slice(0, 8)}: its rules on sheet index 1 tell a right-legend pie over summed revenue from a count`, async () => {
    const { evaluator } = JSON.parse(readFileSync(taskFile(PIE), 'utf8')) as {
      evaluator: { func: string; options: Record<string, unknown> };
    };
    expect(evaluator.func).toBe('compare_table');
    const pie: ChartSpec = { ...bar, type: 'pieChart', barDir: undefined, title: null, legend: 'r' };
    const gold = await writeXlsx(join(tmp.dir, 'pie-gold.xlsx'), summer({ charts: [pie] }));
    const same = await writeXlsx(
      join(tmp.dir, 'pie-same.xlsx'),
      summer({ charts: [{ ...pie, title: 'Revenue' }] }),
    );
    expect((await runMetric('compare_table', same, gold, evaluator.options)).score).toBe(1);
    const count = await writeXlsx(
      join(tmp.dir, 'pie-count.xlsx'),
      summer({ charts: [pie], pivots: [{ ...pivot, data: [{ fld: 2, subtotal: 'count' }] }] }),
    );
    const c = await runMetric('compare_table', count, gold, evaluator.options);
    expect(c.score).toBe(0);
    expect(c.reason).toContain('rule 1 (pivot_table)');
    expect(c.reason).toContain('"subtotal":"count"');
    const legendBottom = await writeXlsx(
      join(tmp.dir, 'pie-bottom.xlsx'),
      summer({ charts: [{ ...pie, legend: 'b' }] }),
    );
    expect((await runMetric('compare_table', legendBottom, gold, evaluator.options)).reason).toContain(
      'legend is "b"',
    );
  });
});
