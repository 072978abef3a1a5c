// OSWorld's Chrome getters (family `browser`): what the browser keeps in its profile (bookmarks, history,
// cookies, preferences), read through the Environment's files, and the open tabs over DevTools. OSWorld reads the
// profile at ~/.config/google-chrome/Default; Proctor honours `user_data_dir` (as newer OSWorld does), then the
// running browser's --user-data-dir, then Google Chrome's and Chromium's default folders.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import type { GetterSpec } from '../../../shared/task';
import { registerFamilyGetter } from '../family';
import { specString, type GradingContext } from '../getter';
import { safeFileName } from '../task-files';
import { sleep } from '../../sleep';
import { openTab, tabsOf } from './chrome-session';
import { commandOutput } from './general';

/** Profile folders (`…/Default`) to look in, most likely first. */
export async function profileDirs(spec: GetterSpec, ctx: GradingContext): Promise<string[]> {
  if (typeof spec.user_data_dir === 'string' && spec.user_data_dir !== '') {
    return [`${spec.user_data_dir.replace(/^\$HOME(?=\/|$)/, '~').replace(/\/+$/, '')}/Default`];
  }
  const home = (await commandOutput(ctx, 'printf %s "$HOME"').catch(() => '')).trim();
  const running = await commandOutput(
    ctx,
    'ps -eo args 2>/dev/null | grep -o -- "--user-data-dir=[^ ]*" | sort -u',
  ).catch(() => '');
  const dirs = running
    .split('\n')
    .map((l) =>
      l
        .trim()
        .replace(/^--user-data-dir=/, '')
        .replace(/^["']|["']$/g, ''),
    )
    .filter((d) => d.startsWith('/'))
    .map((d) => `${d.replace(/\/+$/, '')}/Default`);
  // `$HOME` as the guest's commands see it (OSWorld's /home/user), and `~` (a sandboxed local home maps it)
  for (const h of [home, '~'])
    if (h) dirs.push(`${h}/.config/google-chrome/Default`, `${h}/.config/chromium/Default`);
  return [...new Set(dirs)];
}

/** The first of `names` (relative to a profile folder) that exists, and its bytes. */
export async function profileFile(
  spec: GetterSpec,
  ctx: GradingContext,
  names: string[],
): Promise<{ path: string; data: Buffer } | undefined> {
  for (const dir of await profileDirs(spec, ctx)) {
    for (const name of names) {
      const path = `${dir}/${name}`;
      const data = await ctx.env.getFile(path).catch(() => undefined); // a path the environment refuses is no profile
      if (data !== undefined) return { path, data };
    }
  }
  return undefined;
}

/** Rows of a query on a profile SQLite database (a copy kept under the grading cache as `dest`). */
async function profileRows(
  spec: GetterSpec,
  ctx: GradingContext,
  names: string[],
  sql: string,
): Promise<unknown[][] | undefined> {
  const file = await profileFile(spec, ctx, names);
  if (!file) return undefined;
  await mkdir(ctx.cacheDir, { recursive: true });
  await writeFile(
    join(
      ctx.cacheDir,
      safeFileName(typeof spec.dest === 'string' ? spec.dest : undefined, names[0].replace(/.*\//, '')),
    ),
    file.data,
  );
  const SQL = await initSqlJs();
  const db = new SQL.Database(file.data);
  try {
    return db.exec(sql)[0]?.values ?? [];
  } finally {
    db.close();
  }
}

/** bookmarks — the `roots` of the profile's Bookmarks file (bookmark_bar, other, synced); undefined without one. */
async function bookmarks(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const file = await profileFile(spec, ctx, ['Bookmarks']);
  if (!file) return undefined;
  try {
    return (JSON.parse(file.data.toString('utf8')) as { roots?: unknown }).roots;
  } catch {
    return undefined;
  }
}

/** history `{dest}` — rows `[url, title, last_visit_time]` of the History database's `urls` table. */
async function history(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return profileRows(spec, ctx, ['History'], 'SELECT url, title, last_visit_time FROM urls');
}

/** cookie_data `{dest}` — every row of the Cookies database (host in column 1). Chrome since version 96 keeps it
 * in Network/ (where newer OSWorld reads it); older profiles in Default/Cookies (where OSWorld's first release
 * looked): Proctor reads the first that exists. */
async function cookieData(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return profileRows(spec, ctx, ['Network/Cookies', 'Cookies'], 'SELECT * FROM cookies');
}

/** default_search_engine — the short name of the default search provider in Preferences ("Google" by default). */
async function defaultSearchEngine(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const file = await profileFile(spec, ctx, ['Preferences']);
  try {
    const prefs = JSON.parse(file?.data.toString('utf8') ?? '{}') as {
      default_search_provider_data?: { template_url_data?: { short_name?: unknown } };
    };
    return prefs.default_search_provider_data?.template_url_data?.short_name ?? 'Google';
  } catch {
    return 'Google';
  }
}

/** The profile's Preferences as JSON, or undefined. */
async function preferences(
  spec: GetterSpec,
  ctx: GradingContext,
): Promise<Record<string, unknown> | undefined> {
  const file = await profileFile(spec, ctx, ['Preferences']);
  try {
    const v = JSON.parse(file?.data.toString('utf8') ?? 'null') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const sub = (o: unknown, key: string): unknown =>
  o && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>)[key] : undefined;

/** chrome_font_size — Preferences' webkit.webprefs (Chrome's defaults 13 / 16 / 13 when it sets none). */
async function chromeFontSize(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const prefs = await preferences(spec, ctx);
  if (!prefs) return { default_fixed_font_size: 13, default_font_size: 16 };
  return (
    sub(sub(prefs, 'webkit'), 'webprefs') ?? {
      default_fixed_font_size: 13,
      default_font_size: 16,
      minimum_font_size: 13,
    }
  );
}

/** profile_name — Preferences' profile.name (undefined when unset). */
async function profileName(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return sub(sub(await preferences(spec, ctx), 'profile'), 'name');
}

/** open_tabs_info — `[{title, url}]` of every open page. */
async function openTabsInfo(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return (await tabsOf(ctx, spec.type)).map((t) => ({
    title: t.title,
    url: t.url,
  }));
}

/**
 * active_tab_url_parse `{parse_keys, replace?, split_list?, goto_prefix?}` — the active tab URL's query values for
 * `parse_keys` (the first value, "" when absent), keys renamed by `replace`, values split at commas with
 * `split_list`. Undefined without a tab.
 */
async function activeTabUrlParse(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const tab = (await tabsOf(ctx, spec.type))[0];
  if (!tab) return undefined;
  let url: URL;
  try {
    url = new URL(
      /^[a-z][\w+.-]*:/i.test(tab.url)
        ? tab.url
        : `${typeof spec.goto_prefix === 'string' ? spec.goto_prefix : 'https://'}${tab.url}`,
    );
  } catch {
    return undefined;
  }
  const keys = Array.isArray(spec.parse_keys) ? spec.parse_keys.map(String) : [];
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = url.searchParams.getAll(k).find((v) => v !== '') ?? '';
  if (spec.replace && typeof spec.replace === 'object') {
    for (const [from, to] of Object.entries(spec.replace as Record<string, unknown>)) {
      const v = out[from];
      delete out[from];
      out[String(to)] = v;
    }
  }
  if (spec.split_list === true) for (const k of Object.keys(out)) out[k] = String(out[k]).split(',');
  return out;
}

/**
 * page_info `{url}` — opens `url` in a new tab, waits for it to load, and gives `{title, url, content}` (the page's
 * HTML); the tab is closed again. A page that does not finish loading in 60 s gives title 'Load timeout' (as
 * OSWorld).
 */
async function pageInfo(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const url = specString(spec, 'url');
  const s = await openTab(ctx, spec.type, { url });
  try {
    let loaded = false;
    for (const until = Date.now() + 60_000; !loaded && Date.now() < until;) {
      loaded = (await s.evaluate('document.readyState', 10_000).catch(() => '')) === 'complete';
      if (!loaded) await sleep(200, ctx.signal);
    }
    const info = (await s.evaluate(
      '({ title: document.title, url: location.href, content: document.documentElement.outerHTML })',
      30_000,
    )) as Record<string, unknown>;
    return loaded ? info : { ...info, title: 'Load timeout' };
  } finally {
    // the tab is closed and gone from the browser's list before the next getter (open_tabs_info) looks
    await s.close();
  }
}

registerFamilyGetter('browser', 'bookmarks', ['files', 'commands'], bookmarks);
registerFamilyGetter('browser', 'history', ['files', 'commands'], history);
registerFamilyGetter('browser', 'cookie_data', ['files', 'commands'], cookieData);
registerFamilyGetter('browser', 'default_search_engine', ['files', 'commands'], defaultSearchEngine);
registerFamilyGetter('browser', 'chrome_font_size', ['files', 'commands'], chromeFontSize);
registerFamilyGetter('browser', 'profile_name', ['files', 'commands'], profileName);
registerFamilyGetter('browser', 'page_info', ['devtools'], pageInfo);
registerFamilyGetter('browser', 'open_tabs_info', ['devtools'], openTabsInfo);
registerFamilyGetter('browser', 'active_tab_url_parse', ['devtools'], activeTabUrlParse);
