// One accessibility forest for the whole screen: the native applications (AT-SPI) and the pages of the
// browser Proctor drives (CDP, which sees into pages far better than Chromium's own AT-SPI bridge).
import type { AccessibilityNode } from '../../environment';
import { collectAtspiTree } from './atspi';
import { collectChromiumTree } from './cdp';

/** AT-SPI application names of Chromium builds; left out when CDP covers the browser. */
export const CHROMIUM_APP_NAMES = ['chromium', 'chromium-browser', 'google chrome', 'chrome'];

export interface CollectOptions {
  /** The display's session bus address; no AT-SPI tree without it. */
  dbusAddress?: string;
  /** The browser's DevTools endpoint (http://127.0.0.1:PORT); no page trees without it. */
  cdpEndpoint?: string;
  /** Time budget for each source. Default 3000 ms (AT-SPI) / 5000 ms (CDP). */
  timeoutMs?: number;
  /** AT-SPI node cap. Default 5000. */
  maxNodes?: number;
  /** Keep Chromium's own AT-SPI nodes even when CDP covers the browser (its toolbar, tabs). Default false. */
  keepChromiumAtspi?: boolean;
  /** Maps a bus address the display's processes report (its accessibility bus) to one this host reaches. */
  hostAddress?: (address: string) => string;
  /** How a huge table's (a Calc sheet's) visible cells are read: AtspiOptions.tableCells. Default `grid`. */
  tableCells?: 'grid' | 'walk' | 'none';
  /** Told about a source that failed; the other source's nodes are still returned. */
  onError?: (source: 'atspi' | 'cdp', error: Error) => void;
}

function isActiveApp(app: AccessibilityNode): boolean {
  return (app.children ?? []).some((w) => w.states.includes('active'));
}

/**
 * Both sources, merged. Order (which matters once the table is cut to its token budget): applications
 * with the active window first, then the browser's visible pages, then the other applications.
 * Throws only when every source asked for failed.
 */
export async function collectAccessibility(opts: CollectOptions): Promise<AccessibilityNode[]> {
  const errors: Error[] = [];
  const fail =
    (source: 'atspi' | 'cdp') =>
    (error: unknown): AccessibilityNode[] => {
      const e = error instanceof Error ? error : new Error(String(error));
      errors.push(e);
      opts.onError?.(source, e);
      return [];
    };
  const [apps, pages] = await Promise.all([
    opts.dbusAddress
      ? collectAtspiTree({
          dbusAddress: opts.dbusAddress,
          hostAddress: opts.hostAddress,
          timeoutMs: opts.timeoutMs,
          maxNodes: opts.maxNodes,
          tableCells: opts.tableCells,
          skipApps: opts.cdpEndpoint && !opts.keepChromiumAtspi ? CHROMIUM_APP_NAMES : [],
        }).catch(fail('atspi'))
      : Promise.resolve([]),
    opts.cdpEndpoint
      ? collectChromiumTree(opts.cdpEndpoint, { timeoutMs: opts.timeoutMs }).catch(fail('cdp'))
      : Promise.resolve([]),
  ]);
  const asked = Number(!!opts.dbusAddress) + Number(!!opts.cdpEndpoint);
  if (asked > 0 && errors.length === asked) {
    throw new Error(`accessibility: every source failed: ${errors.map((e) => e.message).join('; ')}`);
  }
  return [...apps.filter(isActiveApp), ...pages, ...apps.filter((a) => !isActiveApp(a))];
}
