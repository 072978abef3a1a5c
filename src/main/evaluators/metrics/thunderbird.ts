// OSWorld's Thunderbird metrics (family `thunderbird`; desktop_env/evaluators/metrics/thunderbird.py): prefs.js
// values against `{method, ref}` rules, message filters in msgFilterRules.dat, and mail folders (mbox files).
import { isDeepStrictEqual } from 'node:util';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { brief, isRecord, readText } from './inputs';
import { matchValueToRule } from './os';

const prefLine = /^user_pref\("((?:[^"]|\\")+)", (.+)\);$/;

/**
 * check_thunderbird_prefs — `result`: prefs.js; `expected`: `{expect: {pref: {method, ref}}, unexpect: {…}}`. Each
 * `user_pref("key", value);` line's value is read as JSON; 1 when every expected pref is present and matches and no
 * unexpected one matches.
 */
async function checkThunderbirdPrefs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`prefs file ${brief(result)} cannot be read`);
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
      if (key in expect && isRecord(expect[key])) ok.set(key, matchValueToRule(value, expect[key] as Record<string, unknown>));
      else if (key in unexpect && isRecord(unexpect[key]) && matchValueToRule(value, unexpect[key] as Record<string, unknown>)) found.push(key);
    }
  } catch (e) {
    return fail((e as Error).message);
  }
  const missing = [...ok].filter(([, v]) => !v).map(([k]) => k);
  if (missing.length) return fail(`missing or wrong preferences: ${missing.join(', ')}`);
  return verdict(found.length === 0, 'all preferences as expected', `unexpected preferences: ${found.join(', ')}`);
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

const matchRecord = (pattern: Record<string, unknown>, item: Record<string, unknown>) => Object.entries(pattern).every(([k, v]) => k in item && isDeepStrictEqual(item[k], v));

/**
 * check_thunderbird_filter — `result`: msgFilterRules.dat; `expected`: `{expect: [filter fields], unexpect: [...]}`
 * where a filter has name, enabled, type, action, actionValue and condition (the list of `AND (…)` / `OR (…)` /
 * `ALL` terms). 1 when every expected record matches some filter and none matches an unexpected one.
 */
async function checkThunderbirdFilter(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  if (text === undefined) return fail(`filter file ${brief(result)} cannot be read`);
  const filters = filtersOf(text);
  const rules = isRecord(expected) ? expected : {};
  const list = (k: string) => (Array.isArray(rules[k]) ? (rules[k] as unknown[]).filter(isRecord) : []);
  const missing = list('expect').filter((r) => !filters.some((f) => matchRecord(r, f)));
  if (missing.length) return fail(`${missing.length} expected filter(s) not found among ${filters.length}: ${brief(missing)}`);
  const bad = filters.filter((f) => list('unexpect').some((r) => matchRecord(r, f)));
  return verdict(bad.length === 0, `all ${list('expect').length} expected filters present`, `unexpected filters: ${bad.map((f) => String(f.name)).join(', ')}`);
}

/**
 * check_thunderbird_folder — mbox folder files (or lists of them) hold the same messages. Options: `ignore_status`,
 * `ignore_keys`, `remove_deleted` (default true: status 0008/0009 dropped), `remove_duplicate` (default true).
 */
async function checkThunderbirdFolder(result: unknown, expected: unknown, options: Record<string, unknown>): Promise<MetricOutcome> {
  const [rs, es] = Array.isArray(expected) ? [Array.isArray(result) ? result : [result], expected] : [[result], [expected]];
  const read = async (path: unknown): Promise<string | undefined> => {
    const data = (await readText(path))?.trim();
    if (data === undefined) return undefined;
    let msgs = data
      .split('FROM - ')
      .filter((m) => m.trim() && !(options.remove_deleted !== false && /X-Mozilla-Status: 000[89]/.test(m)))
      .map((m) => {
        let msg = m;
        if (options.ignore_status) msg = msg.replace(/X-Mozilla-Status\d?:[\s\d]+/g, '');
        if (options.ignore_keys) msg = msg.replace(/(X-Mozilla-Keys:[^\n]*?)\n(MIME-Version)/g, '$2');
        return 'FROM - ' + msg.trim();
      });
    if (options.remove_duplicate !== false) msgs = [...new Set(msgs)];
    return msgs.sort().join('\n');
  };
  for (const [i, gold] of es.entries()) {
    if (rs[i] === undefined || rs[i] === null) return fail(`result folder ${i + 1} is missing`);
    const [a, b] = [await read(rs[i]), await read(gold)];
    if (a === undefined || b === undefined) return fail(`folder ${i + 1} cannot be read`);
    if (a !== b) return fail(`folder ${i + 1} holds different messages`);
  }
  return pass('every folder holds the expected messages');
}

registerMetricFamily('thunderbird', {
  check_thunderbird_prefs: checkThunderbirdPrefs,
  check_thunderbird_filter: checkThunderbirdFilter,
  check_thunderbird_folder: checkThunderbirdFolder,
});
