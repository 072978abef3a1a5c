// `serve_demo_site`: the setup func the demo's browser tasks use to reach the site Proctor serves itself.
//
//   {"func": "serve_demo_site", "arguments": {"path": "order.html"}}                     one page
//   {"func": "serve_demo_site", "arguments": {"paths": ["index.html", "status.html"]}}   several tabs
//
// It starts the demo site (resources/demo/site: one static server per process on 127.0.0.1, on a port the
// system picks), runs `google_chrome_browser` with the pages' full URLs (so Chromium starts the usual way and
// its DevTools endpoint is recorded for the browser getters), waits until the first page has loaded and brings
// its window to the front.
// Task files therefore never hold a port. Importing this module registers the func in the setup registry;
// feature-funcs.ts imports it, so wherever setup runs the func is there.
import type { Environment } from '../env/environment';
import { setupFuncs, type SetupContext } from './funcs';
import { SetupStepFailure } from './setup-error';
import { listTabs } from '../devtools';
import { demoSiteUrl } from './demo-site';

export const serveDemoSiteFunc = 'serve_demo_site';

const PAGE_LOAD_TIMEOUT_MS = 20_000;

/** A page path of the demo site from a task file: relative, no scheme, no `..`, no backslashes. */
function pagePath(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new SetupStepFailure(`${where} must be a page path of the demo site such as "order.html"`);
  const path = value.trim().replace(/^\/+/, '');
  const segments = path.split(/[?#]/)[0].split('/');
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.includes('\\') || segments.includes('..'))
    throw new SetupStepFailure(
      `${where} '${value}' is not a page of the demo site (give a relative path like "order.html", no scheme or '..')`,
    );
  return path;
}

/** The pages a `serve_demo_site` step asks for, checked. */
export function demoSitePages(args: Record<string, unknown>): string[] {
  const { path, paths } = args;
  if (path !== undefined && paths !== undefined)
    throw new SetupStepFailure("give 'path' or 'paths', not both");
  if (paths !== undefined) {
    if (!Array.isArray(paths) || paths.length === 0)
      throw new SetupStepFailure("'paths' must be a non-empty list of page paths");
    return paths.map((p, i) => pagePath(p, `'paths'[${i}]`));
  }
  return [pagePath(path ?? 'index.html', "'path'")];
}

/** Waits until a tab shows `url` with its title set (the page has parsed its <title>); returns the title. */
async function waitForPage(endpoint: string, url: string, signal?: AbortSignal): Promise<string> {
  const until = Date.now() + PAGE_LOAD_TIMEOUT_MS;
  let last = 'no tab yet';
  while (Date.now() < until) {
    if (signal?.aborted) throw new SetupStepFailure('cancelled while waiting for the demo page');
    try {
      const tabs = await listTabs(endpoint, AbortSignal.timeout(5_000));
      const tab = tabs.find((t) => t.url === url);
      if (tab && tab.title && tab.title !== url && !url.endsWith(tab.title)) return tab.title;
      last = tab
        ? `the tab is still loading (title '${tab.title}')`
        : `open tabs: ${tabs.map((t) => t.url).join(', ') || 'none'}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 40));
  }
  throw new SetupStepFailure(
    `the demo page ${url} did not load within ${PAGE_LOAD_TIMEOUT_MS / 1000} s (${last})`,
  );
}

export async function serveDemoSite(
  args: Record<string, unknown>,
  env: Environment,
  ctx: SetupContext,
): Promise<void> {
  const pages = demoSitePages(args);
  const urls = await Promise.all(pages.map((p) => demoSiteUrl(p)));
  await setupFuncs.require('google_chrome_browser')({ urls }, env, ctx);
  const endpoint = env.browserEndpoint();
  if (!endpoint) throw new SetupStepFailure('the browser started without a DevTools endpoint');
  const title = await waitForPage(endpoint, urls[0], ctx.signal);
  await focusWindow(env, title, ctx.signal);
}

/** Brings the browser window (titled after the page) to the front once the window manager shows it. */
async function focusWindow(env: Environment, title: string, signal?: AbortSignal): Promise<void> {
  if (!env.capabilities.has('windows')) return;
  const until = Date.now() + PAGE_LOAD_TIMEOUT_MS;
  for (;;) {
    try {
      await env.activateWindow(title);
      return;
    } catch (e) {
      if (Date.now() > until || signal?.aborted)
        throw new SetupStepFailure(`the browser window '${title}' did not appear: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, 40));
    }
  }
}

if (!setupFuncs.has(serveDemoSiteFunc)) setupFuncs.register(serveDemoSiteFunc, serveDemoSite);
