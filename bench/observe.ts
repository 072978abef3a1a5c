// Observation cost at 1920×1080 with a Chromium page open: Set-of-Mark observations (screenshot + merged
// accessibility tree + filter + marks + table) against the plain screenshot alone.
//   npx tsx bench/observe.ts [--runs 30]
import { createLocalEnvironment } from '../src/main/env/local/local-environment';
import type { Environment } from '../src/main/env/environment';
import { collectAccessibility } from '../src/main/env/local/accessibility';
import { drawSetOfMark } from '../src/main/observe/set-of-mark';
import { filterNodes } from '../src/main/observe/filter';
import { observe } from '../src/main/observe/index';
import { serveFixturePage, startChromium } from '../src/main/env/local/testing/apps';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 30;

/** A page of a realistic size: a form, a nav bar, a table of 40 rows with links and buttons. */
const rows = Array.from(
  { length: 40 },
  (_, i) => `<tr><td>Item ${i + 1}</td><td><a href="#i${i}">Details ${i + 1}</a></td><td><button>Edit ${i + 1}</button></td><td><input type="checkbox" aria-label="Select ${i + 1}"></td></tr>`,
).join('');
const PAGE = `<!doctype html><html><head><title>Bench page</title><style>body{font:14px DejaVu Sans,sans-serif;margin:16px}
nav a{margin-right:12px}td{padding:2px 10px}</style></head><body>
<nav>${Array.from({ length: 12 }, (_, i) => `<a href="#n${i}">Section ${i + 1}</a>`).join('')}</nav>
<h1>Orders</h1><form><label>Search <input name="q" value="pending"></label> <select><option>All</option><option>Open</option></select>
<button type="button">Filter</button></form><table>${rows}</table></body></html>`;

function stats(ms: number[]): { median: number; p95: number; min: number } {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { median: q(0.5), p95: q(0.95), min: s[0] };
}

async function time(label: string, fn: () => Promise<unknown>): Promise<[string, ReturnType<typeof stats>]> {
  await fn(); // warm
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return [label, stats(ms)];
}

const local = await createLocalEnvironment({ width: 1920, height: 1080 });
const page = await serveFixturePage(PAGE);
const chromium = await startChromium(local.displayEnv, page.url, { position: [0, 0], size: [1920, 1080] });
local.setBrowserEndpoint!(chromium.endpoint);
const env: Environment = Object.assign(Object.create(local) as Environment, {
  capabilities: new Set([...local.capabilities, 'accessibility' as const]),
  accessibilityTree: () =>
    collectAccessibility({ dbusAddress: local.displayEnv.DBUS_SESSION_BUS_ADDRESS, cdpEndpoint: chromium.endpoint }),
});
try {
  await new Promise((r) => setTimeout(r, 1500)); // let the page settle
  const sample = await observe(env, 'som');
  const shot = await env.screenshot();
  const shown = filterNodes(await env.accessibilityTree(), await env.screen());
  const results = [
    await time('screenshot alone (baseline)', () => env.screenshot()),
    await time('accessibility tree (AT-SPI + CDP)', () => env.accessibilityTree()),
    await time('Set-of-Mark drawing only', () => drawSetOfMark(shot, shown)),
    await time('observe som (total)', () => observe(env, 'som')),
    await time('observe screenshot_a11y_tree', () => observe(env, 'screenshot_a11y_tree')),
  ];
  console.log(`observe bench: 1920x1080, Chromium page with ${sample.som!.marks.length} marks, ${RUNS} runs each`);
  console.log(`${'what'.padEnd(38)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'min'.padStart(8)}`);
  for (const [label, s] of results) {
    console.log(`${label.padEnd(38)} ${s.median.toFixed(1).padStart(6)}ms ${s.p95.toFixed(1).padStart(6)}ms ${s.min.toFixed(1).padStart(6)}ms`);
  }
  const base = results[0][1].median;
  const som = results[3][1].median;
  console.log(`SoM observation over the plain screenshot: +${(som - base).toFixed(1)} ms (median)`);
} finally {
  await chromium.stop();
  await page.close();
  await local.close();
}
