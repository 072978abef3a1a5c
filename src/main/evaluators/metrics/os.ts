// OSWorld's general and OS metrics (family `os`): JSON / YAML / CSV / list files checked against rules, values in
// lists, text files, the time zone, SQLite queries, the accessibility tree (accessibility-tree.ts). Each follows
// OSWorld's own reading (desktop_env/evaluators/metrics/general.py and basic_os.py), quirks included and named in
// its doc comment.
import initSqlJs from 'sql.js';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { compilePython } from '../python/re';
import { registerPythonValued } from '../python/task-floats';
import { pyYamlLoad } from '../python/yaml';
import {
  isPyDict,
  pyCompare,
  pyEquals,
  pyIn,
  pyJsonParse,
  pyRepr,
  pyTruthy,
  pyTypeName,
} from '../python/value';
import { checkAccessibilityTree } from './accessibility-tree';
import { csvRecords } from './csv-records';
import { brief, isRecord, readBytes, readText } from './inputs';
import { pyStrip } from './python-text';
import { matchRule } from './rule-match';
// OSWorld's time metric, in its own module
import './os-time';

/**
 * OSWorld's `_match_value_to_rule` as a boolean (rule-match.ts, the one matcher). Where OSWorld raises, this throws
 * an Error with the reason (callers score 0); a pattern the Python layer cannot honour throws PythonPatternError.
 */
export function matchValueToRule(value: unknown, rule: Record<string, unknown>): boolean {
  const v = matchRule(value, rule);
  if (v.raises) throw new Error(v.reason);
  return v.ok;
}

function rulesOf(expected: unknown, key: string): Record<string, unknown>[] {
  const v = isRecord(expected) ? expected[key] : undefined;
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

/** Python's `value[k]` on a parsed document: the item, or how Python fails (KeyError / TypeError / IndexError). */
function pyIndex(
  value: unknown,
  k: unknown,
): { value: unknown } | { error: 'KeyError' | 'TypeError' | 'IndexError' } {
  const index = typeof k === 'boolean' ? Number(k) : k;
  if (Array.isArray(value) || typeof value === 'string') {
    if (typeof index !== 'number' || !Number.isInteger(index)) return { error: 'TypeError' };
    const items = typeof value === 'string' ? [...value] : value;
    const i = index < 0 ? items.length + index : index;
    return i >= 0 && i < items.length ? { value: items[i] } : { error: 'IndexError' };
  }
  if (isPyDict(value)) {
    if (typeof k === 'string' && Object.prototype.hasOwnProperty.call(value, k)) return { value: value[k] };
    return Array.isArray(k) || isPyDict(k) ? { error: 'TypeError' } : { error: 'KeyError' };
  }
  return { error: 'TypeError' };
}

/** The keys of a rule as Python iterates `r["key"]` (a str iterates its characters). */
function keyPath(r: Record<string, unknown>): unknown[] | undefined {
  const k = r.key;
  return Array.isArray(k) ? k : typeof k === 'string' ? [...k] : isRecord(k) ? Object.keys(k) : undefined;
}

/**
 * check_json — `result`: a JSON file (YAML with option `is_yaml`); `expected`: `{expect: [{key: [...], method,
 * ref}], unexpect: [...]}`. 1 when every `expect` rule's value (followed along `key`) matches and no `unexpect`
 * rule's does, with OSWorld's _match_value_to_rule (rule-match.ts: Python's ==, ordering and re). YAML is read as
 * PyYAML's safe_load reads it (YAML 1.1, python/yaml.ts). JSON and YAML numbers
 * keep Python's int / float distinction. A missing key in `expect` scores 0; in `unexpect` the value is None; an
 * index past a list's end, or a rule OSWorld raises on, scores 0 (its `except Exception`).
 */
async function checkJson(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const raw = (await readBytes(result))?.toString('utf8');
  if (raw === undefined) return fail(`result file ${brief(result)} cannot be read`);
  // Python's json.load raises on a byte-order mark ("Unexpected UTF-8 BOM"); PyYAML skips it
  if (!options.is_yaml && raw.startsWith('\uFEFF'))
    return fail(
      `result file ${brief(result)} starts with a byte-order mark: Python's json.load raises (OSWorld scores 0)`,
    );
  const text = raw.replace(/^\uFEFF/, '');
  let data: unknown;
  try {
    data = options.is_yaml ? pyYamlLoad(text) : pyJsonParse(text);
  } catch (e) {
    return fail(
      `result file ${brief(result)} is not ${options.is_yaml ? 'YAML' : 'JSON'}: ${(e as Error).message}`,
    );
  }
  if (options.is_yaml && (data === null || data === undefined)) return fail('the YAML file is empty');
  const rules = isRecord(expected) ? expected : {};
  const list = (k: string): unknown[] =>
    Array.isArray(rules[k])
      ? (rules[k] as unknown[])
      : isRecord(rules[k])
        ? Object.keys(rules[k] as object)
        : [];
  for (const r of list('expect')) {
    if (!isRecord(r)) return fail(`expect rule ${brief(r)} is not an object (OSWorld raises and scores 0)`);
    const keys = keyPath(r);
    if (!keys) return fail(`expect rule ${brief(r)} has no key list (OSWorld scores 0)`);
    let value: unknown = data;
    for (const k of keys) {
      const next = pyIndex(value, k);
      if ('error' in next) return fail(`key ${pyRepr(r.key)}: ${pyRepr(k)} not found (${next.error})`);
      value = next.value;
    }
    const m = matchRule(value, r);
    if (m.raises) return fail(`${pyRepr(r.key)}: ${m.reason} (OSWorld raises and scores 0)`);
    if (!m.ok) return fail(`${pyRepr(r.key)}: ${m.reason}`);
  }
  for (const r of list('unexpect')) {
    if (!isRecord(r)) return fail(`unexpect rule ${brief(r)} is not an object (OSWorld raises and scores 0)`);
    const keys = keyPath(r);
    if (!keys) return fail(`unexpect rule ${brief(r)} has no key list (OSWorld scores 0)`);
    let value: unknown = data;
    for (const k of keys) {
      const next = pyIndex(value, k);
      if ('error' in next && next.error === 'IndexError')
        return fail(`key ${pyRepr(r.key)}: index ${pyRepr(k)} out of range (OSWorld raises and scores 0)`);
      if ('error' in next) {
        value = null;
        break;
      }
      value = next.value;
    }
    const m = matchRule(value, r);
    if (m.raises) return fail(`${pyRepr(r.key)}: ${m.reason} (OSWorld raises and scores 0)`);
    if (m.ok)
      return fail(
        `${pyRepr(r.key)} = ${pyRepr(value)} satisfies the unexpected ${String(r.method)} ${pyRepr(r.ref)}`,
      );
  }
  return pass('every expect rule holds and no unexpect rule does');
}

/** Python's sorted() of a value (a list, the characters of a str, a dict's keys); the reason where it raises. */
function pySorted(v: unknown): unknown[] | string {
  const items = Array.isArray(v)
    ? [...v]
    : typeof v === 'string'
      ? [...v]
      : isPyDict(v)
        ? Object.keys(v)
        : undefined;
  if (!items) return `${pyRepr(v)} is not iterable (TypeError)`;
  let error: string | undefined;
  items.sort((a, b) => {
    const d = pyCompare(a, b);
    if (typeof d === 'string') {
      error ??= d;
      return 0;
    }
    return d;
  });
  return error ?? items;
}

/**
 * check_direct_json_object — `result`: an object, or text parsed as JSON after `'` → `"` (as OSWorld); `expected`:
 * `{expected: {...}, expect_in_result?}`. Without `expect_in_result`, every expected key equals the result's by
 * Python's == (True == 1, 1.0 == 1; a missing key is None). With `ignore_list_order` in `expected`, both sides are
 * sorted() first — OSWorld also sorts the boolean itself and raises: the verdict is 0, kept. With
 * `expect_in_result`, a list expectation needs one element in (or equal to) the result value, a string must be in it.
 */
async function checkDirectJsonObject(result: unknown, expected: unknown): Promise<MetricOutcome> {
  let obj = result;
  if (typeof obj === 'string') {
    try {
      obj = pyJsonParse(pyStrip(obj).replace(/'/g, '"'));
    } catch {
      return fail(`result ${brief(result)} is not a JSON object (OSWorld raises)`);
    }
  }
  if (obj === null || obj === undefined) return fail('no result');
  const rules = isRecord(expected) ? expected : {};
  if (!isRecord(rules.expected))
    return fail(`expected ${brief(rules.expected)} is not an object (OSWorld scores 0)`);
  const want = rules.expected;
  if (Object.values(want).some((v) => pyEquals(v, '__EVALUATION_FAILED__')))
    return fail('the expectation says its own evaluation failed');
  if (!isRecord(obj)) return fail(`result ${pyRepr(obj)} is not an object (OSWorld scores 0)`);
  const got = (key: string) =>
    Object.prototype.hasOwnProperty.call(obj, key) ? (obj as Record<string, unknown>)[key] : null;
  if (!pyTruthy(rules.expect_in_result)) {
    for (const [key, value] of Object.entries(want)) {
      if (pyTruthy(want.ignore_list_order)) {
        const a = pySorted(value);
        const b = pySorted(got(key));
        if (typeof a === 'string' || typeof b === 'string')
          return fail(
            `ignore_list_order: '${key}': ${typeof a === 'string' ? a : b} (OSWorld raises and scores 0)`,
          );
        if (!pyEquals(a, b))
          return fail(`'${key}': got ${pyRepr(got(key))}, expected ${pyRepr(value)} in any order`);
      } else if (!pyEquals(value, got(key)))
        return fail(`'${key}': got ${pyRepr(got(key))}, expected ${pyRepr(value)}`);
    }
    return pass(`every expected key matches (${Object.keys(want).length})`);
  }
  for (const [key, value] of Object.entries(want)) {
    const actual = got(key);
    if (Array.isArray(value)) {
      const hit = value.some(
        (v) =>
          (Array.isArray(actual) && pyIn(v, actual) === true) ||
          (typeof actual === 'string' && pyEquals(v, actual)),
      );
      if (!hit) return fail(`'${key}': none of ${pyRepr(value)} in ${pyRepr(actual)}`);
    } else if (typeof value === 'string') {
      const inside = pyIn(value, actual);
      if (inside === undefined)
        return fail(
          `'${key}': 'in ${pyTypeName(actual)}' fails for ${pyRepr(actual)} (OSWorld raises and scores 0)`,
        );
      if (!inside) return fail(`'${key}': '${value}' not in ${pyRepr(actual)}`);
    } else return fail(`'${key}': expected value type not supported`);
  }
  return pass(`every expected key found in the result (${Object.keys(want).length})`);
}

/**
 * check_csv — `result`: a CSV file with a header row; `expected`: `{expect: [{column: value}], unexpect: [...]}`.
 * 1 when every `expect` record matches some row (cells as text, exact) and no row matches an `unexpect` record.
 */
async function checkCsv(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  const rows = csvRecords(text);
  if (typeof rows === 'string') return fail(rows);
  const [header = [], ...body] = rows;
  const records = body
    .filter((r) => r.length > 0 && !(r.length === 1 && r[0] === ''))
    .map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
  const matches = (pattern: Record<string, unknown>, rec: Record<string, string | undefined>) =>
    Object.entries(pattern).every(([k, v]) => k in rec && rec[k] !== undefined && rec[k] === v);
  const missing = rulesOf(expected, 'expect').filter((p) => !records.some((r) => matches(p, r)));
  if (missing.length) return fail(`no row matches ${brief(missing)}`);
  const present = rulesOf(expected, 'unexpect').filter((p) => records.some((r) => matches(p, r)));
  return verdict(
    present.length === 0,
    'every expected record present, no unexpected one',
    `a row matches the unexpected ${brief(present)}`,
  );
}

/**
 * check_list — `result`: a text file; `expected`: `{expect: [pattern], unexpect: [pattern]}`, Python re patterns
 * (python/re.ts). 1 when every `expect` pattern is found (re.search) on some line and no `unexpect` pattern on any
 * line. Lines are read as Python's text mode gives them: universal newlines, each line with its '\n' (so `$`
 * matches before it), a byte-order mark kept. A pattern Python rejects, or one the layer cannot honour, is a grading error naming it.
 */
async function checkList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  // Python's open() keeps a byte-order mark as the first character (so `^` patterns miss the first line)
  const text = (await readBytes(result))?.toString('utf8');
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  const lines = text.replace(/\r\n?/g, '\n').split(/(?<=\n)/);
  const rules = isRecord(expected) ? expected : {};
  const pats = (k: string) =>
    Array.isArray(rules[k]) ? (rules[k] as unknown[]).map((p) => compilePython(String(p))) : [];
  const expects = pats('expect');
  const unexpects = pats('unexpect');
  const missing = expects.filter((r) => !lines.some((l) => r.search(l)));
  if (missing.length) return fail(`no line matches ${missing.map((r) => pyRepr(r.pattern)).join(', ')}`);
  const found = unexpects.filter((r) => lines.some((l) => r.search(l)));
  return verdict(
    found.length === 0,
    'every expected pattern found, no unexpected one',
    `a line matches ${found.map((r) => pyRepr(r.pattern)).join(', ')}`,
  );
}

/** is_in_list — `expected`: `{expected: x}`; 1 when x is in `result` (a list element, or a substring of a text). */
async function isInList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const want = isRecord(expected) ? expected.expected : undefined;
  const inside = pyIn(want, result);
  if (inside === undefined) return fail(`${pyRepr(want)} in ${pyRepr(result)} raises TypeError in Python`);
  return verdict(inside, `${pyRepr(want)} is in the result`, `${pyRepr(want)} is not in ${pyRepr(result)}`);
}

/** match_in_list — `expected`: `{expected: [..]}`; 1 when `result` is one of them (or a substring of a text). */
async function matchInList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const list = isRecord(expected) ? expected.expected : undefined;
  const inside = pyIn(result, list);
  if (inside === undefined) return fail(`${pyRepr(result)} in ${pyRepr(list)} raises TypeError in Python`);
  return verdict(
    inside,
    `${pyRepr(result)} is one of the expected`,
    `${pyRepr(result)} is not in ${pyRepr(list)}`,
  );
}

/** file_contains — `expected`: `{expected: [text]}`; 1 when the result file contains every text. */
async function fileContains(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  const want = isRecord(expected) && Array.isArray(expected.expected) ? expected.expected.map(String) : [];
  const missing = want.filter((t) => !text.includes(t));
  return verdict(missing.length === 0, `contains all ${want.length} texts`, `missing ${brief(missing)}`);
}

/** check_line_number — `expected`: `{expected: n}`; 1 when exactly n lines of the result file hold a time hh:mm:ss. */
async function checkLineNumber(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  const n = text.split(/(?<=\n)/).filter((l) => /([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)/.test(l)).length;
  const want = Number(isRecord(expected) ? expected.expected : NaN);
  return verdict(n === want, `${n} lines with a time`, `${n} lines with a time, expected ${want}`);
}

/** OSWorld's normalisation of Python source: shebang / coding lines among the first 3 skipped, blank lines
 * dropped, tabs expanded to 4, trailing blanks removed. */
function normalisePython(text: string): string {
  const lines = text.split(/\r\n|\r|\n/);
  let i = 0;
  while (i < lines.length && i < 3 && /^(#!|# -\*- coding:|# coding:|# coding=)/.test(lines[i].trim())) i++;
  const expandTabs = (l: string) => {
    let out = '';
    for (const c of l) out += c === '\t' ? ' '.repeat(4 - (out.length % 4)) : c;
    return out;
  };
  return lines
    .slice(i)
    .filter((l) => l.trim() !== '')
    .map((l) => expandTabs(l).trimEnd())
    .join('\n');
}

/** compare_python_pure_text — two Python files; 1 when equal after OSWorld's normalisation (blank lines, tabs). */
async function comparePythonPureText(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = await readText(result);
  const b = await readText(expected);
  if (a === undefined || b === undefined)
    return fail(`cannot read ${a === undefined ? 'the result' : 'the expected'} file`);
  return verdict(
    normalisePython(a) === normalisePython(b),
    'the programs are the same text',
    'the programs differ',
  );
}

/** is_utc_0 — `result`: `timedatectl` output; 1 when its 4th line (`Time zone: … (UTC, +0000)`) ends with `+0000)`. */
async function isUtc0(result: unknown): Promise<MetricOutcome> {
  const line = typeof result === 'string' ? result.split('\n')[3] : undefined;
  if (line === undefined) return fail(`timedatectl output has no time zone line: ${brief(result)}`);
  return verdict(
    line.endsWith('+0000)'),
    `time zone is UTC+0 (${line.trim()})`,
    `time zone line is '${line.trim()}'`,
  );
}

/** run_sqlite3 — `result`: a SQLite file; `expected`: `{sql}`. The score is the first column of the first row (0 when
 * null), clamped into 0–1 (OSWorld returns the float as it is, e.g. 2.0 for a count of 2). */
async function runSqlite3(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const bytes = await readBytes(result);
  if (!bytes) return fail(`database ${brief(result)} cannot be read`);
  const sql = isRecord(expected) ? String(expected.sql ?? '') : '';
  const SQL = await initSqlJs();
  const db = new SQL.Database(bytes);
  try {
    const rows = db.exec(sql);
    const v = rows[0]?.values[0]?.[0];
    const score = typeof v === 'number' ? v : v ? Number(v) : 0;
    return {
      score: Number.isFinite(score) ? Math.max(0, Math.min(1, score)) : 0,
      reason: `query gave ${brief(v)}`,
    };
  } catch (e) {
    return fail(`query failed: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}

/** The strings of a Python list literal (`['a.desktop', "b"]`, gsettings' `@as []`), read without evaluating it. */
export function pythonStringList(text: string): string[] | undefined {
  const t = text.trim().replace(/^@as\s+/, '');
  if (!/^\[.*\]$/s.test(t)) return undefined;
  const items = [...t.slice(1, -1).matchAll(/\s*(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")\s*(,|$)/gs)];
  const joined = items.map((m) => m[0]).join('');
  if (joined.replace(/\s/g, '') !== t.slice(1, -1).replace(/\s/g, '')) return undefined;
  return items.map((m) => (m[1] ?? m[2]).replace(/\\(.)/g, '$1'));
}

/** check_gnome_favorite_apps — `result`: gsettings' favorite-apps list; `expected`: `{expected: [app]}`; the same set
 * and length. (OSWorld evaluates the text as Python; Proctor parses the list of strings.) */
async function checkGnomeFavoriteApps(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const apps = typeof result === 'string' ? pythonStringList(result) : undefined;
  if (!apps) return fail(`not a list of apps: ${brief(result)}`);
  const want = isRecord(expected) && Array.isArray(expected.expected) ? expected.expected.map(String) : [];
  const same =
    apps.length === want.length &&
    new Set(apps).size === new Set(want).size &&
    apps.every((a) => want.includes(a));
  return verdict(
    same,
    `favourites are ${brief(want)}`,
    `favourites are ${brief(apps)}, expected ${brief(want)}`,
  );
}

/** check_moved_jpgs — `result`: a list_directory tree; the names of its children are the set `expected`. */
async function checkMovedJpgs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const children =
    isRecord(result) && Array.isArray(result.children)
      ? result.children.filter(isRecord).map((c) => String(c.name))
      : undefined;
  if (!children) return fail('no directory listing');
  const want = isRecord(expected) && Array.isArray(expected.expected) ? expected.expected.map(String) : [];
  const same =
    children.length === want.length &&
    children.every((c) => want.includes(c)) &&
    want.every((w) => children.includes(w));
  return verdict(
    same,
    `the folder holds ${brief(want)}`,
    `the folder holds ${brief(children)}, expected ${brief(want)}`,
  );
}

/** is_in_vm_clickboard — OSWorld's argument order: `result` is the rule `{expected: text | [text]}`, `expected` the
 * clipboard text (a command's output); 1 when every expected text occurs in it. */
async function isInVmClickboard(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!isRecord(result))
    return fail(`the first argument must be the rule {expected} (OSWorld's order), got ${brief(result)}`);
  const out = String(expected ?? '');
  const want = Array.isArray(result.expected) ? result.expected.map(String) : [String(result.expected)];
  const missing = want.filter((w) => !out.includes(w));
  return verdict(
    missing.length === 0,
    'the clipboard holds the expected text',
    `the clipboard lacks ${brief(missing)}`,
  );
}

/** check_text_enlarged — `result`: the text scaling factor; 1 when above 1.0. */
async function checkTextEnlarged(result: unknown): Promise<MetricOutcome> {
  const v = Number(String(result ?? '').trim());
  return verdict(v > 1, `scaling factor ${v}`, `scaling factor ${brief(result)} is not above 1`);
}

registerPythonValued('check_json', 'check_direct_json_object');

registerDeparture({
  metric: 'check_json',
  profile: 'osworld',
  case: 'YAML dates (is_yaml)',
  why: "PyYAML reads a date-only scalar (2024-01-05) as datetime.date, which prints '2024-01-05' and never equals a datetime; Proctor reads it as a datetime at midnight",
});

registerMetricFamily('os', {
  check_json: checkJson,
  check_direct_json_object: checkDirectJsonObject,
  check_csv: checkCsv,
  check_list: checkList,
  is_in_list: isInList,
  match_in_list: matchInList,
  file_contains: fileContains,
  check_line_number: checkLineNumber,
  compare_python_pure_text: comparePythonPureText,
  is_utc_0: isUtc0,
  run_sqlite3: runSqlite3,
  check_gnome_favorite_apps: checkGnomeFavoriteApps,
  check_moved_jpgs: checkMovedJpgs,
  is_in_vm_clickboard: isInVmClickboard,
  check_text_enlarged: checkTextEnlarged,
  check_accessibility_tree: checkAccessibilityTree,
});

registerDeparture({
  metric: 'run_sqlite3',
  profile: 'osworld',
  case: 'values outside 0–1',
  why: "OSWorld returns the query's first value as a float unchanged (a COUNT of 2 scores 2.0, -1 scores -1.0); Proctor's scores are 0..1, so it clamps",
});

registerDeparture({
  metric: 'check_accessibility_tree',
  profile: 'osworld',
  case: 'the tree',
  why: "the XML is Proctor's own tree in OSWorld's shape: browser pages come from DevTools with roles mapped to AT-SPI tags, and value (val:) and action (act:) attributes are not written",
});
