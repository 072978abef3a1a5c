// OSWorld's Chrome getters that read web pages through the browser (family `browser`; getters/chrome.py):
// the active tab's elements (active_tab_html_parse), values from a page opened for the purpose
// (info_from_website), recreation.gov's next-available date (gotoRecreationPage_and_get_html_content) and a page
// printed to PDF (pdf_from_url). Upstream drives Playwright over CDP; Proctor drives the environment's browser
// over the same protocol (src/main/devtools), so pages are fetched by the machine's browser, never by Node.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GetterSpec } from '../../../shared/task';
import { registerFamilyGetter } from '../family';
import { specString, type GradingContext } from '../getter';
import { safeFileName } from '../task-files';
import { closeTab, TabSession } from '../../devtools';
import { activeTab, browserEndpointOf, tabsOf, withNewTab } from './chrome-session';
import { sleep } from '../../sleep';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * In-page extraction for active_tab_html_parse, one function per upstream helper: textContent of every match
 * (trimmed), the first match's own text nodes, the h3 inside each match, the first span of each `li.catAllProducts`,
 * Playwright's `text=` (the innermost element whose text contains the label, case-insensitively), XPath text and
 * input values.
 */
const pageHelpers = `({
  texts: (sel) => { try { return [...document.querySelectorAll(sel)].map((e) => (e.textContent ?? '').trim()); } catch (e) { return []; } },
  directTexts: (sel) => { try { const e = document.querySelector(sel); return e ? [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent.trim()).filter(Boolean) : []; } catch (e) { return []; } },
  h3Texts: (sel) => { try { return [...document.querySelectorAll(sel)].map((e) => e.querySelector('h3')).filter(Boolean).map((h) => (h.textContent ?? '').trim()); } catch (e) { return []; } },
  liTexts: (sel) => { try { return [...document.querySelectorAll(sel + ' li.catAllProducts')].map((e) => e.querySelector('span')).filter(Boolean).map((s) => s.innerText.trim()); } catch (e) { return []; } },
  label: (text) => {
    const norm = (s) => s.replace(/\\s+/g, ' ').trim().toLowerCase();
    const want = norm(text);
    const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'HEAD', 'TEMPLATE']);
    const has = (e) => !skip.has(e.tagName) && norm(e.textContent ?? '').includes(want);
    const find = (e) => { for (const c of e.children) if (has(c)) return find(c); return e; };
    const body = document.body ?? document.documentElement;
    if (!body || !has(body)) return '';
    return (find(body).textContent ?? '').trim();
  },
  xpathNode: (xp) => { try { return document.evaluate(xp, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue; } catch (e) { try { return document.querySelector(xp); } catch (e2) { return null; } } },
})`;

/** Runs the extraction of `spec.category` in the tab and returns OSWorld's result object. */
function extractionScript(spec: GetterSpec): string {
  return `(() => { const h = ${pageHelpers}; const spec = ${JSON.stringify(spec)}; const out = {};
  const entries = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v) : []);
  const lists = (v) => entries(v).map(([k, l]) => [k, Array.isArray(l) ? l.map(String) : []]);
  const at = (t, i) => { const n = parseInt(i, 10); const v = n >= 0 ? t[n] : t.at(n); return v === undefined ? '' : v; };
  if (spec.category === 'class') {
    for (const [cls, keys] of entries(spec.class_multiObject)) { const t = h.texts('.' + cls); for (const [i, k] of entries(keys)) out[k] = at(t, i); }
    for (const [cls, keys] of entries(spec.class_multiObject_child)) { const t = h.directTexts('.' + cls); for (const [i, k] of entries(keys)) out[k] = at(t, i); }
    for (const [cls, keys] of entries(spec.class_multiObject_only_child)) { const t = h.h3Texts('.' + cls); for (const [i, k] of entries(keys)) out[k] = at(t, i); }
    for (const [cls, objs] of lists(spec.class_multiObject_search_exist)) {
      const t = h.texts('.' + cls);
      for (const o of objs) if (o !== 'is_other_exist') out[o] = t.includes(o);
      if (objs.includes('is_other_exist')) { if (t.some((x) => !objs.includes(x))) out.is_other_exist = true; if (!('is_other_exist' in out)) out.is_other_exist = false; }
    }
    for (const [cls, k] of entries(spec.class_singleObject)) { const t = h.texts('.' + cls); out[k] = t.length ? t[0] : ''; }
  } else if (spec.category === 'label') {
    for (const [text, k] of entries(spec.labelObject)) out[k] = h.label(text);
  } else if (spec.category === 'xpath') {
    for (const [xp, k] of entries(spec.xpathObject)) { const n = h.xpathNode(xp); out[k] = n ? (n.textContent ?? '').trim() : ''; }
  } else if (spec.category === 'input') {
    for (const [xp, k] of entries(spec.inputObject)) { const n = h.xpathNode(xp); out[k] = n && typeof n.value === 'string' ? n.value.trim() : ''; }
  } else if (spec.category === 'class&url') {
    const classUrl = (t, objs) => {
      for (const o of objs) if (t.some((x) => x.toLowerCase() === o.toLowerCase())) out[o.toLowerCase()] = true;
      if (t.some((x) => objs.every((o) => !o.toLowerCase().includes(x.toLowerCase())))) out.is_other_exist = true;
      if (!('is_other_exist' in out)) out.is_other_exist = false;
    };
    for (const [cls, objs] of lists(spec.class_multiObject)) classUrl(h.texts('.' + cls), objs);
    for (const [cls, objs] of lists(spec.class_multiObject_li)) classUrl(h.liTexts('.' + cls), objs);
    const url = location.href.toLowerCase();
    for (const k of Array.isArray(spec.url_include_expected) ? spec.url_include_expected.map(String) : []) if (!(k.toLowerCase() in out)) out[k.toLowerCase()] = url.includes(k.toLowerCase());
    for (const [k, v] of entries(spec.url_include_expected_multichoice)) if (!(String(v).toLowerCase() in out)) out[String(v).toLowerCase()] = url.includes(k.toLowerCase());
  }
  return out; })()`;
}

/**
 * active_tab_html_parse `{category, …}` — values read from the active tab's page, keyed as the spec says:
 * `class` (class_multiObject / _child / _only_child / _search_exist, class_singleObject), `label` (labelObject),
 * `xpath` (xpathObject), `input` (inputObject) or `class&url` (class_multiObject, class_multiObject_li,
 * url_include_expected, url_include_expected_multichoice). A missing element gives "" (as upstream). Undefined
 * without an open tab; `{}` for an unknown category. Upstream finds the tab whose URL matches the address bar's
 * text; Proctor reads the active tab directly. Selectors do not pierce shadow roots (Playwright's do).
 */
async function activeTabHtmlParse(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  if (typeof spec.category !== 'string')
    throw new Error(`getter 'active_tab_html_parse' needs a string 'category'`);
  const tab = await activeTab(ctx, spec.type);
  if (!tab) return undefined;
  const s = await TabSession.attach(tab);
  try {
    await s.waitNetworkIdle(60_000);
    return await s.evaluate(extractionScript(spec), 60_000);
  } finally {
    await s.close();
  }
}

/** What info_from_website reads from one element. */
async function readElement(
  s: TabSession,
  selector: string,
  attribute: string | undefined,
  timeoutMs: number,
): Promise<unknown> {
  if (!(await s.waitSelector(selector, 'attached', timeoutMs)))
    throw new Error(`no element matches ${selector} within ${timeoutMs} ms`);
  const expr = attribute === undefined ? 'e.innerText' : `e.getAttribute(${JSON.stringify(attribute)})`;
  return s.evaluate(
    `(() => { const e = document.querySelector(${JSON.stringify(selector)}); return ${expr}; })()`,
  );
}

/**
 * info_from_website `{url, infos, backups?}` — opens `url` in a new tab and, per entry of `infos`, reads the
 * element `selector`: `inner_text` (its innerText), `attribute` (its `attribute`), `click_and_inner_text` /
 * `click_and_attribute` (`selector` is a list: clicks all but the last, then reads the last). The page is loaded
 * again before an entry when it has left `url`. Any failure (an element missing for 10 s, an unknown action)
 * gives `backups` instead (undefined without), as upstream. The tab is closed afterwards.
 */
async function infoFromWebsite(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const url = specString(spec, 'url');
  browserEndpointOf(ctx, spec.type);
  try {
    return await withNewTab(ctx, spec.type, async (s) => {
      await s.goto(url, 'complete', 30_000);
      const out: unknown[] = [];
      for (const info of Array.isArray(spec.infos) ? spec.infos : []) {
        const i = isObject(info) ? info : {};
        if ((await s.url()) !== url) await s.goto(url, 'complete', 30_000);
        const action = i.action ?? 'inner_text';
        const attribute = typeof i.attribute === 'string' ? i.attribute : undefined;
        if ((action === 'attribute' || action === 'click_and_attribute') && attribute === undefined)
          throw new Error(`info_from_website: ${String(action)} needs an 'attribute'`);
        if (action === 'inner_text' || action === 'attribute') {
          out.push(
            await readElement(s, String(i.selector), action === 'attribute' ? attribute : undefined, 10_000),
          );
        } else if (action === 'click_and_inner_text' || action === 'click_and_attribute') {
          const sels = Array.isArray(i.selector) ? i.selector.map(String) : [];
          for (const [n, sel] of sels.entries()) {
            if (n < sels.length - 1) await s.click(sel, 10_000);
            else
              out.push(
                await readElement(
                  s,
                  sel,
                  action === 'click_and_attribute' ? attribute : undefined,
                  action === 'click_and_attribute' ? 30_000 : 10_000,
                ),
              );
          }
        } else {
          throw new Error(`the action ${String(action)} is not supported`);
        }
      }
      return out;
    });
  } catch {
    return spec.backups ?? undefined;
  }
}

/** The ids of the browser's page tabs. */
async function tabIds(ctx: GradingContext, type: string): Promise<Set<string>> {
  return new Set((await tabsOf(ctx, type)).map((t) => t.id));
}

/** One attempt of the recreation.gov walk; returns OSWorld's `{expected: {…}}`. */
async function recreationAttempt(
  spec: GetterSpec,
  ctx: GradingContext,
  starts: string[],
): Promise<Record<string, unknown>> {
  return withNewTab(
    ctx,
    spec.type,
    async (page) => {
      await page.send('Network.setExtraHTTPHeaders', {
        headers: { 'Accept-Language': 'en-US,en;q=0.9', DNT: '1', 'Upgrade-Insecure-Requests': '1' },
      });
      let reached = false;
      for (const start of starts) {
        reached = await page.goto(start, 'interactive', 60_000).then(
          () => true,
          () => false,
        );
        if (reached) break;
      }
      if (!reached) throw new Error('Failed to navigate to any recreation.gov URL variant');
      await page.waitNetworkIdle(30_000);
      if (!(await page.waitSelector('input#hero-search-input', 'visible', 60_000)))
        throw new Error('no search input');
      await page.fill('input#hero-search-input', 'Diamond');
      await page.click('button.nav-search-button', 60_000);
      // upstream sleeps 10 s here and 30 s after the next click; Proctor waits for what those sleeps wait for
      if (!(await page.waitSelector('.search-result-highlight--success', 'visible', 60_000)))
        throw new Error('no search result');
      const before = await tabIds(ctx, spec.type);
      await page.click('.search-result-highlight--success', 60_000);
      let popup;
      for (const until = Date.now() + 60_000; !popup && Date.now() < until; await sleep(200)) {
        popup = (await tabsOf(ctx, spec.type)).find((t) => !before.has(t.id));
      }
      if (!popup) throw new Error('the search result opened no new tab');
      const next = await TabSession.attach(popup);
      try {
        await next.waitNetworkIdle(60_000);
        // the next-available button: the first of these selectors that shows within 30 s (upstream tries each for 30 s)
        const buttons = [
          'button.next-available',
          "button[class*='next-available']",
          "button[class*='next']",
          '.next-available',
          "[data-testid*='next']",
        ];
        for (const until = Date.now() + 30_000; Date.now() < until; await sleep(200)) {
          let clicked = false;
          for (const b of buttons) {
            if (await next.waitSelector(b, 'visible', 0)) {
              clicked = await next.click(b, 30_000).then(
                () => true,
                () => false,
              );
              if (clicked) break;
            }
          }
          if (clicked) break;
        }
        const expected: Record<string, unknown> = {};
        if (spec.selector === 'class') {
          const cls = String(spec.class);
          const order = spec.order !== undefined ? parseInt(String(spec.order), 10) : undefined;
          const text = await next
            .evaluate(
              `(() => { const all = document.querySelectorAll(${JSON.stringify('.' + cls)});
          const e = all[${order ?? 0}]; return e ? (e.textContent ?? '').trim() : null; })()`,
            )
            .catch(() => null);
          expected[cls] = typeof text === 'string' ? text : '__EVALUATION_FAILED__';
        }
        return { expected };
      } finally {
        await next.close();
        await closeTab(popup.endpoint, popup.id);
      }
    },
    true,
  );
}

/**
 * gotoRecreationPage_and_get_html_content `{selector: class, class, order?}` — on recreation.gov, searches
 * "Diamond", opens the highlighted result (a new tab), clicks "next available" when it shows, and returns
 * `{expected: {<class>: text}}`: the text of the `order`-th (default first) element of that class, or
 * "__EVALUATION_FAILED__" when there is none. Like upstream's `browser.new_page()`, the walk runs in a browser
 * context of its own (none of the profile's cookies). Three attempts; after the last `{expected: {error:
 * "__EVALUATION_FAILED__", error_message}}`. `url` (Proctor's, not OSWorld's) replaces the start page, for a
 * local copy of the site.
 */
async function gotoRecreationPage(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  browserEndpointOf(ctx, spec.type);
  const starts =
    typeof spec.url === 'string'
      ? [spec.url]
      : ['https://www.recreation.gov/', 'http://www.recreation.gov/', 'https://recreation.gov/'];
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await recreationAttempt(spec, ctx, starts);
    } catch (e) {
      last = (e as Error).message;
      if (attempt < 2) await sleep(5000);
    }
  }
  return { expected: { error: '__EVALUATION_FAILED__', error_message: `Failed after 3 attempts: ${last}` } };
}

/**
 * pdf_from_url `{path, dest}` — opens the URL `path` in a new tab of a browser context of its own (upstream's
 * `browser.new_page()`: none of the profile's cookies), waits until the network is idle and 3 s more,
 * prints it to PDF (Playwright's defaults: Letter, no margins, no backgrounds) and returns the file's path under
 * the grading cache as `dest`. After three failed attempts the file is an empty PDF ("%PDF-1.4\n%EOF\n"), as
 * upstream writes.
 */
async function pdfFromUrl(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const url = specString(spec, 'path');
  await mkdir(ctx.cacheDir, { recursive: true });
  const dest = join(
    ctx.cacheDir,
    safeFileName(typeof spec.dest === 'string' ? spec.dest : undefined, 'page.pdf'),
  );
  browserEndpointOf(ctx, spec.type);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const data = await withNewTab(
        ctx,
        spec.type,
        async (s) => {
          await s.goto(url, 'networkidle', 60_000);
          await sleep(3000);
          const r = await s.send(
            'Page.printToPDF',
            {
              paperWidth: 8.5,
              paperHeight: 11,
              marginTop: 0,
              marginBottom: 0,
              marginLeft: 0,
              marginRight: 0,
              printBackground: false,
              preferCSSPageSize: false,
            },
            60_000,
          );
          return Buffer.from(String(r.data), 'base64');
        },
        true,
      );
      await writeFile(dest, data);
      return dest;
    } catch {
      if (attempt < 2) await sleep(5000);
    }
  }
  await writeFile(dest, '%PDF-1.4\n%EOF\n');
  return dest;
}

registerFamilyGetter('browser', 'active_tab_html_parse', ['devtools'], activeTabHtmlParse);
registerFamilyGetter('browser', 'info_from_website', ['devtools'], infoFromWebsite);
registerFamilyGetter('browser', 'gotoRecreationPage_and_get_html_content', ['devtools'], gotoRecreationPage);
registerFamilyGetter('browser', 'pdf_from_url', ['devtools'], pdfFromUrl);
