// Text, list, JSON, YAML, URL and SQL-text metrics.
import { isDeepStrictEqual } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { fail, metrics, pass, verdict, type MetricOutcome } from '../metric';
import { compilePython } from '../python/re';
import { registerPythonValued } from '../python/task-floats';
import { pyEquals, pyRepr, pyStr } from '../python/value';
import { brief, isFile, isRecord, readText, stringList } from './inputs';

function asText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  return JSON.stringify(result);
}

/**
 * check_include_exclude — `result` is text (script output, page check, URL); `expected` is
 * `{include?: string[], exclude?: string[]}`. 1 when every `include` string occurs in the text and no
 * `exclude` string does. A list result is matched by element instead of by substring. Empty rules
 * accept anything (as upstream) — `proctor selftest` exists to catch such lenient tasks.
 */
export async function checkIncludeExclude(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (result === undefined || result === null) return fail('no result to check');
  const rules = isRecord(expected) ? expected : {};
  const include = stringList(rules.include);
  const exclude = stringList(rules.exclude);
  const has = Array.isArray(result)
    ? (s: string) => result.some((x) => String(x) === s)
    : (s: string) => asText(result).includes(s);
  const missing = include.filter((s) => !has(s));
  const present = exclude.filter((s) => has(s));
  if (missing.length) return fail(`missing ${missing.map((s) => `'${s}'`).join(', ')} in ${brief(result)}`);
  if (present.length)
    return fail(`found excluded ${present.map((s) => `'${s}'`).join(', ')} in ${brief(result)}`);
  return pass(
    `includes ${include.length ? include.map((s) => `'${s}'`).join(', ') : 'nothing required'} and none of ${exclude.length} excluded`,
  );
}

/**
 * exact_match — `expected` is `{expected: value}`; 1 when `result == expected` as Python compares (strings by
 * character, including whitespace and case; True == 1, 1.0 == 1, lists and dicts deeply; a str never equals a
 * number).
 */
async function exactMatch(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const want = isRecord(expected) && 'expected' in expected ? expected.expected : expected;
  return verdict(
    pyEquals(result, want),
    `equals ${pyRepr(want)}`,
    `got ${pyRepr(result)}, expected ${pyRepr(want)}`,
  );
}

/**
 * literal_match — options `type`: `str` (default) compares Python's `str(result)` with `str(expected)` (True,
 * None, 1.0 as Python prints them); `list` compares two lists element by element as strings. `ignore_case`
 * lower-cases both. `ignore_order` (list only) sorts both first — upstream reads but ignores it; Proctor honours it.
 */
async function literalMatch(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const type = options.type ?? 'str';
  const norm = (s: unknown) => (options.ignore_case ? pyStr(s).toLowerCase() : pyStr(s));
  if (type === 'str') {
    return verdict(
      norm(result) === norm(expected),
      `equals '${brief(norm(expected))}'`,
      `got '${brief(norm(result))}', expected '${brief(norm(expected))}'`,
    );
  }
  if (type === 'list') {
    if (!Array.isArray(result) || !Array.isArray(expected))
      return fail(`type 'list' needs two lists, got ${brief(result)} and ${brief(expected)}`);
    let a = result.map(norm);
    let b = expected.map(norm);
    if (options.ignore_order) {
      a = [...a].sort();
      b = [...b].sort();
    }
    return verdict(
      isDeepStrictEqual(a, b),
      `lists equal (${a.length} items)`,
      `got ${brief(a)}, expected ${brief(b)}`,
    );
  }
  return fail(`literal_match: unknown option type '${String(type)}' (use 'str' or 'list')`);
}

/**
 * is_not_in_list — `result` is a list (e.g. dataset names); `expected` is `{exclude: name | name[]}`.
 * 1 when none of the excluded names is in the list. (Upstream tests the whole `exclude` list as one
 * element, which is always absent; Proctor tests each name.)
 */
async function isNotInList(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!Array.isArray(result)) return fail(`expected a list, got ${brief(result)}`);
  const exclude = stringList(isRecord(expected) ? expected.exclude : expected);
  const found = exclude.filter((x) => result.map(String).includes(x));
  return verdict(found.length === 0, `none of ${brief(exclude)} is present`, `found ${brief(found)}`);
}

function normaliseBlanks(s: string): string {
  return s
    .replace(/[\t\n]/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
}

/**
 * compare_text_file — `result`, `expected`: text file paths. 1 when the texts are equal. Options:
 * `ignore_blanks` (tabs/newlines become spaces, runs of blanks collapse, ends trimmed), `ignore_case`.
 * Line endings (CRLF / LF) never matter.
 */
async function compareTextFile(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  let a = await readText(result);
  let b = await readText(expected);
  if (a === undefined) return fail(`result file ${brief(result)} cannot be read`);
  if (b === undefined) return fail(`expected file ${brief(expected)} cannot be read`);
  a = a.replace(/\r\n?/g, '\n');
  b = b.replace(/\r\n?/g, '\n');
  if (options.ignore_blanks) {
    a = normaliseBlanks(a);
    b = normaliseBlanks(b);
  }
  if (options.ignore_case) {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  if (a === b) return pass('texts are equal');
  const at = [...a].findIndex((c, i) => c !== b![i]);
  const i = at < 0 ? Math.min(a.length, b.length) : at;
  return fail(
    `texts differ at character ${i}: got '${brief(a.slice(i, i + 40))}', expected '${brief(b.slice(i, i + 40))}'`,
  );
}

/** Ratcliff/Obershelp similarity of two sequences (Python difflib's ratio without the junk heuristic). */
export function sequenceRatio<T>(a: readonly T[], b: readonly T[]): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const matches = (alo: number, ahi: number, blo: number, bhi: number): number => {
    if (alo >= ahi || blo >= bhi) return 0;
    // longest common contiguous block, earliest in a, then earliest in b
    let best = 0;
    let bi = alo;
    let bj = blo;
    let prev = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const cur = new Map<number, number>();
      for (let j = blo; j < bhi; j++) {
        if (a[i] !== b[j]) continue;
        const k = (prev.get(j - 1) ?? 0) + 1;
        cur.set(j, k);
        if (k > best) {
          best = k;
          bi = i - k + 1;
          bj = j - k + 1;
        }
      }
      prev = cur;
    }
    if (best === 0) return 0;
    return best + matches(alo, bi, blo, bj) + matches(bi + best, ahi, bj + best, bhi);
  };
  return (2 * matches(0, a.length, 0, b.length)) / total;
}

/**
 * diff_text_file — `result`, `expected`: text file paths. Score = similarity of their lines in 0..1
 * (2·matching lines / total lines, Ratcliff/Obershelp as Python's difflib), so it is fractional.
 */
async function diffTextFile(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = await readText(result);
  const b = await readText(expected);
  if (a === undefined) return fail(`result file ${brief(result)} cannot be read`);
  if (b === undefined) return fail(`expected file ${brief(expected)} cannot be read`);
  const la = a.split(/\r\n|\r|\n/);
  const lb = b.split(/\r\n|\r|\n/);
  if (la[la.length - 1] === '') la.pop();
  if (lb[lb.length - 1] === '') lb.pop();
  const score = sequenceRatio(la, lb);
  return { score, reason: `line similarity ${score.toFixed(3)} (${la.length} vs ${lb.length} lines)` };
}

/** check_file_existence — 1 when the result getter fetched a file (the path exists); `expected` unused. */
async function checkFileExistence(result: unknown): Promise<MetricOutcome> {
  return verdict(await isFile(result), `file exists (${brief(result)})`, 'the file does not exist');
}

/** compare_json_file — `result`, `expected`: JSON file paths; 1 when both parse and are equal as Python's == (1.0 == 1). */
async function compareJsonFile(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = await readText(result);
  const b = await readText(expected);
  if (a === undefined) return fail(`result file ${brief(result)} cannot be read`);
  if (b === undefined) return fail(`expected file ${brief(expected)} cannot be read`);
  let ja: unknown, jb: unknown;
  try {
    ja = JSON.parse(a);
  } catch (e) {
    return fail(`result is not JSON: ${(e as Error).message}`);
  }
  try {
    jb = JSON.parse(b);
  } catch (e) {
    return fail(`expected file is not JSON: ${(e as Error).message}`);
  }
  return verdict(
    pyEquals(ja, jb),
    'JSON values are equal',
    `JSON differs: got ${brief(ja)}, expected ${brief(jb)}`,
  );
}

/** Follows a key path of check_yaml_file: dict keys, list indices, or `[key, value]` to pick a list item. */
function follow(root: unknown, path: unknown[]): { ok: true; value: unknown } | { ok: false; at: string } {
  let value = root;
  for (const key of path) {
    if (Array.isArray(value)) {
      if (Array.isArray(key) && key.length === 2) {
        const hit = value.find((item) => isRecord(item) && isDeepStrictEqual(item[String(key[0])], key[1]));
        if (hit === undefined) return { ok: false, at: `${key[0]}=${key[1]}` };
        value = hit;
      } else if (Number.isInteger(Number(key))) {
        if (Number(key) >= value.length) return { ok: false, at: String(key) };
        value = value[Number(key)];
      } else return { ok: false, at: String(key) };
    } else if (isRecord(value) && !Array.isArray(key) && String(key) in value) {
      value = value[String(key)];
    } else return { ok: false, at: Array.isArray(key) ? key.join('=') : String(key) };
  }
  return { ok: true, value };
}

/**
 * check_yaml_file — `result`: YAML file path; `expected`: a list of rules `[match_type, key_path, value]`.
 * key_path items are dict keys, list indices, or `[field, value]` (the list item whose field equals value).
 * match types: `match` (equal), `in` (value is one of a list), `contain` (value contains the expected
 * string / element), `not_null` (truthy). 1 when every rule holds; the reason names the first that fails.
 */
async function checkYamlFile(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`result file ${brief(result)} cannot be read`);
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    return fail(`result is not YAML: ${(e as Error).message}`);
  }
  if (!Array.isArray(expected))
    return fail('check_yaml_file needs a list of [match_type, key_path, value] rules');
  for (const [n, rule] of expected.entries()) {
    if (!Array.isArray(rule) || rule.length < 2 || !Array.isArray(rule[1]))
      return fail(`rule ${n} is not [match_type, key_path, value]`);
    const [type, path, want] = rule as [string, unknown[], unknown];
    const where = path.map((k) => (Array.isArray(k) ? k.join('=') : String(k))).join('.');
    const got = follow(doc, path);
    if (!got.ok) return fail(`rule ${n}: ${where} not found (no '${got.at}')`);
    const v = got.value;
    let ok: boolean;
    if (type === 'match') ok = pyEquals(v, want);
    else if (type === 'in')
      ok = Array.isArray(want)
        ? want.some((w) => pyEquals(w, v))
        : typeof want === 'string' && typeof v === 'string' && want.includes(v);
    else if (type === 'contain')
      ok =
        typeof v === 'string'
          ? v.includes(String(want))
          : Array.isArray(v) && v.some((x) => pyEquals(x, want));
    else if (type === 'not_null')
      ok =
        Boolean(v) && !(Array.isArray(v) && v.length === 0) && !(isRecord(v) && Object.keys(v).length === 0);
    else return fail(`rule ${n}: unknown match type '${type}' (match, in, contain, not_null)`);
    if (!ok)
      return fail(
        `rule ${n}: ${type} ${where}: got ${brief(v)}${type === 'not_null' ? '' : `, expected ${brief(want)}`}`,
      );
  }
  return pass(`all ${expected.length} YAML rules hold`);
}

/**
 * is_expected_url_pattern_match — `result`: a URL or `{url}` (active_tab_info); `expected`:
 * `{expected: pattern[]}`. 1 when every Python re pattern is found (re.search) in the URL. A pattern Python
 * rejects, or one the Python pattern layer cannot honour, is a grading error naming it.
 */
async function isExpectedUrlPatternMatch(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const url =
    typeof result === 'string'
      ? result
      : isRecord(result) && typeof result.url === 'string'
        ? result.url
        : undefined;
  if (!url) return fail(`no URL in ${brief(result)}`);
  const patterns = stringList(isRecord(expected) ? expected.expected : expected);
  for (const p of patterns) {
    if (!compilePython(p).search(url)) return fail(`pattern ${pyRepr(p)} not found in ${url}`);
  }
  return pass(`all ${patterns.length} patterns match ${url}`);
}

/** SQL text in a canonical form: no comments, one space between tokens, keywords and names lower case
 * outside quotes, no trailing semicolons. */
export function canonicalSql(sql: string): string {
  const out: string[] = [];
  let i = 0;
  let word = '';
  const flush = () => {
    if (word) out.push(word.toLowerCase());
    word = '';
  };
  while (i < sql.length) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      while (i < sql.length && sql[i] !== '\n') i++;
      flush();
      out.push(' ');
      continue;
    }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
      flush();
      out.push(' ');
      continue;
    }
    if (c === "'") {
      flush();
      let j = i + 1;
      while (j < sql.length && !(sql[j] === "'" && sql[j + 1] !== "'")) j += sql[j] === "'" ? 2 : 1;
      out.push(sql.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (/\s/.test(c)) {
      flush();
      out.push(' ');
      i++;
      continue;
    }
    if (/[(),;=<>+*/-]/.test(c)) {
      flush();
      out.push(' ', c, ' ');
      i++;
      continue;
    }
    word += c;
    i++;
  }
  flush();
  return out
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/(\s*;)+$/, '')
    .trim();
}

/**
 * compare_sql — `result`, `expected`: SQL file paths. 1 when the two statements are the same text after
 * canonicalisation (comments dropped, whitespace collapsed, case folded outside string literals, spaces
 * around punctuation and trailing semicolons ignored). It does not execute the SQL: two different queries
 * with the same result score 0.
 */
async function compareSql(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const a = await readText(result);
  const b = await readText(expected);
  if (a === undefined) return fail(`result file ${brief(result)} cannot be read`);
  if (b === undefined) return fail(`expected file ${brief(expected)} cannot be read`);
  const ca = canonicalSql(a);
  const cb = canonicalSql(b);
  return verdict(
    ca === cb,
    'SQL statements are equivalent as text',
    `SQL differs: got '${brief(ca)}', expected '${brief(cb)}'`,
  );
}

/**
 * compare_script_logs (native) — `result`: the eval script's log (from a `vm_script_output` getter with
 * `log`), `expected`: `{include, exclude}`; scored as check_include_exclude.
 */
async function compareScriptLogs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  return checkIncludeExclude(result, expected);
}

registerPythonValued('literal_match', 'exact_match');

metrics
  .register('check_include_exclude', checkIncludeExclude)
  .register('exact_match', exactMatch)
  .register('literal_match', literalMatch)
  .register('is_not_in_list', isNotInList)
  .register('compare_text_file', compareTextFile)
  .register('diff_text_file', diffTextFile)
  .register('check_file_existence', checkFileExistence)
  .register('compare_json_file', compareJsonFile)
  .register('check_yaml_file', checkYamlFile)
  .register('is_expected_url_pattern_match', isExpectedUrlPatternMatch)
  .register('compare_sql', compareSql)
  .register('compare_script_logs', compareScriptLogs);
