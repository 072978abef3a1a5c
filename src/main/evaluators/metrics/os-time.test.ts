// compare_time_in_speedtest_results and time_diff_range: the speedtest task's evaluator (vm_file with time_suffix,
// time_diff_range, the metric) over the local shell environment, and the metric's upstream quirks on CSV files.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getterNeedsOf, getters, metricFamilyOf } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);

/** `HH:MM` of the local clock `minutes` from now. */
const clock = (minutes = 0) => {
  const d = new Date(Date.now() + minutes * 60_000);
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
};
const csv = (name: string, text: string) => {
  const p = join(tmp.dir, name);
  writeFileSync(p, text);
  return p;
};
const header = 'ResultID,Date,ConnType,Download,Upload,Latency\n';

describe('compare_time_in_speedtest_results', () => {
  // The metric reads the clock: hold it at noon so no case straddles midnight
  beforeAll(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 23, 12, 0, 0));
  });
  afterAll(() => vi.useRealTimers());
  it('is in the os family, as time_diff_range', () => {
    expect(metricFamilyOf('compare_time_in_speedtest_results')).toBe('os');
    expect(getterNeedsOf('time_diff_range')).toEqual({ family: 'os', needs: [] });
  });

  it('a result measured now scores 1, one three hours away 0', async () => {
    expect(
      (
        await runMetric(
          'compare_time_in_speedtest_results',
          csv('now.csv', `${header}1,11/23/2026 ${clock()},WiFi,90.1,20.3,12\n`),
          '60',
        )
      ).score,
    ).toBe(1);
    const far = await runMetric(
      'compare_time_in_speedtest_results',
      csv('far.csv', `${header}1,11/23/2026 ${clock(-180)},WiFi,90.1,20.3,12\n`),
      '60',
    );
    expect(far.score).toBe(0);
    expect(far.reason).toMatch(/not < 60/);
    // int(' 60 ') is 60; a tolerance Python's int() refuses scores 0
    expect(
      (
        await runMetric(
          'compare_time_in_speedtest_results',
          csv('now2.csv', `${header}1,${clock()},x\n`),
          ' 60 ',
        )
      ).score,
    ).toBe(1);
    expect(
      (
        await runMetric(
          'compare_time_in_speedtest_results',
          csv('now3.csv', `${header}1,${clock()},x\n`),
          '60.5',
        )
      ).score,
    ).toBe(0);
  });

  it("keeps upstream's reading: a quoted field, a field ending its line, one line only or no path score 0", async () => {
    expect(
      (
        await runMetric(
          'compare_time_in_speedtest_results',
          csv('quoted.csv', `${header}1,"11/23/2026 ${clock()}",WiFi\n`),
          '60',
        )
      ).score,
    ).toBe(0);
    expect(
      (
        await runMetric(
          'compare_time_in_speedtest_results',
          csv('last.csv', `ResultID,Date\n1,11/23/2026 ${clock()}\n`),
          '60',
        )
      ).score,
    ).toBe(0);
    // ... but the same line without its newline (the file's end) is read
    expect(
      (
        await runMetric(
          'compare_time_in_speedtest_results',
          csv('end.csv', `ResultID,Date\r\n1,11/23/2026 ${clock()}`),
          '60',
        )
      ).score,
    ).toBe(1);
    expect((await runMetric('compare_time_in_speedtest_results', csv('one.csv', header), '60')).score).toBe(
      0,
    );
    expect((await runMetric('compare_time_in_speedtest_results', undefined, '60')).score).toBe(0);
  });
});

describe('the speedtest evaluator over the local shell environment', () => {
  let env: ShellEnvironment;
  let ctx: GradingContext;
  beforeAll(async () => {
    env = await createShellEnvironment();
    ctx = {
      env,
      task: { dir: tmp.dir, file: join(tmp.dir, 't.json') } as Task,
      cacheDir: join(tmp.dir, 'cache'),
    };
  });
  afterAll(async () => env?.close());

  it('vm_file (time_suffix) and time_diff_range feed the metric as in task 26660ad1', async () => {
    const result = {
      type: 'vm_file',
      path: '/home/user/Test/Speed/Speedtest Results Export-.csv',
      dest: 'Speedtest Results Export-.csv',
      time_suffix: true,
    };
    expect(await getters.require('vm_file')(result, ctx)).toBeUndefined();
    await env.putFile(result.path, Buffer.from(`${header}42,11/23/2026 ${clock()},WiFi,88.2,19.9,14\n`));
    const file = await getters.require('vm_file')(result, ctx);
    const tolerance = await getters.require('time_diff_range')(
      { type: 'time_diff_range', diff_range_in_minutes: '60' },
      ctx,
    );
    expect(tolerance).toBe('60');
    expect(await getters.require('time_diff_range')({ type: 'time_diff_range' }, ctx)).toBeUndefined();
    expect((await runMetric('compare_time_in_speedtest_results', file, tolerance)).score).toBe(1);
  });
});
