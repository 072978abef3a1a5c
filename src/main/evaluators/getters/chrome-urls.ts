// OSWorld's rule-shaping getters for Chrome tasks (family `browser`; getters/chrome.py, getters/misc.py): parts of
// the active tab's URL (url_dashPart, url_path_parse) and dates relative to the machine's today filled into a
// rule (rule_relativeTime).
import type { GetterSpec } from '../../../shared/task';
import { registerFamilyGetter } from '../family';
import type { GradingContext } from '../getter';
import { pyInt, pyTruthy } from './chrome-python';
import { MONTH_NAMES, WEEKDAY_NAMES } from './calendar';
import { activeTab } from './chrome-session';
import { commandOutput } from './general';

/** The active tab's URL (upstream reads the address bar and puts `goto_prefix` before it; CDP gives it whole). */
async function activeUrl(spec: GetterSpec, ctx: GradingContext): Promise<string | undefined> {
  return (await activeTab(ctx, spec.type))?.url;
}

/**
 * url_dashPart `{partIndex, returnType, needDeleteId?, key?}` — the `partIndex`-th piece of the active tab's URL
 * split at "/" (negative counts from the end, as Python's), cut at "?" with `needDeleteId`; a string, or
 * `{<key>: piece}` with returnType "json". Undefined without a tab, with an index past the end or not a number,
 * or another returnType; an error without partIndex / returnType or with a negative index before the start
 * (upstream raises).
 */
async function urlDashPart(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  for (const field of ['partIndex', 'returnType'])
    if (!(field in spec)) throw new Error(`getter 'url_dashPart' needs '${field}'`);
  const url = await activeUrl(spec, ctx);
  if (url === undefined) return undefined;
  const index = pyInt(spec.partIndex);
  if (index === undefined) return undefined;
  const parts = url.split('/');
  if (index >= parts.length) return undefined;
  let part = parts.at(index);
  if (part === undefined)
    throw new Error(`getter 'url_dashPart': partIndex ${index} is out of range for ${url}`);
  if (pyTruthy(spec.needDeleteId)) part = part.split('?')[0];
  if (spec.returnType === 'string') return part;
  if (spec.returnType === 'json') {
    if (typeof spec.key !== 'string')
      throw new Error(`getter 'url_dashPart' with returnType "json" needs a string 'key'`);
    return { [spec.key]: part };
  }
  return undefined;
}

/** Python's unquote: %XX sequences decoded as UTF-8 (a bad sequence kept as it is). */
function unquote(s: string): string {
  return s.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(
        run
          .split('%')
          .slice(1)
          .map((h) => parseInt(h, 16)),
      ).toString('utf8');
    }
  });
}

/**
 * url_path_parse `{parse_keys}` — OSWorld's reading of a Macy's product-listing URL path: `mens_clothing`,
 * `shirts`, `short_sleeve` (true or null), and for each of `parse_keys` found among the path's "keys,…/values,…"
 * facet pair its value (null when empty); Price_discount_range reads "50_PERCENT_ off & more" when that range alone
 * of the 20/30/50 % ones is chosen, else "not_50_PERCENT_ off & more".
 */
async function urlPathParse(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const url = await activeUrl(spec, ctx);
  if (url === undefined) return undefined;
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    pathname = url.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  }
  const path = unquote(pathname);
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  const facets: Record<string, unknown> = {};
  let shirts = path.includes('shirts');
  let shortSleeve = path.includes('short-sleeve');
  for (let i = 0; i < parts.length - 1; i++) {
    if (!parts[i].includes(',') || !parts[i + 1].includes(',')) continue;
    const keys = parts[i].split(',').map((k) => k.trim());
    const values = parts[i + 1].split(',').map((v) => v.trim());
    for (let j = 0; j < Math.min(keys.length, values.length); j++) {
      const [k, v] = [keys[j], values[j]];
      facets[k] = k === 'Price_discount_range' ? (v ? v.split('|').map((x) => x.trim()) : null) : v || null;
      if (k === 'Product_department' && ['shirts', 'Shirts', 'Shirt'].includes(v)) shirts = true;
      if (k === 'Sleeve_length' && ['short-sleeve', 'Short Sleeve'].includes(v)) shortSleeve = true;
    }
    break;
  }
  for (const f of ['Men_regular_size_t', 'Price_discount_range']) if (!(f in facets)) facets[f] = null;
  const result: Record<string, unknown> = {
    mens_clothing: path.includes('mens-clothing') ? true : null,
    shirts: shirts ? true : null,
    short_sleeve: shortSleeve ? true : null,
  };
  for (const key of Array.isArray(spec.parse_keys) ? spec.parse_keys.map(String) : []) {
    if (!(key in facets)) continue;
    if (key === 'Price_discount_range') {
      const v = facets[key];
      const ranges = Array.isArray(v) ? (v as string[]) : [];
      const only50 =
        Array.isArray(v) &&
        ranges.includes('50_PERCENT_ off & more') &&
        !ranges.includes('30_PERCENT_ off & more') &&
        !ranges.includes('20_PERCENT_ off & more');
      result[key] = only50 ? '50_PERCENT_ off & more' : 'not_50_PERCENT_ off & more';
    } else {
      result[key] = facets[key];
    }
  }
  return result;
}

/** A calendar day (the wall-clock date in some time zone), as a UTC midnight. */
type Day = Date;
const day = (y: number, m: number, d: number): Day => new Date(Date.UTC(y, m - 1, d));
const addDays = (d: Day, n: number): Day => new Date(d.getTime() + n * 86_400_000);
/** Python's weekday(): Monday 0 … Sunday 6. */
const weekday = (d: Day): number => (d.getUTCDay() + 6) % 7;

/** The wall-clock date of `instant` in `timeZone` (throws RangeError on an unknown zone). */
function dateIn(instant: Date, timeZone: string): Day {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(instant);
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return day(n('year'), n('month'), n('day'));
}

/** Today as upstream sees it: the machine's local date (converted to `timezone` when the rules name one); when the
 * machine does not answer, the grader's clock in `timezone` or UTC (upstream would first ask an IP-geolocation
 * service; Proctor does not). */
async function today(ctx: GradingContext, timezone: string | undefined): Promise<Day> {
  const out = (await commandOutput(ctx, 'date +%Y-%m-%dT%H:%M:%S%:z').catch(() => '')).trim();
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})([+-]\d{2}:\d{2}|Z)$/.exec(out);
  if (m) {
    if (timezone) {
      try {
        return dateIn(new Date(out), timezone);
      } catch {
        /* unknown zone: the machine's date as it is */
      }
    }
    return day(Number(m[1]), Number(m[2]), Number(m[3]));
  }
  try {
    return dateIn(new Date(), timezone || 'UTC');
  } catch {
    return dateIn(new Date(), 'UTC');
  }
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** OSWorld's apply_rules_to_timeFormat: each placeholder's first occurrence, in upstream's order. */
export function formatDay(format: unknown, d: Day): string {
  if (typeof format !== 'string')
    throw new Error(`rule_relativeTime: a time format must be a string, got ${JSON.stringify(format)}`);
  const month = d.getUTCMonth() + 1;
  const replacements: [string, string][] = [
    ['{DoW}', WEEKDAY_NAMES[d.getUTCDay()].slice(0, 3)],
    ['{Month}', MONTH_NAMES[month - 1].slice(0, 3)],
    ['{DayD}', String(d.getUTCDate())],
    ['{Year}', String(d.getUTCFullYear())],
    ['{Month0D}', two(month)],
    ['{month}', MONTH_NAMES[month - 1].toLowerCase()],
    ['{MonthFull}', MONTH_NAMES[month - 1]],
    ['{Day0D}', two(d.getUTCDate())],
    ['{MonthD}', String(month)],
  ];
  let s = format;
  for (const [from, to] of replacements) s = s.replace(from, () => to);
  return s;
}

/** The relative names upstream knows ("tomorrow" is one day; the others are computed case by case). */
const known = new Set([
  'tomorrow',
  '5th next month',
  '10th next month',
  '11th next month',
  'this month',
  'this Saturday',
  'this Sunday',
  'next Monday',
  'next Friday',
  'next Saturday',
  'next Sunday',
  'next week Friday',
  'next week Saturday',
  'next week Sunday',
  'week after next Friday',
  'week after next Saturday',
  'week after next Sunday',
  'first monday four months later',
  'first monday eight months later',
  'next Monday split',
  'next Friday split',
  'week after next Monday split',
  'week after next Friday split',
]);

function nthNextMonth(now: Day, n: number): Day {
  const m = now.getUTCMonth() + 1;
  return day(m === 12 ? now.getUTCFullYear() + 1 : now.getUTCFullYear(), m < 12 ? m + 1 : 1, n);
}

function firstMondayLater(now: Day, months: number, nextYearFrom: number): Day {
  const m = now.getUTCMonth() + 1;
  const first = day(
    m >= nextYearFrom ? now.getUTCFullYear() + 1 : now.getUTCFullYear(),
    ((m + months - 1) % 12) + 1,
    1,
  );
  return addDays(first, (6 - weekday(first) + 1) % 7);
}

/** The day of a single relative time (upstream's "from"-only branch); undefined where upstream has no case. */
function singleDay(name: string, now: Day): Day | undefined {
  const wd = weekday(now);
  switch (name) {
    case 'tomorrow':
      return addDays(now, 1);
    case '5th next month':
      return nthNextMonth(now, 5);
    case '10th next month':
      return nthNextMonth(now, 10);
    case 'this month':
      return now;
    case 'next Monday':
      return addDays(now, 6 - wd + 1);
    case 'first monday four months later':
      return firstMondayLater(now, 4, 9);
    case 'first monday eight months later':
      return firstMondayLater(now, 8, 5);
    default:
      return undefined;
  }
}

/** The start day of a range (upstream's "from" with a "to"). */
function fromDay(name: string, now: Day): Day | undefined {
  const wd = weekday(now);
  const toMonday = 7 - wd;
  switch (name) {
    case 'tomorrow':
      return addDays(now, 1);
    case 'this Saturday':
      return addDays(now, 5 - wd);
    case '10th next month':
      return nthNextMonth(now, 10);
    case 'next Monday':
    case 'next Monday split':
      return addDays(now, 6 - wd + 1);
    case 'week after next Monday split':
      return addDays(now, 6 - wd + 1 + 7);
    case 'next Friday':
      return addDays(now, wd < 4 ? 4 - wd : wd === 4 ? 7 : 7 - wd + 4);
    case 'next Saturday':
      return addDays(now, wd < 5 ? 5 - wd : wd === 5 ? 7 : 6);
    case 'next week Friday':
      return addDays(now, toMonday + 4);
    case 'next week Saturday':
      return addDays(now, toMonday + 5);
    case 'next week Sunday':
      return addDays(now, toMonday + 6);
    case 'week after next Friday':
      return addDays(now, toMonday + 4 + 7);
    case 'week after next Saturday':
      return addDays(now, toMonday + 5 + 7);
    case 'week after next Sunday':
      return addDays(now, toMonday + 6 + 7);
    default:
      return undefined;
  }
}

/** The end day of a range (upstream's "to"), which may depend on the start. */
function toDay(name: string, fromName: string, from: Day | undefined, now: Day): Day | undefined {
  const wd = weekday(now);
  const sundayAfter = (d: Day) => addDays(d, 6 - weekday(d));
  switch (name) {
    case 'tomorrow':
      return addDays(now, 1);
    case 'this Sunday':
      return addDays(now, 6 - wd);
    case '11th next month':
      return nthNextMonth(now, 11);
    case 'next Friday':
    case 'next Friday split':
    case 'week after next Friday split':
      if (['next Monday', 'next Monday split', 'week after next Monday split'].includes(fromName))
        return from && addDays(from, 4);
      return addDays(now, wd < 4 ? 4 - wd : 6 - wd + 5);
    case 'next Sunday':
      if (['next Friday', 'next Saturday'].includes(fromName)) return from && sundayAfter(from);
      return addDays(now, wd < 6 ? 6 - wd : 7);
    case 'next week Sunday':
      if (['next week Friday', 'next week Saturday'].includes(fromName)) return from && sundayAfter(from);
      return addDays(now, 7 - wd + 6);
    case 'week after next Sunday':
      if (['week after next Friday', 'week after next Saturday'].includes(fromName))
        return from && sundayAfter(from);
      return addDays(now, 7 - wd + 6 + 7);
    default:
      return undefined;
  }
}

/**
 * rule_relativeTime `{rules: {relativeTime: {from, to?}, expected, timezone?}}` — the rules with the expected
 * dates filled in from today on the machine: with only `from`, expected.time (a format or a list of formats);
 * with `to`, expected.from and expected.to (or puDay/puMonth/puYear for a "… Monday split" start and
 * doDay/doMonth/doYear for a "… Friday split" end). Formats take {DoW} {Month} {DayD} {Year} {Month0D} {month}
 * {MonthFull} {Day0D} {MonthD}. A relative name upstream does not know, or has no case for where it is used,
 * is an error (upstream raises).
 */
async function ruleRelativeTime(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const rules = structuredClone(spec.rules) as Record<string, unknown>;
  const rel = rules?.relativeTime as Record<string, unknown> | undefined;
  const expected = rules?.expected as Record<string, unknown> | undefined;
  if (!rel || typeof rel !== 'object' || !expected || typeof expected !== 'object')
    throw new Error(`getter 'rule_relativeTime' needs rules.relativeTime and rules.expected objects`);
  const check = (name: unknown): string => {
    if (typeof name !== 'string' || !known.has(name))
      throw new Error(
        `rule_relativeTime: unknown relative time ${JSON.stringify(name)} (rules.relativeTime)`,
      );
    return name;
  };
  const fail = (name: string, where: string): never => {
    throw new Error(
      `rule_relativeTime: OSWorld computes no date for "${name}" as rules.relativeTime.${where}`,
    );
  };
  const now = await today(
    ctx,
    typeof rules.timezone === 'string' && rules.timezone ? rules.timezone : undefined,
  );
  if (!('to' in rel)) {
    const name = check(rel.from);
    const d = singleDay(name, now) ?? fail(name, 'from');
    expected.time = Array.isArray(expected.time)
      ? expected.time.map((t) => formatDay(t, d))
      : formatDay(expected.time, d);
    return rules;
  }
  const fromName = check(rel.from);
  const toName = check(rel.to);
  const from = fromDay(fromName, now);
  if (['next Monday split', 'week after next Monday split'].includes(fromName)) {
    const d = from ?? fail(fromName, 'from');
    for (const k of ['puDay', 'puMonth', 'puYear']) expected[k] = formatDay(expected[k], d);
  } else {
    expected.from = formatDay(expected.from, from ?? fail(fromName, 'from'));
  }
  const to = toDay(toName, fromName, from, now) ?? fail(toName, 'to');
  if (['next Friday split', 'week after next Friday split'].includes(toName)) {
    for (const k of ['doDay', 'doMonth', 'doYear']) expected[k] = formatDay(expected[k], to);
  } else {
    expected.to = formatDay(expected.to, to);
  }
  return rules;
}

registerFamilyGetter('browser', 'url_dashPart', ['devtools'], urlDashPart);
registerFamilyGetter('browser', 'url_path_parse', ['devtools'], urlPathParse);
registerFamilyGetter('browser', 'rule_relativeTime', ['commands'], ruleRelativeTime);

export const testing = { singleDay, fromDay, toDay, day };
