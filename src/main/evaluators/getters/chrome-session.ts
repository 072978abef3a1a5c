// The Chrome getters' way to the environment's browser: its DevTools endpoint (env.browserEndpoint()), the
// active tab, and a tab of their own for the getters that drive a page (through the engine's one DevTools client,
// src/main/devtools); tabs they open they close again.
import { listTabs, TabSession, type Tab } from '../../devtools';
import type { GradingContext } from '../getter';

/** The environment's DevTools endpoint, or an error naming the getter. */
export function browserEndpointOf(ctx: GradingContext, type: string): string {
  const endpoint = ctx.env.browserEndpoint();
  if (!endpoint)
    throw new Error(
      `getter '${type}' needs a browser, and the ${ctx.env.kind} environment has none (no DevTools endpoint)`,
    );
  return endpoint.replace(/\/+$/, '');
}

/** The browser's page tabs, most recently active first. */
export function tabsOf(ctx: GradingContext, type: string): Promise<Tab[]> {
  return listTabs(browserEndpointOf(ctx, type), ctx.signal);
}

/** The active tab (the first page in Chromium's most-recently-active order), or undefined. */
export async function activeTab(ctx: GradingContext, type: string): Promise<Tab | undefined> {
  return (await tabsOf(ctx, type))[0];
}

/** Opens `url` (default about:blank) in a new tab of the environment's browser, attached; close() closes it. */
export function openTab(
  ctx: GradingContext,
  type: string,
  opts: { url?: string; isolated?: boolean } = {},
): Promise<TabSession> {
  return TabSession.open(browserEndpointOf(ctx, type), opts).catch((e: Error) => {
    throw new Error(`getter '${type}': ${e.message}`, { cause: e });
  });
}

/** Runs `fn` on a new tab (about:blank) and closes the tab afterwards. `isolated`: in a browser context of its own
 * (Playwright's `browser.new_page()`), else in the user's profile (`browser.contexts[0].new_page()`). */
export async function withNewTab<T>(
  ctx: GradingContext,
  type: string,
  fn: (s: TabSession) => Promise<T>,
  isolated = false,
): Promise<T> {
  const s = await openTab(ctx, type, { isolated });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}
