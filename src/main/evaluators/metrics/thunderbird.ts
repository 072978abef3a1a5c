// OSWorld's Thunderbird metrics (family `thunderbird`; desktop_env/evaluators/metrics/thunderbird.py): prefs.js
// values against `{method, ref}` rules, message filters in msgFilterRules.dat, and mail folders (mbox files).
import { isDeepStrictEqual } from 'node:util';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { brief, isRecord, readBytes } from './inputs';
import { PythonPatternError } from '../python/re';
import { matchValueToRule } from './os';

/**
 * A file's text as Python's `open(path)` reads it in OSWorld: strict UTF-8 (Thunderbird keeps a message's own bytes
 * in a folder file, so an ISO-8859-1 message makes upstream raise) and universal newlines (`\r\n` and `\r` read as
 * `\n`; Thunderbird ends a folder's `From - ` lines with `\r\n`). `error` says why it cannot be read.
 */
async function readAsPython(path: unknown, what: string): Promise<{ text: string } | { error: string }> {
  const bytes = await readBytes(path);
  if (bytes === undefined) return { error: `${what} ${brief(path)} cannot be read` };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/\r\n?/g, '\n') };
  } catch {
    return { error: `${what} ${brief(path)} is not UTF-8 text (OSWorld cannot read it)` };
  }
}

const prefLine = /^user_pref\("((?:[^"]|\\")+)", (.+)\);$/;

/**
 * check_thunderbird_prefs — `result`: prefs.js; `expected`: `{expect: {pref: {method, ref}}, unexpect: {…}}`. Each
 * `user_pref("key", value);` line's value is read as JSON; 1 when every expected pref is present and matches and no
 * unexpected one matches.
 */
async function checkThunderbirdPrefs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const file = await readAsPython(result, 'prefs file');
  if ('error' in file) return fail(file.error);
  const { text } = file;
  const rules = isRecord(expected) ? expected : {};
  const expect = isRecord(rules.expect) ? rules.expect : {};
  const unexpect = isRecord(rules.unexpect) ? rules.unexpect : {};
  const ok = new Map(Object.keys(expect).map((k) => [k, false]));
  const found: string[] = [];
  try {
    for (const line of text.split('\n')) {
      const m = prefLine.exec(line.trim());
      if (!m) continue;
      const [, key, raw] = m;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return fail(`pref ${key} has a value that is not JSON: ${brief(raw)} (OSWorld raises)`);
      }
      if (key in expect && isRecord(expect[key]))
        ok.set(key, matchValueToRule(value, expect[key] as Record<string, unknown>));
      else if (
        key in unexpect &&
        isRecord(unexpect[key]) &&
        matchValueToRule(value, unexpect[key] as Record<string, unknown>)
      )
        found.push(key);
    }
  } catch (e) {
    if (e instanceof PythonPatternError && !e.pythonRaises) throw e;
    return fail((e as Error).message);
  }
  const missing = [...ok].filter(([, v]) => !v).map(([k]) => k);
  if (missing.length) return fail(`missing or wrong preferences: ${missing.join(', ')}`);
  return verdict(
    found.length === 0,
    'all preferences as expected',
    `unexpected preferences: ${found.join(', ')}`,
  );
}

const unescape = (v: string) => v.replace(/\\"/g, '"').replace(/\\\\/g, '\\');
const conditionPattern = /\b(?:AND|OR) \((?:[\w ]+),(?:[\w ']+),(?:"(?:(?:[^"]|")+)"|(?:[^)]+))\)|\bALL\b/g;

/** The filters of a msgFilterRules.dat, as OSWorld reads them (a filter is complete at its `condition=` line). */
function filtersOf(text: string): Record<string, unknown>[] {
  const filters: Record<string, unknown>[] = [];
  let cur: Record<string, unknown> = {};
  const field = (l: string, prefix: string) => unescape(l.slice(prefix.length + 1, -2));
  for (const l of text.split(/(?<=\n)/)) {
    if (l.startsWith('name=')) cur = { name: field(l, 'name=') };
    else if (l.startsWith('enabled=')) cur.enabled = field(l, 'enabled=');
    else if (l.startsWith('type=')) cur.type = field(l, 'type=');
    else if (l.startsWith('action=')) cur.action = field(l, 'action=');
    else if (l.startsWith('actionValue=')) cur.actionValue = field(l, 'actionValue=');
    else if (l.startsWith('condition=')) {
      cur.condition = field(l, 'condition=').match(conditionPattern) ?? [];
      filters.push(cur);
    }
  }
  return filters;
}

const matchRecord = (pattern: Record<string, unknown>, item: Record<string, unknown>) =>
  Object.entries(pattern).every(([k, v]) => k in item && isDeepStrictEqual(item[k], v));

/**
 * check_thunderbird_filter — `result`: msgFilterRules.dat; `expected`: `{expect: [filter fields], unexpect: [...]}`
 * where a filter has name, enabled, type, action, actionValue and condition (the list of `AND (…)` / `OR (…)` /
 * `ALL` terms). 1 when every expected record matches some filter and none matches an unexpected one.
 */
async function checkThunderbirdFilter(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const file = await readAsPython(result, 'filter file');
  if ('error' in file) return fail(file.error);
  const filters = filtersOf(file.text);
  const rules = isRecord(expected) ? expected : {};
  const list = (k: string) => (Array.isArray(rules[k]) ? (rules[k] as unknown[]).filter(isRecord) : []);
  const missing = list('expect').filter((r) => !filters.some((f) => matchRecord(r, f)));
  if (missing.length)
    return fail(`${missing.length} expected filter(s) not found among ${filters.length}: ${brief(missing)}`);
  const bad = filters.filter((f) => list('unexpect').some((r) => matchRecord(r, f)));
  return verdict(
    bad.length === 0,
    `all ${list('expect').length} expected filters present`,
    `unexpected filters: ${bad.map((f) => String(f.name)).join(', ')}`,
  );
}

/**
 * check_thunderbird_folder — mbox folder files (or lists of them, compared pairwise up to the shorter list, as
 * Python's zip) hold the same messages. Options: `ignore_status`, `ignore_keys`, `remove_deleted` (default true:
 * status 0008/0009 dropped), `remove_duplicate` (default true); `ignore_keys` removes an `X-Mozilla-Keys` line only
 * where a `MIME-Version` header follows it. Upstream splits messages on `FROM - `, but
 * Thunderbird writes `From - <time>` lines: a folder Thunderbird wrote is read as ONE message (kept as upstream),
 * so order and the `From - ` times count, and one deleted message drops the whole file (two folders that each hold
 * a deleted message compare equal). Files are read as Python's open() reads them (`readAsPython`).
 */
async function checkThunderbirdFolder(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  // a list of references with one result path: upstream zips the path's characters and cannot open them
  if (Array.isArray(expected) && !Array.isArray(result))
    return fail(`expected ${expected.length} folders but the result is not a list`);
  const [rs, es] = Array.isArray(expected)
    ? [result as unknown[], expected.slice(0, (result as unknown[]).length)]
    : [[result], [expected]];
  const read = async (path: unknown, i: number): Promise<{ text: string } | { error: string }> => {
    const file = await readAsPython(path, `folder ${i + 1}`);
    if ('error' in file) return file;
    let msgs = file.text
      .trim()
      .split('FROM - ')
      .filter((m) => m.trim() && !(options.remove_deleted !== false && /X-Mozilla-Status: 000[89]/.test(m)))
      .map((m) => {
        let msg = m;
        if (options.ignore_status) msg = msg.replace(/X-Mozilla-Status\d?:[\s\d]+/g, '');
        if (options.ignore_keys) msg = msg.replace(/(X-Mozilla-Keys:[^\n]*?)\n(MIME-Version)/g, '$2');
        return 'FROM - ' + msg.trim();
      });
    if (options.remove_duplicate !== false) msgs = [...new Set(msgs)];
    return { text: msgs.sort().join('\n') };
  };
  for (const [i, gold] of es.entries()) {
    if (rs[i] === undefined || rs[i] === null) return fail(`result folder ${i + 1} is missing`);
    const [a, b] = [await read(rs[i], i), await read(gold, i)];
    if ('error' in a) return fail(a.error);
    if ('error' in b) return fail(b.error);
    if (a.text !== b.text) return fail(`folder ${i + 1} holds different messages`);
  }
  return pass('every folder holds the expected messages');
}

registerMetricFamily('thunderbird', {
  check_thunderbird_prefs: checkThunderbirdPrefs,
  check_thunderbird_filter: checkThunderbirdFilter,
  check_thunderbird_folder: checkThunderbirdFolder,
});
