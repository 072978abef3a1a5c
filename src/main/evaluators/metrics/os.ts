// OSWorld's general and OS metrics (family `os`): JSON / YAML / CSV / list files checked against rules, values in
// lists, text files, the time zone, SQLite queries, the accessibility tree (accessibility-tree.ts). Each follows
// OSWorld's own reading (desktop_env/evaluators/metrics/general.py and basic_os.py), quirks included and named in
// its doc comment.
import { isDeepStrictEqual } from 'node:util';
import initSqlJs from 'sql.js';
import { parse as parseYaml } from 'yaml';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { checkAccessibilityTree } from './accessibility-tree';
import { csvRecords } from './csv-records';
import { brief, isRecord, readBytes, readText } from './inputs';
// OSWorld's time metric, in its own module
import './os-time';

/** Python's `re` flag names (`re.IGNORECASE` / `re.I` …) as JavaScript flags. */
function jsFlags(names: string[]): string {
  const map: Record<string, string> = { I: 'i', IGNORECASE: 'i', M: 'm', MULTILINE: 'm', S: 's', DOTALL: 's', U: 'u', UNICODE: 'u' };
  return [...new Set(names.map((n) => map[n] ?? ''))].join('');
}

/** Python ordering of two values (numbers as numbers, strings by code point); undefined when Python would raise. */
function order(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/**
 * OSWorld's `{method, ref}` value rule: `re[.FLAG…]` searches `ref` in the value, `eq`/`ne`/`lt`/`le`/`gt`/`ge`
 * compare as Python does (a type mismatch in an ordering raises there: here it is a failed match),
 * `approx:T` is |float(value) − ref| ≤ T. Unknown methods are an error (OSWorld raises).
 */
export function matchValueToRule(value: unknown, rule: Record<string, unknown>): boolean {
  const method = String(rule.method ?? '');
  const ref = rule.ref;
  if (method.startsWith('re')) {
    if (typeof value !== 'string') return false;
    return new RegExp(String(ref), jsFlags(method.split('.').slice(1))).test(value);
  }
  if (method === 'eq') return isDeepStrictEqual(value, ref);
  if (method === 'ne') return !isDeepStrictEqual(value, ref);
  if (['lt', 'le', 'gt', 'ge'].includes(method)) {
    const o = order(value, ref);
    if (o === undefined) return false;
    return method === 'lt' ? o < 0 : method === 'le' ? o <= 0 : method === 'gt' ? o > 0 : o >= 0;
  }
  if (method.startsWith('approx')) {
    const v = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
    return !Number.isNaN(v) && Math.abs(v - Number(ref)) <= Number(method.split(':')[1]);
  }
  throw new Error(`unknown rule method '${method}'`);
}

function rulesOf(expected: unknown, key: string): Record<string, unknown>[] {
  const v = isRecord(expected) ? expected[key] : undefined;
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

/**
 * check_json — `result`: a JSON file (YAML with option `is_yaml`); `expected`: `{expect: [{key: [...], method,
 * ref}], unexpect: [...]}`. 1 when every `expect` rule's value (followed along `key`) matches and no `unexpect`
 * rule's does. A missing key in `expect` scores 0; in `unexpect` the value is None (as OSWorld).
 */
async function checkJson(result: unknown, expected: unknown, options: Record<string, unknown>): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  let data: unknown;
  try {
    data = options.is_yaml ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    return fail(`result file ${brief(result)} is not ${options.is_yaml ? 'YAML' : 'JSON'}: ${(e as Error).message}`);
  }
  if (options.is_yaml && (data === null || data === undefined)) return fail('the YAML file is empty');
  const follow = (keys: unknown): { found: boolean; value: unknown } => {
    let v: unknown = data;
    for (const k of Array.isArray(keys) ? keys : []) {
      if (Array.isArray(v) && typeof k === 'number' && k < v.length) v = v[k < 0 ? v.length + k : k];
      else if (isRecord(v) && typeof k === 'string' && k in v) v = v[k];
      else return { found: false, value: undefined };
    }
    return { found: true, value: v };
  };
  try {
    for (const r of rulesOf(expected, 'expect')) {
      const { found, value } = follow(r.key);
      if (!found) return fail(`key ${brief(r.key)} not found`);
      if (!matchValueToRule(value, r)) return fail(`${brief(r.key)} = ${brief(value)} does not satisfy ${String(r.method)} ${brief(r.ref)}`);
    }
    for (const r of rulesOf(expected, 'unexpect')) {
      const { found, value } = follow(r.key);
      if (matchValueToRule(found ? value : null, r)) return fail(`${brief(r.key)} = ${brief(value)} satisfies the unexpected ${String(r.method)} ${brief(r.ref)}`);
    }
  } catch (e) {
    return fail((e as Error).message);
  }
  return pass('every expect rule holds and no unexpect rule does');
}

/**
 * check_direct_json_object — `result`: an object, or text parsed as JSON after `'` → `"` (as OSWorld); `expected`:
 * `{expected: {...}, expect_in_result?}`. Without `expect_in_result`, every expected key equals the result's (with
 * `ignore_list_order` in `expected`, OSWorld also sorts the boolean itself and raises: the verdict is 0, kept).
 * With it, a list expectation needs one element in (or equal to) the result value, a string must be a substring.
 */
async function checkDirectJsonObject(result: unknown, expected: unknown): Promise<MetricOutcome> {
  let obj = result;
  if (typeof obj === 'string') {
    try {
      obj = JSON.parse(obj.trim().replace(/'/g, '"'));
    } catch {
      return fail(`result ${brief(result)} is not a JSON object`);
    }
  }
  if (obj === null || obj === undefined) return fail('no result');
  const rules = isRecord(expected) ? expected : {};
  const want = isRecord(rules.expected) ? rules.expected : {};
  if (Object.values(want).includes('__EVALUATION_FAILED__')) return fail('the expectation says its own evaluation failed');
  if (!isRecord(obj)) return fail(`result ${brief(obj)} is not an object`);
  if (!rules.expect_in_result) {
    for (const [key, value] of Object.entries(want)) {
      if (want.ignore_list_order) {
        if (!Array.isArray(value) || !Array.isArray(obj[key])) return fail(`ignore_list_order: '${key}' cannot be sorted (OSWorld raises and scores 0)`);
        const sort = (l: unknown[]) => [...l].sort((a, b) => order(a, b) ?? 0);
        if (!isDeepStrictEqual(sort(value), sort(obj[key] as unknown[]))) return fail(`'${key}': got ${brief(obj[key])}, expected ${brief(value)} in any order`);
      } else if (!isDeepStrictEqual(value, obj[key] ?? null) && !(value === null && obj[key] === undefined)) {
        return fail(`'${key}': got ${brief(obj[key])}, expected ${brief(value)}`);
      }
    }
    return pass(`every expected key matches (${Object.keys(want).length})`);
  }
  for (const [key, value] of Object.entries(want)) {
    const got = obj[key];
    if (Array.isArray(value)) {
      const hit = value.some((v) => (Array.isArray(got) && got.some((g) => isDeepStrictEqual(g, v))) || (typeof got === 'string' && v === got));
      if (!hit) return fail(`'${key}': none of ${brief(value)} in ${brief(got)}`);
    } else if (typeof value === 'string') {
      const inside = typeof got === 'string' ? got.includes(value) : Array.isArray(got) ? got.includes(value) : false;
      if (!inside) return fail(`'${key}': '${value}' not in ${brief(got)}`);
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
  const records = body.filter((r) => r.length > 0 && !(r.length === 1 && r[0] === '')).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
  const matches = (pattern: Record<string, unknown>, rec: Record<string, string | undefined>) =>
    Object.entries(pattern).every(([k, v]) => k in rec && rec[k] !== undefined && rec[k] === v);
  const missing = rulesOf(expected, 'expect').filter((p) => !records.some((r) => matches(p, r)));
  if (missing.length) return fail(`no row matches ${brief(missing)}`);
  const present = rulesOf(expected, 'unexpect').filter((p) => records.some((r) => matches(p, r)));
  return verdict(present.length === 0, 'every expected record present, no unexpected one', `a row matches the unexpected ${brief(present)}`);
}

/**
 * check_list — `result`: a text file; `expected`: `{expect: [regex], unexpect: [regex]}`. 1 when every `expect`
 * pattern is found on some line and no `unexpect` pattern on any line.
 */
async function checkList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  const lines = text.split(/(?<=\n)/);
  const rules = isRecord(expected) ? expected : {};
  const pats = (k: string) => (Array.isArray(rules[k]) ? (rules[k] as unknown[]).map((p) => new RegExp(String(p))) : []);
  const missing = pats('expect').filter((r) => !lines.some((l) => r.test(l)));
  if (missing.length) return fail(`no line matches ${missing.map(String).join(', ')}`);
  const found = pats('unexpect').filter((r) => lines.some((l) => r.test(l)));
  return verdict(found.length === 0, 'every expected pattern found, no unexpected one', `a line matches ${found.map(String).join(', ')}`);
}

/** Python's `a in b` for a value and a container (list: element equality; string: substring; object: key). */
function pyIn(item: unknown, container: unknown): boolean {
  if (typeof container === 'string') return typeof item === 'string' && container.includes(item);
  if (Array.isArray(container)) return container.some((x) => isDeepStrictEqual(x, item));
  if (isRecord(container)) return typeof item === 'string' && item in container;
  return false;
}

/** is_in_list — `expected`: `{expected: x}`; 1 when x is in `result` (a list element, or a substring of a text). */
async function isInList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const want = isRecord(expected) ? expected.expected : undefined;
  return verdict(pyIn(want, result), `${brief(want)} is in the result`, `${brief(want)} is not in ${brief(result)}`);
}

/** match_in_list — `expected`: `{expected: [..]}`; 1 when `result` is one of them (or a substring of a text). */
async function matchInList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const list = isRecord(expected) ? expected.expected : undefined;
  return verdict(pyIn(result, list), `${brief(result)} is one of the expected`, `${brief(result)} is not in ${brief(list)}`);
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
  return lines.slice(i).filter((l) => l.trim() !== '').map((l) => expandTabs(l).trimEnd()).join('\n');
}

/** compare_python_pure_text — two Python files; 1 when equal after OSWorld's normalisation (blank lines, tabs). */
async function comparePythonPureText(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = await readText(result);
  const b = await readText(expected);
  if (a === undefined || b === undefined) return fail(`cannot read ${a === undefined ? 'the result' : 'the expected'} file`);
  return verdict(normalisePython(a) === normalisePython(b), 'the programs are the same text', 'the programs differ');
}

/** is_utc_0 — `result`: `timedatectl` output; 1 when its 4th line (`Time zone: … (UTC, +0000)`) ends with `+0000)`. */
async function isUtc0(result: unknown): Promise<MetricOutcome> {
  const line = typeof result === 'string' ? result.split('\n')[3] : undefined;
  if (line === undefined) return fail(`timedatectl output has no time zone line: ${brief(result)}`);
  return verdict(line.endsWith('+0000)'), `time zone is UTC+0 (${line.trim()})`, `time zone line is '${line.trim()}'`);
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
    return { score: Number.isFinite(score) ? Math.max(0, Math.min(1, score)) : 0, reason: `query gave ${brief(v)}` };
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
  const same = apps.length === want.length && new Set(apps).size === new Set(want).size && apps.every((a) => want.includes(a));
  return verdict(same, `favourites are ${brief(want)}`, `favourites are ${brief(apps)}, expected ${brief(want)}`);
}

/** check_moved_jpgs — `result`: a list_directory tree; the names of its children are the set `expected`. */
async function checkMovedJpgs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const children = isRecord(result) && Array.isArray(result.children) ? result.children.filter(isRecord).map((c) => String(c.name)) : undefined;
  if (!children) return fail('no directory listing');
  const want = isRecord(expected) && Array.isArray(expected.expected) ? expected.expected.map(String) : [];
  const same = children.length === want.length && children.every((c) => want.includes(c)) && want.every((w) => children.includes(w));
  return verdict(same, `the folder holds ${brief(want)}`, `the folder holds ${brief(children)}, expected ${brief(want)}`);
}

/** is_in_vm_clickboard — OSWorld's argument order: `result` is the rule `{expected: text | [text]}`, `expected` the
 * clipboard text (a command's output); 1 when every expected text occurs in it. */
async function isInVmClickboard(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!isRecord(result)) return fail(`the first argument must be the rule {expected} (OSWorld's order), got ${brief(result)}`);
  const out = String(expected ?? '');
  const want = Array.isArray(result.expected) ? result.expected.map(String) : [String(result.expected)];
  const missing = want.filter((w) => !out.includes(w));
  return verdict(missing.length === 0, 'the clipboard holds the expected text', `the clipboard lacks ${brief(missing)}`);
}

/** check_text_enlarged — `result`: the text scaling factor; 1 when above 1.0. */
async function checkTextEnlarged(result: unknown): Promise<MetricOutcome> {
  const v = Number(String(result ?? '').trim());
  return verdict(v > 1, `scaling factor ${v}`, `scaling factor ${brief(result)} is not above 1`);
}

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
