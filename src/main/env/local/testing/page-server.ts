// Test fixture: a page on 127.0.0.1 with a button, a text area and a red marker, that reports what happened
// to it (clicks with their screen coordinates, the text area's value) back to this server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

export interface PageReport {
  clicks: { id: string; screenX: number; screenY: number; button: number; detail: number }[];
  text: string;
  layout?: {
    button: { x: number; y: number; w: number; h: number };
    marker: { x: number; y: number };
    chromeTop: number;
    screenX: number;
    screenY: number;
  };
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; background: #fff; font: 16px sans-serif; }
#btn { position: absolute; left: 301px; top: 151px; width: 161px; height: 61px; }
#txt { position: absolute; left: 40px; top: 300px; width: 700px; height: 200px; }
#marker { position: absolute; left: 624px; top: 96px; width: 4px; height: 4px; background: #ff0000; }
</style></head><body>
<button id="btn">Press me</button>
<textarea id="txt" spellcheck="false"></textarea>
<div id="marker"></div>
<script>
const post = (path, body) => fetch(path, { method: 'POST', body: JSON.stringify(body) });
document.addEventListener('mousedown', (e) => post('/click', { id: e.target.id || e.target.tagName, screenX: e.screenX, screenY: e.screenY, button: e.button, detail: e.detail }));
const txt = document.getElementById('txt');
txt.addEventListener('input', () => post('/text', { text: txt.value }));
let last = '';
function layout() {
  const r = document.getElementById('btn').getBoundingClientRect();
  const m = document.getElementById('marker').getBoundingClientRect();
  const top = window.outerHeight - window.innerHeight;
  const now = { button: { x: r.left, y: r.top, w: r.width, h: r.height }, marker: { x: m.left, y: m.top }, chromeTop: top, screenX: window.screenX, screenY: window.screenY };
  if (JSON.stringify(now) === last) return;
  last = JSON.stringify(now);
  post('/layout', now);
}
// A window manager moves a window without a resize event: the layout is looked at again for a while.
window.addEventListener('load', () => { setTimeout(layout, 300); const t = setInterval(layout, 250); setTimeout(() => clearInterval(t), 20000); });
window.addEventListener('resize', layout);
</script></body></html>`;

export interface PageServer {
  url: string;
  report: PageReport;
  close(): Promise<void>;
}

export async function startPageServer(): Promise<PageServer> {
  const report: PageReport = { clicks: [], text: '' };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      if (req.method === 'POST') {
        const v = JSON.parse(body || '{}');
        if (req.url === '/click') report.clicks.push(v);
        if (req.url === '/text') report.text = v.text;
        if (req.url === '/layout') report.layout = v;
        res.end('ok');
        return;
      }
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    report,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** How long a test waits for an input event to reach the page: a loaded 2-core CI machine needs seconds. */
export const EVENT_WAIT_MS = 15_000;

/** The page's layout once its kiosk window fills the screen from its top-left corner (page and screen coordinates agree). */
export function kioskLayout(page: PageServer): PageReport['layout'] | undefined {
  const l = page.report.layout;
  return l && l.chromeTop === 0 && l.screenX === 0 && l.screenY === 0 ? l : undefined;
}

/**
 * Waits until the screen (a PNG from `shot`) shows the page's red marker where the layout puts it: the page has
 * been painted on the display. Chromium drops input that comes before a page's first paint, so a test clicks
 * only after this.
 */
export async function waitForPainted(
  shot: () => Promise<Buffer>,
  layout: NonNullable<PageReport['layout']>,
  ms = 60_000,
): Promise<void> {
  const end = Date.now() + ms;
  const left = Math.round(layout.screenX + layout.marker.x + 1);
  const top = Math.round(layout.screenY + layout.chromeTop + layout.marker.y + 1);
  for (;;) {
    const [r, g, b] = await sharp(await shot())
      .extract({ left, top, width: 1, height: 1 })
      .removeAlpha()
      .raw()
      .toBuffer();
    if (r > 200 && g < 60 && b < 60) return;
    if (Date.now() > end)
      throw new Error(
        `timed out after ${ms} ms waiting for the page to be painted (pixel ${left},${top} is ${r},${g},${b}, not the red marker)`,
      );
    await new Promise((res) => setTimeout(res, 200));
  }
}

export async function waitFor<T>(get: () => T | undefined | false, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
