// compare_csv as each benchmark grades it. Spider2-V and OSWorld compare text lines; the native format's own
// evaluator reads both files as pandas frames. The robust variant (table.ts) parses CSV and is the second opinion.
import { csvRecords } from './csv-records';
import { fail, pass, type MetricOutcome } from '../metric';
import { registerDeparture, variants } from '../profile';
import { brief, readBytes } from './inputs';
import {
  frameOf,
  framesEqual,
  mapStrings,
  pyStrip,
  pySplitLines,
  sortColumns,
  sortRows,
  type Frame,
} from './pandas-frame';

const bytesOf = readBytes;

/** Strict UTF-8 that keeps a byte-order mark as a character (Python's `encoding='utf-8'`); undefined if invalid. */
export function utf8Strict(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Python's latin-1: every byte is the code point of the same number. */
function latin1(bytes: Buffer): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}

/** Lines compared as Spider2-V / OSWorld do: `strip` each when not strict, `lower` when ignoring case, and
 * (Spider2-V only) `sorted` when ignoring order. */
function prepareLines(lines: string[], options: Record<string, unknown>, sortable: boolean): string[] {
  let out = lines;
  if (options.strict === false) out = out.map(pyStrip);
  if (options.ignore_case) out = out.map((l) => l.toLowerCase());
  if (sortable && options.ignore_order) out = [...out].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return out;
}

function compareLines(a: string[], b: string[]): MetricOutcome {
  if (a.length === b.length && a.every((l, i) => l === b[i]))
    return pass(`all ${a.length} lines are equal as text`);
  const i = a.findIndex((l, k) => l !== b[k]);
  const at = i < 0 ? Math.min(a.length, b.length) : i;
  return fail(
    `line ${at + 1} differs as text: got ${a[at] === undefined ? 'no line' : `'${brief(a[at])}'`}, expected ${b[at] === undefined ? 'no line' : `'${brief(b[at])}'`} (${a.length} vs ${b.length} lines)`,
  );
}

/**
 * compare_csv, Spider2-V: both files read as UTF-8 text (a byte-order mark stays part of the first line),
 * split with Python's `splitlines`, and compared as lists of lines. `strict: false` strips each line (not each
 * cell), `ignore_case` lowers, `ignore_order` sorts the lines. So quoting, blank lines and spacing all count.
 */
async function compareCsvSpider2v(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (result === undefined || result === null) return fail('no result file');
  const ra = await bytesOf(result);
  const rb = await bytesOf(expected);
  if (!ra) return fail(`result file ${brief(result)} cannot be read`);
  if (!rb) return fail(`expected file ${brief(expected)} cannot be read`);
  const a = utf8Strict(ra);
  const b = utf8Strict(rb);
  if (a === undefined) return fail('result file is not UTF-8 (Spider2-V reads it as UTF-8 and fails)');
  if (b === undefined) return fail('expected file is not UTF-8');
  return compareLines(
    prepareLines(pySplitLines(a), options, true),
    prepareLines(pySplitLines(b), options, true),
  );
}

/** OSWorld's file reading: UTF-8 (the mark kept), then UTF-8 with the mark dropped, then latin-1, which
 * always succeeds — so in effect UTF-8 when valid, else latin-1. */
function osworldText(bytes: Buffer): string {
  return utf8Strict(bytes) ?? latin1(bytes);
}

/**
 * compare_csv, OSWorld: as Spider2-V, but the files are read with its encoding fallbacks, `expected` may be a
 * list of files (1 when any matches) and there is no `ignore_order`.
 */
async function compareCsvOsworld(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (result === undefined || result === null) return fail('no result file');
  const ra = await bytesOf(result);
  if (!ra) return fail(`result file ${brief(result)} cannot be read`);
  const lines = prepareLines(pySplitLines(osworldText(ra)), options, false);
  const candidates = Array.isArray(expected) ? expected : [expected];
  let last: MetricOutcome = fail('no expected file could be read');
  for (const [i, e] of candidates.entries()) {
    const rb = await bytesOf(e);
    if (!rb) continue;
    const outcome = compareLines(lines, prepareLines(pySplitLines(osworldText(rb)), options, false));
    if (outcome.score === 1)
      return candidates.length > 1
        ? pass(`${outcome.reason} (expected file ${i + 1} of ${candidates.length})`)
        : outcome;
    last = outcome;
  }
  return last;
}

/** pandas.read_csv with its defaults: UTF-8 (a leading mark skipped), quotes honoured, blank lines skipped,
 * the first row as header, types inferred per column. */
export function readCsvFrame(bytes: Buffer): Frame | string {
  const text = utf8Strict(bytes);
  if (text === undefined) return "'utf-8' codec can't decode the file";
  const rows = csvRecords(text);
  if (typeof rows === 'string') return rows;
  try {
    return frameOf(rows);
  } catch (e) {
    return (e as Error).message;
  }
}

/**
 * compare_csv, native: both files read with pandas `read_csv`, columns sorted by name, strings stripped when
 * `strict` is false and lowered with `ignore_case`, rows sorted by every column with `ignore_order`, then
 * `DataFrame.equals` — same labels, same column types (`10` and `10.0` differ: int64 vs float64), same values.
 * So quoting, a byte-order mark, blank lines and spaces before numbers do not count; column order does not.
 */
async function compareCsvNative(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const ra = await bytesOf(result);
  const rb = await bytesOf(expected);
  if (!ra) return fail(`result file ${brief(result)} cannot be read`);
  if (!rb) return fail(`expected file ${brief(expected)} cannot be read`);
  let fa = readCsvFrame(ra);
  let fb = readCsvFrame(rb);
  if (typeof fa === 'string') return fail(`pandas cannot read the result: ${fa}`);
  if (typeof fb === 'string') return fail(`pandas cannot read the expected file: ${fb}`);
  fa = sortColumns(fa);
  fb = sortColumns(fb);
  if (options.strict === false) {
    fa = mapStrings(fa, pyStrip);
    fb = mapStrings(fb, pyStrip);
  }
  if (options.ignore_case) {
    fa = mapStrings(fa, (s) => s.toLowerCase());
    fb = mapStrings(fb, (s) => s.toLowerCase());
  }
  if (options.ignore_order) {
    try {
      fa = sortRows(fa);
      fb = sortRows(fb);
    } catch (e) {
      return fail(`sorting rows failed as in pandas: ${(e as Error).message}`);
    }
  }
  const eq = framesEqual(fa, fb);
  return eq === true
    ? pass(`frames are equal (${fa.rows} rows, ${fa.columns.length} columns)`)
    : fail(`frames differ: ${eq}`);
}

/** What makes a line comparison and a parsing comparison of two CSV texts disagree, first match wins. */
export async function diagnoseCsv(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<string | undefined> {
  const ra = await bytesOf(result);
  const rb = await bytesOf(Array.isArray(expected) ? expected[0] : expected);
  if (!ra || !rb) return undefined;
  if ((utf8Strict(ra) === undefined) !== (utf8Strict(rb) === undefined)) return 'text encoding (not UTF-8)';
  const a = ra.toString('utf8');
  const b = rb.toString('utf8');
  const bom = (s: string) => s.startsWith('\uFEFF');
  if (bom(a) !== bom(b)) return 'byte-order mark';
  const quoted = (s: string) => /(^|,)\s*"/m.test(s);
  if (quoted(a) !== quoted(b)) return 'quoted cells';
  const linesA = a.split(/\r\n|\r|\n/);
  const linesB = b.split(/\r\n|\r|\n/);
  const innerBlank = (ls: string[]) =>
    ls.slice(0, -1).some((l, i) => l.trim() === '' && ls.slice(i + 1).some((x) => x.trim() !== ''));
  if (innerBlank(linesA) !== innerBlank(linesB)) return 'blank line between records';
  const trailingBlank = (s: string) => /(\r\n|\r|\n)[ \t]*(\r\n|\r|\n)\s*$/.test(s);
  if (trailingBlank(a) !== trailingBlank(b)) return 'trailing blank line';
  const spaced = (s: string) => /,[ \t]/.test(s) || /[ \t],/.test(s);
  if (spaced(a) !== spaced(b))
    return options.strict === false
      ? 'space after comma (strict: false strips lines, not cells)'
      : 'spaces around cells';
  const sortedLines = (ls: string[]) =>
    ls
      .filter((l) => l !== '')
      .sort()
      .join('\n');
  if (sortedLines(linesA) === sortedLines(linesB)) return 'row order';
  const header = (ls: string[]) => ls[0]?.split(',').map((h) => h.trim().replace(/^"|"$/g, '')) ?? [];
  const ha = header(linesA);
  const hb = header(linesB);
  if (ha.join(',') !== hb.join(',') && [...ha].sort().join(',') === [...hb].sort().join(','))
    return 'column order';
  if (/\d\.0*(,|$)/m.test(a) !== /\d\.0*(,|$)/m.test(b)) return 'number formatting';
  return 'cell text';
}

variants.register('compare_csv', {
  spider2v: compareCsvSpider2v,
  osworld: compareCsvOsworld,
  native: compareCsvNative,
  diagnose: diagnoseCsv,
});

registerDeparture({
  metric: 'compare_csv',
  profile: 'all',
  case: 'ignore_case on non-ASCII text',
  why: "Python's str.lower and JavaScript's toLowerCase apply the same Unicode lower-case mappings ('İ' and a final 'Σ' agree), but from different Unicode versions: Python 3.11 (Unicode 14) leaves the 55 capitals added since (e.g. U+1C89, U+A7CB, the Garay letters) unchanged, Node lowers them",
});
registerDeparture({
  metric: 'compare_csv',
  profile: 'native',
  case: 'data rows with one more field than the header',
  why: 'pandas then takes the first column as the index; Proctor reports the row as an error (score 0)',
});
registerDeparture({
  metric: 'compare_csv',
  profile: 'native',
  case: 'integers beyond 64 bits, thousands separators, dates in cells',
  why: 'pandas type inference (uint64, object, parse_dates off) is modelled for int64, float64, bool and text only',
});
