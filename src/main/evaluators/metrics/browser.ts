// OSWorld's Chrome metrics (family `browser`; desktop_env/evaluators/metrics/chrome.py): open tabs, the active tab,
// bookmarks, search queries, installed extensions, deleted cookies and history. URLs compare as OSWorld's
// compare_urls does (sameUrl, shared with the chrome_close_tabs setup step).
import { sameUrl } from '../../setup/browser-funcs';
import { registerMetricFamily } from '../family';
import { compilePython } from '../python/re';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, isRecord, readBytes } from './inputs';
import { sameSoupNode, soupNodes } from './html-soup';

function urlOf(info: unknown): string | undefined {
  if (typeof info === 'string') return info;
  return isRecord(info) && typeof info.url === 'string' ? info.url : undefined;
}

function ruleOf(expected: unknown): Record<string, unknown> {
  return isRecord(expected) ? expected : {};
}

/** OSWorld's are_lists_equal: same length, and every expected item has an equal item in the other list. */
function listsEqual(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.some((y) => sameUrl(x, y)));
}

/** is_expected_tabs — `result`: open tabs `[{url}]`; `expected`: `{type: url, urls}`. 1 when the URL lists are equal. */
async function isExpectedTabs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!Array.isArray(result) || result.length === 0) return fail('no open tabs');
  const rule = ruleOf(expected);
  if (rule.type !== 'url') return fail(`unknown type ${brief(rule.type)}`);
  const want = Array.isArray(rule.urls) ? rule.urls.map(String) : [];
  const got = result.map((t) => urlOf(t) ?? '');
  return verdict(
    listsEqual(want, got),
    `tabs are ${brief(want)}`,
    `tabs are ${brief(got)}, expected ${brief(want)}`,
  );
}

function activeTabMetric(compare: (a: string, b: string) => boolean) {
  return async (result: unknown, expected: unknown): Promise<MetricOutcome> => {
    if (!result) return fail('no active tab');
    const rule = ruleOf(expected);
    if (rule.type !== 'url') return fail(`unknown type ${brief(rule.type)}`);
    const got = urlOf(result);
    const want = String(rule.url);
    return verdict(
      got !== undefined && compare(want, got),
      `active tab is ${want}`,
      `active tab is ${brief(got)}, expected ${want}`,
    );
  };
}

function withoutQuery(u: string): string {
  try {
    const p = new URL(u);
    p.search = '';
    return p.toString();
  } catch {
    return u.replace(/\?[^#]*/, '');
  }
}

function children(node: unknown): Record<string, unknown>[] {
  return isRecord(node) && Array.isArray(node.children) ? node.children.filter(isRecord) : [];
}

/** All combinations choosing one URL per position (a string is a position with one choice). */
function* combinations(lists: string[][], i = 0, acc: string[] = []): Generator<string[]> {
  if (i === lists.length) {
    yield acc;
    return;
  }
  for (const x of lists[i]) yield* combinations(lists, i + 1, [...acc, x]);
}

const sameSet = (a: string[], b: string[]) =>
  new Set(a).size === new Set(b).size && a.every((x) => b.includes(x));

/**
 * is_expected_bookmarks — `result`: Chrome's bookmark roots; `expected`: `{type, names?, urls?}`.
 * `bookmark_bar_folders_names`: the bar's folder names are the set `names`; `bookmark_bar_websites_urls`: its URLs
 * are the set `urls`; `liked_authors_websites_urls`: a bar folder named one of `names` (default "Liked Authors")
 * holds exactly a set of URLs choosing one per entry of `urls` (an entry may list alternatives).
 */
async function isExpectedBookmarks(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!isRecord(result) || Object.keys(result).length === 0) return fail('no bookmarks');
  const rule = ruleOf(expected);
  const bar = children(result.bookmark_bar);
  if (rule.type === 'bookmark_bar_folders_names') {
    const got = bar.filter((b) => b.type === 'folder').map((b) => String(b.name));
    const want = Array.isArray(rule.names) ? rule.names.map(String) : [];
    return verdict(
      sameSet(got, want),
      `bar folders are ${brief(want)}`,
      `bar folders are ${brief(got)}, expected ${brief(want)}`,
    );
  }
  if (rule.type === 'bookmark_bar_websites_urls') {
    const got = bar.filter((b) => b.type === 'url').map((b) => String(b.url));
    const want = Array.isArray(rule.urls) ? rule.urls.map(String) : [];
    return verdict(
      sameSet(got, want),
      `bar sites are ${brief(want)}`,
      `bar sites are ${brief(got)}, expected ${brief(want)}`,
    );
  }
  if (rule.type === 'liked_authors_websites_urls') {
    const names = Array.isArray(rule.names) ? rule.names.map(String) : ['Liked Authors'];
    const folder = bar.find((b) => b.type === 'folder' && names.includes(String(b.name)));
    if (!folder) return fail(`no bar folder named ${brief(names)}`);
    const got = children(folder)
      .filter((b) => b.type === 'url')
      .map((b) => String(b.url));
    const lists = (Array.isArray(rule.urls) ? rule.urls : []).map((u) =>
      Array.isArray(u) ? u.map(String) : [String(u)],
    );
    for (const c of combinations(lists)) if (sameSet(c, got)) return pass(`folder holds ${brief(c)}`);
    return fail(`folder holds ${brief(got)}, not one choice of ${brief(lists)}`);
  }
  return fail(`bookmark rule type ${brief(rule.type)} is not supported (OSWorld raises)`);
}

/** is_expected_search_query — `expected`: `{expect: {pattern}}`; 1 when the Python re pattern is found (re.search)
 * in the active tab's URL. A pattern Python rejects or the Python pattern layer cannot honour is a grading error. */
async function isExpectedSearchQuery(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const url = urlOf(result);
  if (!url) return fail('no active tab');
  const e = ruleOf(expected).expect;
  const pattern = isRecord(e) ? String(e.pattern) : '';
  return verdict(
    compilePython(pattern).search(url) !== null,
    `URL matches ${pattern}`,
    `URL ${url} does not match ${pattern}`,
  );
}

/** is_expected_installed_extensions — `expected`: `{expected: [name]}`; 1 when all are among the installed ones. */
async function isExpectedInstalledExtensions(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!Array.isArray(result) || result.length === 0) return fail('no installed extensions');
  const want = Array.isArray(ruleOf(expected).expected)
    ? (ruleOf(expected).expected as unknown[]).map(String)
    : [];
  const missing = want.filter((w) => !result.map(String).includes(w));
  return verdict(
    missing.length === 0,
    `all ${want.length} extensions installed`,
    `not installed: ${brief(missing)}`,
  );
}

/** is_cookie_deleted — `result`: cookie rows (host in column 1); `expected`: `{type: domains, domains}`. 1 when no
 * cookie's host equals (as URLs) one of the domains. */
async function isCookieDeleted(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const rule = ruleOf(expected);
  if (rule.type !== 'domains') return fail(`unknown type ${brief(rule.type)}`);
  const hosts = (Array.isArray(result) ? result : []).map((row) =>
    Array.isArray(row) ? String(row[1]) : '',
  );
  const domains = Array.isArray(rule.domains) ? rule.domains.map(String) : [];
  const left = domains.filter((d) => hosts.some((h) => sameUrl(d, h)));
  return verdict(left.length === 0, `no cookies of ${brief(domains)}`, `cookies left for ${brief(left)}`);
}

/** check_history_deleted — `result`: history rows (URL in column 0); `expected`: `{type: keywords, keywords}`. 1 when
 * no URL contains a keyword. */
async function checkHistoryDeleted(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const rule = ruleOf(expected);
  if (rule.type !== 'keywords') return fail(`unknown type ${brief(rule.type)}`);
  const urls = (Array.isArray(result) ? result : []).map((row) => (Array.isArray(row) ? String(row[0]) : ''));
  const keywords = Array.isArray(rule.keywords) ? rule.keywords.map(String) : [];
  const left = keywords.filter((k) => urls.some((u) => u.includes(k)));
  return verdict(
    left.length === 0,
    `no history entries with ${brief(keywords)}`,
    `history still holds ${brief(left)}`,
  );
}

/** is_shortcut_on_desktop — `result`: `{file: content}` of the desktop's .desktop files; `expected`: `{type: name,
 * name}` or `{type: exec, exec}`; 1 when a file has the line `Name=<name>` / `Exec=<exec>`. */
async function isShortcutOnDesktop(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const rule = ruleOf(expected);
  if (rule.type !== 'name' && rule.type !== 'exec')
    return fail(`shortcut rule type ${brief(rule.type)} is not supported (OSWorld raises)`);
  const line = rule.type === 'name' ? `Name=${String(rule.name)}\n` : `Exec=${String(rule.exec)}\n`;
  const files = isRecord(result) ? Object.entries(result) : [];
  const hit = files.find(([, content]) => String(content).includes(line));
  return verdict(
    !!hit,
    `${hit?.[0]} has ${line.trim()}`,
    `no desktop shortcut has ${line.trim()} (${files.length} shortcuts)`,
  );
}

/** check_enabled_experiments — `result`: enabled chrome://flags entries (`name@n`); `expected`: `{type: names, names}`;
 * 1 when the names, in order, are exactly those. */
async function checkEnabledExperiments(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const rule = ruleOf(expected);
  if (rule.type !== 'names') return fail(`unknown type ${brief(rule.type)}`);
  const names = (Array.isArray(result) ? result : []).map((e) => String(e).split('@')[0]);
  const want = Array.isArray(rule.names) ? rule.names.map(String) : [];
  return verdict(
    names.length === want.length && names.every((n, i) => n === want[i]),
    `experiments are ${brief(want)}`,
    `experiments are ${brief(names)}, expected ${brief(want)}`,
  );
}

/** check_font_size — `result`: `{default_font_size}`; `expected`: `{type: value, value}` or `{type: range, min, max}`
 * (exclusive). */
async function checkFontSize(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const rule = ruleOf(expected);
  const size = isRecord(result) ? Number(result.default_font_size) : NaN;
  if (rule.type === 'value')
    return verdict(
      size === rule.value,
      `font size ${size}`,
      `font size ${size}, expected ${String(rule.value)}`,
    );
  if (rule.type === 'range')
    return verdict(
      Number(rule.min) < size && size < Number(rule.max),
      `font size ${size} in range`,
      `font size ${size} not between ${String(rule.min)} and ${String(rule.max)}`,
    );
  return fail(`unknown type ${brief(rule.type)}`);
}

/** is_added_to_steam_cart — `result`: `{content}` of the active tab; `expected`: `{items}`; 1 when every item occurs. */
async function isAddedToSteamCart(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const content = isRecord(result) ? String(result.content ?? '') : '';
  const items = Array.isArray(ruleOf(expected).items)
    ? (ruleOf(expected).items as unknown[]).map(String)
    : [];
  const missing = items.filter((i) => !content.includes(i));
  return verdict(
    missing.length === 0,
    `all ${items.length} items in the cart`,
    `not in the cart: ${brief(missing)}`,
  );
}

/**
 * compare_htmls — `result`, `expected`: HTML files. Both are read as BeautifulSoup over lxml reads them
 * (html-soup.ts) and walked node by node side by side; 1 unless a pair differs (tags: name, stripped text,
 * attributes; strings: their text). As upstream, the walk stops at the end of the shorter document, so a file
 * that only adds nodes at the end still scores 1. A missing file or one that is not UTF-8 fails (upstream raises).
 */
async function compareHtmls(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const texts: string[] = [];
  for (const [what, path] of [
    ['result', result],
    ['expected', expected],
  ] as const) {
    const bytes = await readBytes(path);
    if (!bytes) return fail(`${what} HTML ${brief(path)} is missing (OSWorld raises)`);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return fail(`${what} HTML ${brief(path)} is not UTF-8 (OSWorld raises)`);
    }
    texts.push(text);
  }
  const [a, b] = texts.map(soupNodes);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (!sameSoupNode(a[i], b[i])) return fail(`node ${i + 1} differs: ${brief(a[i])} vs ${brief(b[i])}`);
  }
  return pass(`the first ${Math.min(a.length, b.length)} nodes agree`);
}

registerDeparture({
  metric: 'compare_htmls',
  profile: 'osworld',
  case: 'malformed HTML that libxml2 repairs',
  why: "Proctor reads HTML with htmlparser2 and reproduces libxml2's implied html/head/body, its <p> around bare text and its dropping of ignorable whitespace; other repairs libxml2 makes to broken markup (misnested tags, stray end tags) are not reproduced",
});

registerMetricFamily('browser', {
  compare_htmls: compareHtmls,
  is_expected_tabs: isExpectedTabs,
  is_expected_active_tab: activeTabMetric(sameUrl),
  is_expected_active_tab_approximate: activeTabMetric((a, b) => withoutQuery(a) === withoutQuery(b)),
  is_expected_bookmarks: isExpectedBookmarks,
  is_expected_search_query: isExpectedSearchQuery,
  is_expected_installed_extensions: isExpectedInstalledExtensions,
  is_cookie_deleted: isCookieDeleted,
  check_history_deleted: checkHistoryDeleted,
  is_shortcut_on_desktop: isShortcutOnDesktop,
  check_enabled_experiments: checkEnabledExperiments,
  check_font_size: checkFontSize,
  is_added_to_steam_cart: isAddedToSteamCart,
});
