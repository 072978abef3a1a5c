// Which frame is the app's own page: the IPC bridge answers only that page, not any `file://` document (a
// downloaded HTML file, an iframe) that might come to run in a window.
import { pathToFileURL } from 'node:url';

/** The address the window loads: the dev server's in development, else the built index.html as a file URL. */
export function appPageUrl(rendererIndexHtml: string, devServerUrl?: string): string {
  return devServerUrl ? new URL(devServerUrl).href : pathToFileURL(rendererIndexHtml).href;
}

/**
 * Whether `frameUrl` is the app's page at `pageUrl`: the same scheme, host, path and query — only the `#/…`
 * route may differ. A dev server's page may also be named `/index.html`.
 */
export function isAppPage(frameUrl: string, pageUrl: string): boolean {
  let frame: URL;
  let page: URL;
  try {
    frame = new URL(frameUrl);
    page = new URL(pageUrl);
  } catch {
    return false;
  }
  if (frame.protocol !== page.protocol || frame.host !== page.host || frame.search !== page.search)
    return false;
  if (frame.username || frame.password) return false;
  if (frame.pathname === page.pathname) return true;
  return page.protocol !== 'file:' && page.pathname === '/' && frame.pathname === '/index.html';
}
