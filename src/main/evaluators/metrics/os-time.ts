// OSWorld's time metric (family `os`; desktop_env/evaluators/metrics/general.py): compare_time_in_speedtest_results,
// whether an exported speedtest.net result was measured within a tolerance of the grading time.
import { registerMetricFamily } from '../family';
import { fail, verdict, type MetricOutcome } from '../metric';
import { brief, readBytes } from './inputs';

/** Python's `int(v)` for what a task file can hold: an int, a float (truncated), a bool, or a string of digits
 * (blanks around, a sign, `_` between digits); undefined where Python raises. */
function pyInt(v: unknown): number | undefined {
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : undefined;
  if (typeof v !== 'string') return undefined;
  const m = /^\s*([+-]?\d+(?:_\d+)*)\s*$/.exec(v);
  return m ? Number(m[1].replace(/_/g, '')) : undefined;
}

/** Minutes since midnight of a text Python's `strptime(text, '%H:%M')` accepts (hours 0–23, minutes 0–59, one or
 * two digits each, nothing before or after); undefined where it raises. */
function clockMinutes(text: string): number | undefined {
  const m = /^(2[0-3]|[01]\d|\d):([0-5]\d|\d)$/i.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/**
 * compare_time_in_speedtest_results — `result`: the exported CSV (host path); `expected`: the tolerance in minutes
 * (time_diff_range's value, e.g. "60"). As OSWorld: the second line of the file is split on commas and the last five
 * characters of its second field are read as `HH:MM`; 1 when that clock time is less than the tolerance away from
 * the grading machine's local clock time (both on one day: 23:59 and 00:01 are 1438 minutes apart), else 0. A
 * missing path, a file with fewer than two lines or a second line without a comma, a field that does not end in
 * `H:MM`/`HH:MM` (e.g. a quoted one, or one ending the line with its newline), text that is not UTF-8, or a
 * tolerance Python's int() refuses: 0.
 */
async function compareTimeInSpeedtestResults(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!result) return fail('no speedtest results file');
  const bytes = await readBytes(result);
  if (!bytes) return fail(`file ${brief(result)} cannot be read`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail(`file ${brief(result)} is not UTF-8 text`);
  }
  // Python's text mode: universal newlines, each line keeping its '\n'
  const lines = text.replace(/\r\n?/g, '\n').split(/(?<=\n)/);
  if (lines.length < 2 || lines[1] === '') return fail('the file has no second line');
  const fields = lines[1].split(',');
  if (fields.length < 2) return fail(`the second line has no second field: '${brief(lines[1], 80)}'`);
  const clock = Array.from(fields[1]).slice(-5).join('');
  const at = clockMinutes(clock);
  if (at === undefined)
    return fail(`'${brief(clock)}' (the end of '${brief(fields[1], 80)}') is not an HH:MM time`);
  const now = new Date();
  const diff = Math.abs(at - (now.getHours() * 60 + now.getMinutes()));
  const tolerance = pyInt(expected);
  if (tolerance === undefined) return fail(`tolerance ${brief(expected)} is not an integer`);
  const hhmm = `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
  return verdict(
    diff < tolerance,
    `measured at ${clock}, ${diff} minutes from ${hhmm} (< ${tolerance})`,
    `measured at ${clock}, ${diff} minutes from ${hhmm} (not < ${tolerance})`,
  );
}

registerMetricFamily('os', { compare_time_in_speedtest_results: compareTimeInSpeedtestResults });
