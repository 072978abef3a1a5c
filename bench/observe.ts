// Observation cost at 1920×1080: Set-of-Mark observations (screenshot + merged accessibility tree + filter + marks +
// table) against the plain screenshot alone, with a Chromium page open, then with a Calc workbook and a Writer
// document open in GUI LibreOffice (AT-SPI only: a sheet's visible cells with a value or the cursor, a document's
// visible paragraphs), where the tree is also taken with every call relayed by the bus daemon (no direct sockets).
// For Calc, the sheet's cells read as a grid (sheet-cells.ts) against the earlier cell-by-cell walk (the
// baseline), alternated in the same run, with the calls each makes and the tree without the cells.
// Then the workbooks of the twelve given Spider2-V spreadsheet tasks (../shared/fixtures), each opened in Calc as
// its task's setup opens it: the Set-of-Mark observation a real task's agent gets, beside the plain screenshot.
//   npx tsx bench/observe.ts [--runs 30] [--case chromium|calc|writer|tasks|all]
import { createLocalEnvironment, type LocalEnvironment } from '../src/main/env/local/local-environment';
import type { Environment } from '../src/main/env/environment';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { collectAccessibility } from '../src/main/env/local/accessibility';
import { collectAtspiTree } from '../src/main/env/local/accessibility/atspi';
import { DBusConnection } from '../src/main/env/local/accessibility/dbus-wire';
import { drawSetOfMark } from '../src/main/observe/set-of-mark';
import { filterNodes, flattenTree } from '../src/main/observe/filter';
import { observe } from '../src/main/observe/index';
import { serveFixturePage, startChromium } from '../src/main/env/local/testing/apps';
import {
  convertInSandbox,
  flatText,
  officeGuiMissingHere,
  workbookBytes,
} from '../src/main/env/local/testing/office-docs';
import { settleWindowGeometry, waitForWindowTitle } from '../src/main/env/local/openers';
import { sharedFixtures } from '../src/main/testing/shared-fixtures';
import { basename, join } from 'node:path';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg('--runs') ?? 30);
const CASE = arg('--case') ?? 'all';

/** A page of a realistic size: a form, a nav bar, a table of 40 rows with links and buttons. */
const rows = Array.from(
  { length: 40 },
  (_, i) =>
    `<tr><td>Item ${i + 1}</td><td><a href="#i${i}">Details ${i + 1}</a></td><td><button>Edit ${i + 1}</button></td><td><input type="checkbox" aria-label="Select ${i + 1}"></td></tr>`,
).join('');
const PAGE = `<!doctype html><html><head><title>Bench page</title><style>body{font:14px DejaVu Sans,sans-serif;margin:16px}
nav a{margin-right:12px}td{padding:2px 10px}</style></head><body>
<nav>${Array.from({ length: 12 }, (_, i) => `<a href="#n${i}">Section ${i + 1}</a>`).join('')}</nav>
<h1>Orders</h1><form><label>Search <input name="q" value="pending"></label> <select><option>All</option><option>Open</option></select>
<button type="button">Filter</button></form><table>${rows}</table></body></html>`;

/** CPU ms so far of this process and of the display's LibreOffice and bus daemons (other load barely moves it). */
function cpuMs(): number {
  let ms = (process.cpuUsage().user + process.cpuUsage().system) / 1000;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!/\((soffice\.bin|dbus-daemon)\)/.test(st)) continue;
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
    } catch {
      /* gone */
    }
  }
  return ms;
}

/** CPU ms so far of the display's LibreOffice alone (soffice.bin). */
function officeCpuMs(): number {
  let ms = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!st.includes('(soffice.bin)')) continue;
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      ms += (Number(f[11]) + Number(f[12])) * 10;
    } catch {
      /* gone */
    }
  }
  return ms;
}

/** Mean CPU ms per call of `fn` over RUNS calls: Proctor's own and LibreOffice's. */
async function cpuSplit(fn: () => Promise<unknown>): Promise<{ own: number; office: number }> {
  const own = process.cpuUsage();
  const office = officeCpuMs();
  for (let i = 0; i < RUNS; i++) await fn();
  const used = process.cpuUsage(own);
  return { own: (used.user + used.system) / 1000 / RUNS, office: (officeCpuMs() - office) / RUNS };
}

/** Alternates `a` and `b` (so that load on the machine hits both alike); median wall ms and mean CPU ms of each. */
async function alternate(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<{ wall: [number, number]; cpu: [number, number] }> {
  const wall: [number[], number[]] = [[], []];
  const cpu = [0, 0];
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const c = cpuMs();
      const t = performance.now();
      await fn();
      wall[k].push(performance.now() - t);
      cpu[k] += cpuMs() - c;
    }
  }
  return { wall: [stats(wall[0]).median, stats(wall[1]).median], cpu: [cpu[0] / RUNS, cpu[1] / RUNS] };
}

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

/** Times the screenshot (baseline), the tree, the marks and whole observations of what `env` shows now. */
async function measure(
  title: string,
  env: Environment,
  treeLabel: string,
  relayed?: () => Promise<unknown>,
): Promise<void> {
  const sample = await observe(env, 'som');
  const shot = await env.screenshot();
  const tree = await env.accessibilityTree();
  const shown = filterNodes(tree, await env.screen());
  const results = [
    await time('screenshot alone (baseline)', () => env.screenshot()),
    await time(treeLabel, () => env.accessibilityTree()),
    await time('Set-of-Mark drawing only', () => drawSetOfMark(shot, shown)),
    await time('observe som (total)', () => observe(env, 'som')),
    await time('observe screenshot_a11y_tree', () => observe(env, 'screenshot_a11y_tree')),
  ];
  console.log(
    `\nobserve bench: 1920x1080, ${title}: ${flattenTree(tree).length} nodes, ${sample.som!.marks.length} marks, ${RUNS} runs each`,
  );
  console.log(`${'what'.padEnd(38)} ${'median'.padStart(8)} ${'p95'.padStart(8)} ${'min'.padStart(8)}`);
  for (const [label, s] of results) {
    console.log(
      `${label.padEnd(38)} ${s.median.toFixed(1).padStart(6)}ms ${s.p95.toFixed(1).padStart(6)}ms ${s.min.toFixed(1).padStart(6)}ms`,
    );
  }
  const base = results[0][1].median;
  console.log(`accessibility tree: ${results[1][1].median.toFixed(1)} ms median (a11y budget 300 ms)`);
  console.log(
    `SoM observation over the plain screenshot: +${(results[3][1].median - base).toFixed(1)} ms (median)`,
  );
  console.log(
    `SoM observation: ${results[3][1].median.toFixed(1)} ms median (target ≤ 300 ms: ${results[3][1].median <= 300 ? 'met' : 'NOT met'})`,
  );
  if (relayed) {
    const r = await alternate(() => env.accessibilityTree(), relayed);
    console.log(
      `tree on the applications' own sockets vs every call through the bus daemon, alternated: ${r.wall[0].toFixed(1)} vs ${r.wall[1].toFixed(1)} ms median; ` +
        `CPU (Proctor + LibreOffice + bus daemons) ${r.cpu[0].toFixed(0)} vs ${r.cpu[1].toFixed(0)} ms per tree`,
    );
  }
  console.log(
    `load average now: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} cores (other work on the machine slows every figure)`,
  );
}

async function chromiumCase(): Promise<void> {
  const local = await createLocalEnvironment({ width: 1920, height: 1080 });
  const page = await serveFixturePage(PAGE);
  const chromium = await startChromium(local.displayEnv, page.url, { position: [0, 0], size: [1920, 1080] });
  local.setBrowserEndpoint!(chromium.endpoint);
  const env: Environment = Object.assign(Object.create(local) as Environment, {
    capabilities: new Set([...local.capabilities, 'accessibility' as const]),
    accessibilityTree: () =>
      collectAccessibility({
        dbusAddress: local.displayEnv.DBUS_SESSION_BUS_ADDRESS,
        cdpEndpoint: chromium.endpoint,
      }),
  });
  try {
    await new Promise((r) => setTimeout(r, 1500)); // let the page settle
    await measure('Chromium page', env, 'accessibility tree (AT-SPI + CDP)');
  } finally {
    await chromium.stop();
    await page.close();
    await local.close();
  }
}

/** D-Bus calls made while `fn` runs, by method. */
async function callsBy(fn: () => Promise<unknown>): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const original = DBusConnection.prototype.call;
  DBusConnection.prototype.call = function (this: DBusConnection, ...args: Parameters<typeof original>) {
    const member =
      args[3] === 'Get' || args[3] === 'GetAll'
        ? `${args[3]} ${String((args[5] as unknown[] | undefined)?.[1] ?? (args[5] as unknown[] | undefined)?.[0]).replace(/^org\.a11y\.atspi\./, '')}`
        : args[3];
    counts.set(member, (counts.get(member) ?? 0) + 1);
    return original.apply(this, args);
  };
  try {
    await fn();
  } finally {
    DBusConnection.prototype.call = original;
  }
  return counts;
}

/**
 * A Calc sheet's Set-of-Mark observation with its cells read as a grid against the cell-by-cell walk (baseline),
 * alternated in one run; then where the grid's time goes: the tree without the sheet's cells, and the calls.
 */
async function sheetCells(env: LocalEnvironment): Promise<void> {
  const dbusAddress =
    env.sandbox?.hostEnv.DBUS_SESSION_BUS_ADDRESS ?? env.displayEnv.DBUS_SESSION_BUS_ADDRESS;
  const withCells = (tableCells: 'grid' | 'walk' | 'none'): Environment =>
    Object.assign(Object.create(env) as Environment, {
      accessibilityTree: () =>
        collectAccessibility({ dbusAddress, hostAddress: env.sandbox?.hostAddress, tableCells }),
    });
  const [grid, walk, none] = [withCells('grid'), withCells('walk'), withCells('none')];
  const [gridTree, walkTree] = [await grid.accessibilityTree(), await walk.accessibilityTree()];
  const key = (t: Awaited<ReturnType<Environment['accessibilityTree']>>) =>
    JSON.stringify(flattenTree(t).map((n) => ({ ...n, children: undefined })));
  console.log(
    `\nCalc sheet cells, grid vs cell-by-cell walk: ${flattenTree(gridTree).length} vs ${flattenTree(walkTree).length} nodes, ${key(gridTree) === key(walkTree) ? 'identical' : 'DIFFERENT'} trees`,
  );
  const som = await alternate(
    () => observe(grid, 'som'),
    () => observe(walk, 'som'),
  );
  console.log(
    `SoM observation of the sheet, alternated ×${RUNS}: grid ${som.wall[0].toFixed(1)} ms vs walk (baseline) ${som.wall[1].toFixed(1)} ms median ` +
      `(target ≤ 300 ms: ${som.wall[0] <= 300 ? 'met' : 'NOT met'}); CPU (Proctor + LibreOffice + bus daemons) ${som.cpu[0].toFixed(0)} vs ${som.cpu[1].toFixed(0)} ms`,
  );
  const tree = await alternate(
    () => grid.accessibilityTree(),
    () => none.accessibilityTree(),
  );
  console.log(
    `where the grid's time goes: tree ${tree.wall[0].toFixed(1)} ms = the tree without the sheet's cells ${tree.wall[1].toFixed(1)} ms + the cells ${(tree.wall[0] - tree.wall[1]).toFixed(1)} ms (median)`,
  );
  const split = {
    grid: await cpuSplit(() => grid.accessibilityTree()),
    walk: await cpuSplit(() => walk.accessibilityTree()),
    none: await cpuSplit(() => none.accessibilityTree()),
  };
  const cpuLine = (k: keyof typeof split) =>
    `${k} ${split[k].office.toFixed(0)} + ${split[k].own.toFixed(0)}`;
  console.log(
    `CPU per tree, LibreOffice + Proctor (ms; unlike wall time, barely moved by other load): ${cpuLine('grid')}, ${cpuLine('walk')}, without the cells ${cpuLine('none')}`,
  );
  console.log(
    `  the sheet's cells: LibreOffice ${(split.grid.office - split.none.office).toFixed(0)} ms (grid) vs ${(split.walk.office - split.none.office).toFixed(0)} ms (walk) — building each visible cell's object and formatting a filled cell's text`,
  );
  const [g, w] = [
    await callsBy(() => grid.accessibilityTree()),
    await callsBy(() => walk.accessibilityTree()),
  ];
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  console.log(`D-Bus calls per tree, grid vs walk: ${total(g)} vs ${total(w)}`);
  for (const member of new Set([...w.keys(), ...g.keys()])) {
    if ((g.get(member) ?? 0) + (w.get(member) ?? 0) >= 20)
      console.log(
        `  ${member.padEnd(34)} ${String(g.get(member) ?? 0).padStart(6)} ${String(w.get(member) ?? 0).padStart(6)}`,
      );
  }
  console.log(
    `load average now: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
}

/** GUI LibreOffice showing `file` (made by `make`) in a fresh sandbox session at 1920×1080. */
async function officeCase(
  title: string,
  make: (env: LocalEnvironment) => Promise<string>,
  windowTitle: string,
  more?: (env: LocalEnvironment) => Promise<void>,
): Promise<void> {
  const env = await createLocalEnvironment({ width: 1920, height: 1080 });
  try {
    const file = await make(env);
    const t = performance.now();
    await env.open(file);
    await waitForWindowTitle(env, windowTitle, { timeoutMs: 60_000 });
    console.log(`\n${windowTitle}: window after ${(performance.now() - t).toFixed(0)} ms (cold start)`);
    await settleWindowGeometry(env, windowTitle);
    const first = performance.now();
    await env.accessibilityTree(); // LibreOffice builds its accessibility objects on the first walk
    console.log(
      `first accessibility walk (LibreOffice builds its objects): ${(performance.now() - first).toFixed(0)} ms`,
    );
    const relayed = () =>
      collectAtspiTree({
        dbusAddress: env.sandbox?.hostEnv.DBUS_SESSION_BUS_ADDRESS ?? env.displayEnv.DBUS_SESSION_BUS_ADDRESS,
        hostAddress: env.sandbox?.hostAddress,
        direct: false,
      });
    await measure(title, env, 'accessibility tree (AT-SPI)', relayed);
    await more?.(env);
  } finally {
    await env.close();
  }
}

/**
 * The Set-of-Mark observation of each given Spider2-V spreadsheet task's own workbook open in Calc (1920×1080, the
 * benchmark VM's screen), with the plain screenshot as the baseline; each workbook in a fresh sandbox session.
 */
async function taskWorkbooks(): Promise<void> {
  const shared = sharedFixtures();
  const excel = shared && join(shared.spider2vExamples, 'excel');
  const books = excel
    ? readdirSync(excel).flatMap((task) =>
        readdirSync(join(excel, task))
          .filter((f) => f.endsWith('.xlsx') && !/^gold_|_gt\d/.test(f))
          .map((f) => join(excel, task, f)),
      )
    : [];
  const distinct = [...new Map(books.map((b) => [basename(b), b])).values()];
  if (!distinct.length) {
    console.log(
      '\ntask workbooks skipped: the given Spider2-V tasks are not in ../shared/fixtures beside the clone',
    );
    return;
  }
  console.log(
    `\nSet-of-Mark on the given Spider2-V tasks' own workbooks in Calc (1920x1080), ${RUNS} runs each (target ≤ 300 ms):`,
  );
  console.log(
    `${'workbook'.padEnd(26)} ${'screenshot'.padStart(10)} ${'SoM'.padStart(8)} ${'p95'.padStart(8)} marks`,
  );
  const medians: number[] = [];
  for (const book of distinct) {
    const name = basename(book);
    const env = await createLocalEnvironment({ width: 1920, height: 1080 });
    try {
      await env.putFile(`/home/user/${name}`, readFileSync(book));
      await env.open(`/home/user/${name}`);
      const title = `${name} - LibreOffice Calc`;
      await waitForWindowTitle(env, title, { timeoutMs: 60_000 });
      await settleWindowGeometry(env, title);
      await env.accessibilityTree(); // LibreOffice builds its accessibility objects on the first walk
      const sample = await observe(env, 'som');
      const [, shot] = await time('screenshot', () => env.screenshot());
      const [, som] = await time('som', () => observe(env, 'som'));
      medians.push(som.median);
      console.log(
        `${name.padEnd(26)} ${shot.median.toFixed(1).padStart(8)}ms ${som.median.toFixed(1).padStart(6)}ms ${som.p95.toFixed(1).padStart(6)}ms ${sample.som!.marks.length}`,
      );
    } finally {
      await env.close();
    }
  }
  const worst = Math.max(...medians);
  console.log(
    `slowest workbook's SoM median: ${worst.toFixed(1)} ms (target ≤ 300 ms: ${worst <= 300 ? 'met' : 'NOT met'}); load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} cores`,
  );
}

if (CASE === 'all' || CASE === 'chromium') await chromiumCase();
if (CASE !== 'chromium') {
  if (officeGuiMissingHere) console.log(`\noffice cases skipped: ${officeGuiMissingHere}`);
  else {
    if (CASE === 'all' || CASE === 'calc') {
      const book = Array.from({ length: 80 }, (_, r) =>
        Array.from({ length: 12 }, (_, c) => (r === 0 ? `Column ${c + 1}` : r * 100 + c)),
      );
      await officeCase(
        'Calc workbook (visible cells of an 80×12 sheet)',
        async (env) => {
          await env.putFile('/home/user/Sales.xlsx', await workbookBytes(book));
          return '/home/user/Sales.xlsx';
        },
        'Sales.xlsx - LibreOffice Calc',
        sheetCells,
      );
    }
    if (CASE === 'all' || CASE === 'writer') {
      await officeCase(
        'Writer document (visible paragraphs of 80)',
        async (env) => {
          await env.putFile(
            '/tmp/src/Report.fodt',
            Buffer.from(
              flatText(
                Array.from(
                  { length: 80 },
                  (_, i) => `Paragraph ${i + 1}: the quarterly figures and what they mean.`,
                ),
              ),
            ),
          );
          return convertInSandbox(env, '/tmp/src/Report.fodt', 'docx:MS Word 2007 XML', '/home/user');
        },
        'Report.docx - LibreOffice Writer',
      );
    }
    if (CASE === 'all' || CASE === 'tasks') await taskWorkbooks();
  }
}
