// Getters that read the browser the environment started (Chrome DevTools endpoint of env.browserEndpoint()).
import type { GetterSpec } from '../../../shared/task';
import { getters, type GradingContext } from '../getter';
import { evaluateInTab as evaluate } from '../../devtools';
import { activeTab, tabsOf } from './chrome-session';
import { runTaskScript } from './general';

/** A URL with `goto_prefix` when it has no scheme (upstream reads the address bar, which hides it). */
function withPrefix(url: string, spec: GetterSpec): string {
  if (/^[a-z][\w+.-]*:/i.test(url)) return url;
  return `${typeof spec.goto_prefix === 'string' ? spec.goto_prefix : 'https://'}${url}`;
}

/** active_tab_info `{goto_prefix?}` — `{url, title}` of the active tab; undefined when no tab is open. */
async function activeTabInfo(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const tab = await activeTab(ctx, spec.type);
  return tab ? { url: withPrefix(tab.url, spec), title: tab.title } : undefined;
}

/** active_url_from_accessTree `{goto_prefix?}` — the active tab's URL (read over CDP, not the a11y tree). */
async function activeUrl(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const tab = await activeTab(ctx, spec.type);
  return tab ? withPrefix(tab.url, spec) : undefined;
}

/**
 * validate_correct_url `{src, dest, goto_prefix?}` — runs the task's script, splits its output at commas,
 * and for each element (':' written %3A, '+' %2B, as in a URL) says whether the active tab's URL contains
 * it: "<element> check succeed；" or "<element> check failed；" (upstream's wording, matched by
 * check_include_exclude).
 */
async function validateCorrectUrl(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const output = await runTaskScript(spec, ctx);
  const url = await activeUrl(spec, ctx);
  if (typeof url !== 'string') return 'no active tab check failed；';
  return output
    .split(',')
    .map((element) => {
      const needle = element.trim().replace(/:/g, '%3A').replace(/\+/g, '%2B');
      return `${element.trim()} check ${needle && url.includes(needle) ? 'succeed' : 'failed'}；`;
    })
    .join('');
}

/**
 * html_check `{src?, dest?, css_paths}` — runs the task's script when given (its output comes first), then
 * for each CSS selector says whether the active tab's page has a matching element: "<selector> check
 * succeed" or "… check failed", one per line.
 */
async function htmlCheck(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const lines: string[] = [];
  if (typeof spec.src === 'string') lines.push((await runTaskScript(spec, ctx)).trim());
  const tab = await activeTab(ctx, spec.type);
  const selectors = Array.isArray(spec.css_paths) ? spec.css_paths.map(String) : [];
  for (const css of selectors) {
    const found = tab ? await evaluate(tab, `!!document.querySelector(${JSON.stringify(css)})`) : false;
    lines.push(`${css} check ${found ? 'succeed' : 'failed'}`);
  }
  return lines.filter(Boolean).join('\n');
}

/** Finds a tab whose URL starts with `url` (127.0.0.1 read as localhost) and whose title contains `title`
 * (case-insensitive), and which shows an element matching `selector`. */
async function findAppPage(
  ctx: GradingContext,
  type: string,
  url: string,
  title: string,
  selector: string,
): Promise<boolean> {
  const norm = (u: string) => u.replace('127.0.0.1', 'localhost');
  for (const tab of await tabsOf(ctx, type)) {
    if (!norm(tab.url).startsWith(norm(url)) || !tab.title.toLowerCase().includes(title.toLowerCase()))
      continue;
    const visible = await evaluate(
      tab,
      `(async () => { for (let i = 0; i < 20; i++) { const e = document.querySelector(${JSON.stringify(selector)});
         if (e && e.getClientRects().length > 0) return true; await new Promise(r => setTimeout(r, 250)); } return false; })()`,
    ).catch(() => false);
    if (visible === true) return true;
  }
  return false;
}

function appPage(app: string, defaultUrl: string, defaultTitle: string, selector: string) {
  return async (spec: GetterSpec, ctx: GradingContext): Promise<unknown> => {
    const url = typeof spec.url === 'string' ? spec.url : defaultUrl;
    const title = typeof spec.title === 'string' ? spec.title : defaultTitle;
    const ok = await findAppPage(ctx, spec.type, url, title, selector);
    return `Find ${app} home page ${ok ? 'succeed' : 'failed'}`;
  };
}

/** airbyte_localhost_page `{url?, title?}` — "Find airbyte home page succeed" when a tab at `url`
 * (default http://localhost:8000) titled like `title` shows the Homepage link, else "… failed". */
const airbytePage = appPage('airbyte', 'http://localhost:8000', 'airbyte', 'a[aria-label="Homepage"]');
/** superset_localhost_page `{url?, title?}` — as airbyte_localhost_page for Superset's welcome link. */
const supersetPage = appPage(
  'superset',
  'http://localhost:8088/superset/welcome',
  'superset',
  'a[href="/superset/welcome/"]',
);

/**
 * metabase_question_sql `{url?}` — in the tab at `url` (default http://localhost:3000) clicks "View the
 * SQL" and returns the SQL shown, lower-cased with whitespace collapsed; undefined when there is no such
 * tab or no SQL appears within 15 s.
 */
async function metabaseQuestionSql(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const url = typeof spec.url === 'string' ? spec.url : 'http://localhost:3000';
  const tab = (await tabsOf(ctx, spec.type)).find((t) =>
    t.url.replace('127.0.0.1', 'localhost').startsWith(url),
  );
  if (!tab) return undefined;
  const sql = await evaluate(
    tab,
    `(async () => {
      const wait = (ms) => new Promise(r => setTimeout(r, ms));
      for (let i = 0; i < 30; i++) {
        const b = document.querySelector('button[aria-label="View the SQL"]');
        if (b && !b.disabled) { b.click(); break; }
        await wait(500);
      }
      for (let i = 0; i < 30; i++) {
        const p = document.querySelector('div[role="dialog"] > div:nth-child(1) > div:nth-child(2)');
        const t = p ? p.innerText.toLowerCase().split(/\\s+/).filter(Boolean).join(' ') : '';
        if (t) return t;
        await wait(500);
      }
      return null;
    })()`,
    40_000,
  );
  return typeof sql === 'string' ? sql : undefined;
}

getters
  .register('active_tab_info', activeTabInfo)
  .register('active_url_from_accessTree', activeUrl)
  .register('validate_correct_url', validateCorrectUrl)
  .register('html_check', htmlCheck)
  .register('airbyte_localhost_page', airbytePage)
  .register('superset_localhost_page', supersetPage)
  .register('metabase_question_sql', metabaseQuestionSql);
