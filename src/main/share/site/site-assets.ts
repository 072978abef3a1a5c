// The workbench's built renderer (out/renderer, the bundle `proctor serve` serves) made into a page that opens
// from file:// and from any static host: Chromium refuses ES module scripts and crossorigin stylesheets from
// file://, so the single module chunk runs as a classic deferred script wrapped in a strict function; the page's
// data comes first (data/site.js sets a global the static transport reads); a read-only stylesheet hides what
// writes. The CSP allows file: besides 'self' and nothing over the network.
import { readdir, readFile, writeFile, mkdir, copyFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SITE_CSP =
  "default-src 'self' file:; img-src 'self' file: data: blob:; media-src 'self' file: blob:; style-src 'self' file: 'unsafe-inline'; script-src 'self' file:; connect-src 'self' file:; object-src 'none'; base-uri 'none'; form-action 'none'";

/** Hidden in the read-only site: starting runs, labelling, reviewing, assigning, comparing, the task and labels tabs. */
export const READ_ONLY_CSS = `/* Proctor static site: read-only. What writes is hidden; the engine is not here. */
html.read-only .start-run, html.read-only .label-form, html.read-only [data-testid="safety-label"],
html.read-only .demonstration-actions, html.read-only .settle-form, html.read-only [data-testid="assign"],
html.read-only [data-testid="my-work"], html.read-only [data-testid="compare-with"], html.read-only [data-testid="compare-runs"],
html.read-only .run-pick, html.read-only .whoami, html.read-only [data-testid="run-controls"],
html.read-only [data-testid="export-video"], html.read-only .topbar nav a[href^="#/tasks"],
html.read-only .topbar nav a[href^="#/labels"] { display: none !important; }
html.read-only .topbar::after { content: "read-only export"; margin-left: 12px; padding: 1px 8px; border: 1px solid currentColor; border-radius: 8px; font-size: 12px; opacity: 0.8; }
`;

/** The page: the built index.html with its scripts and styles loadable from file://. */
export function sitePage(builtIndex: string): string {
  let page = builtIndex.replace(
    /<meta\s+http-equiv="Content-Security-Policy"\s+content="[^"]*"\s*\/?>/s,
    `<meta http-equiv="Content-Security-Policy" content="${SITE_CSP}" />`,
  );
  if (!page.includes(SITE_CSP))
    throw new Error(
      'the built UI page has no Content-Security-Policy meta to replace: rebuild the UI (npm run build:ui)',
    );
  let scripts = 0;
  page = page.replace(
    /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/g,
    (_m, src: string) => {
      scripts++;
      return `<script src="./data/site.js"></script>\n    <script defer src="${src}"></script>`;
    },
  );
  if (scripts !== 1)
    throw new Error(
      `the built UI page has ${scripts} module scripts, expected 1: the static site needs the renderer as one chunk`,
    );
  page = page.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="([^"]+)">/g,
    '<link rel="stylesheet" href="$1">',
  );
  page = page.replace('</head>', '  <link rel="stylesheet" href="./site.css">\n  </head>');
  return page;
}

/** A module chunk with no imports or exports as a classic script: the same code in a strict function scope. */
export function classicScript(code: string, file: string): string {
  if (/^\s*(import|export)\s[^(]/m.test(code) || /\bimport\.meta\b/.test(code))
    throw new Error(
      `${file}: the UI chunk imports or exports modules; the static site needs it self-contained`,
    );
  return `(function(){"use strict";\n${code}\n})();\n`;
}

/** Copies the built UI from `uiDir` into `outDir` (index.html, assets/, site.css); returns the bytes written. */
export async function writeSiteAssets(uiDir: string, outDir: string): Promise<number> {
  let bytes = 0;
  const put = async (path: string, text: string) => {
    await writeFile(path, text);
    bytes += Buffer.byteLength(text);
  };
  await put(join(outDir, 'index.html'), sitePage(await readFile(join(uiDir, 'index.html'), 'utf8')));
  await put(join(outDir, 'site.css'), READ_ONLY_CSS);
  await mkdir(join(outDir, 'assets'), { recursive: true });
  for (const e of await readdir(join(uiDir, 'assets'), { withFileTypes: true })) {
    if (!e.isFile()) continue;
    const from = join(uiDir, 'assets', e.name);
    const to = join(outDir, 'assets', e.name);
    if (e.name.endsWith('.js')) await put(to, classicScript(await readFile(from, 'utf8'), from));
    else {
      await copyFile(from, to);
      bytes += (await readFile(from)).length;
    }
  }
  return bytes;
}
