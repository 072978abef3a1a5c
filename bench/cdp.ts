// DevTools cost of one observation step: Proctor's own small client (src/main/devtools) against playwright-core's
// connectOverCDP, sending the same commands for Chromium's accessibility tree of a realistic page (a11y budget:
// 300 ms a step), with one tab and with eight; the baseline is the own client, measured alternately in the same run.
//   npx tsx bench/cdp.ts [--runs 20]
import { chromium as playwright } from 'playwright-core';
import { cpus, loadavg } from 'node:os';
import { startDisplay } from '../src/main/env/local/display';
import { serveFixturePage, startChromium } from '../src/main/env/local/testing/apps';
import { collectChromiumTree } from '../src/main/env/local/accessibility/cdp';
import { CdpConnection } from '../src/main/devtools';

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const RUNS = Number(arg('--runs') ?? 20);

const rows = Array.from(
  { length: 40 },
  (_, i) =>
    `<tr><td>Item ${i + 1}</td><td><a href="#i${i}">Details ${i + 1}</a></td><td><button>Edit ${i + 1}</button></td><td><input type="checkbox" aria-label="Select ${i + 1}"></td></tr>`,
).join('');
const PAGE = `<!doctype html><html><head><title>Bench page</title></head><body>
<nav><a href="#a">Home</a> <a href="#b">Docs</a> <a href="#c">About</a></nav>
<form><label>Name <input value="x"></label><label>Mail <input type="email"></label><button>Send</button></form>
<table>${rows}</table></body></html>`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];
const fmt = (xs: number[]) =>
  `median ${median(xs).toFixed(1).padStart(6)} ms   p90 ${p90(xs).toFixed(1).padStart(6)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

const PLACEMENT = `JSON.stringify({ vis: document.visibilityState, iw: window.innerWidth, dpr: window.devicePixelRatio })`;

/**
 * The observation step the way it would run through playwright-core: connectOverCDP, then per page a CDP session
 * with the same three commands collectChromiumTree sends (placement, Accessibility.getFullAXTree, one
 * DOMSnapshot), then disconnect. Returns the AX nodes of the visible pages.
 */
async function stepOverPlaywright(endpoint: string): Promise<{ connectMs: number; axNodes: number }> {
  const [connectMs, browser] = await timed(() => playwright.connectOverCDP(endpoint));
  try {
    let axNodes = 0;
    const pages = browser.contexts().flatMap((c) => c.pages());
    await Promise.all(
      pages.map(async (page) => {
        const s = await page.context().newCDPSession(page);
        try {
          const { result } = (await s.send('Runtime.evaluate', {
            expression: PLACEMENT,
            returnByValue: true,
          })) as {
            result: { value?: string };
          };
          if ((JSON.parse(result.value ?? '{}') as { vis?: string }).vis !== 'visible') return;
          const [{ nodes }] = await Promise.all([
            s.send('Accessibility.getFullAXTree') as Promise<{ nodes: unknown[] }>,
            s.send('DOMSnapshot.captureSnapshot', { computedStyles: [] }),
          ]);
          axNodes += nodes.length;
        } finally {
          await s.detach().catch(() => undefined);
        }
      }),
    );
    return { connectMs, axNodes };
  } finally {
    await browser.close();
  }
}

/** The same commands over Proctor's own client (what collectChromiumTree sends), counting AX nodes. */
async function stepOverOwnClient(endpoint: string): Promise<{ connectMs: number; axNodes: number }> {
  const [connectMs, cdp] = await timed(() => CdpConnection.open(endpoint));
  try {
    let axNodes = 0;
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>(
      'Target.getTargets',
    );
    await Promise.all(
      targetInfos
        .filter((t) => t.type === 'page')
        .map(async (t) => {
          const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
            targetId: t.targetId,
            flatten: true,
          });
          try {
            const { result } = await cdp.send<{ result: { value?: string } }>(
              'Runtime.evaluate',
              { expression: PLACEMENT, returnByValue: true },
              sessionId,
            );
            if ((JSON.parse(result.value ?? '{}') as { vis?: string }).vis !== 'visible') return;
            const [{ nodes }] = await Promise.all([
              cdp.send<{ nodes: unknown[] }>('Accessibility.getFullAXTree', {}, sessionId),
              cdp.send('DOMSnapshot.captureSnapshot', { computedStyles: [] }, sessionId),
            ]);
            axNodes += nodes.length;
          } finally {
            await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
          }
        }),
    );
    return { connectMs, axNodes };
  } finally {
    await cdp.close();
  }
}

async function measure(label: string, endpoint: string): Promise<void> {
  const own = { connect: [] as number[], step: [] as number[], tree: [] as number[] };
  const pw = { connect: [] as number[], step: [] as number[] };
  let nodes = [0, 0];
  for (let i = 0; i < RUNS; i++) {
    // alternate, so load on the machine falls on both alike
    const [tOwn, o] = await timed(() => stepOverOwnClient(endpoint));
    own.step.push(tOwn);
    own.connect.push(o.connectMs);
    const [tPw, p] = await timed(() => stepOverPlaywright(endpoint));
    pw.step.push(tPw);
    pw.connect.push(p.connectMs);
    const [tTree] = await timed(() => collectChromiumTree(endpoint));
    own.tree.push(tTree);
    nodes = [o.axNodes, p.axNodes];
  }
  console.log(`\n${label} (AX nodes read: own ${nodes[0]}, playwright ${nodes[1]})`);
  console.log(`  own client   connect                        ${fmt(own.connect)}`);
  console.log(`  own client   connect + AX tree + snapshot   ${fmt(own.step)}`);
  console.log(`  own client   collectChromiumTree (the step) ${fmt(own.tree)}`);
  console.log(`  playwright   connectOverCDP                 ${fmt(pw.connect)}`);
  console.log(`  playwright   connect + AX tree + snapshot   ${fmt(pw.step)}`);
}

/** `visibilityState/hasFocus()` of each page, read over the own client. */
async function pageStates(endpoint: string): Promise<string> {
  const cdp = await CdpConnection.open(endpoint);
  try {
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string }[] }>(
      'Target.getTargets',
    );
    const states: string[] = [];
    for (const t of targetInfos.filter((x) => x.type === 'page')) {
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', {
        targetId: t.targetId,
        flatten: true,
      });
      const { result } = await cdp.send<{ result: { value?: string } }>(
        'Runtime.evaluate',
        { expression: 'document.visibilityState + "/" + document.hasFocus()', returnByValue: true },
        sessionId,
      );
      states.push(result.value ?? '?');
      await cdp.send('Target.detachFromTarget', { sessionId });
    }
    const count = new Map<string, number>();
    for (const st of states) count.set(st, (count.get(st) ?? 0) + 1);
    return [...count].map(([st, n]) => `${n}× ${st}`).join(', ');
  } finally {
    await cdp.close();
  }
}

async function main(): Promise<void> {
  const display = await startDisplay();
  const page = await serveFixturePage(PAGE);
  const browser = await startChromium(display.env, page.url);
  try {
    const endpoint = browser.endpoint;
    console.log(
      `DevTools cost of one observation step, ${RUNS} runs each, alternated; ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}; budget 300 ms`,
    );
    await collectChromiumTree(endpoint); // warm
    await stepOverPlaywright(endpoint);
    await measure('one tab', endpoint);
    const cdp = await CdpConnection.open(endpoint);
    for (let i = 0; i < 7; i++)
      await cdp.send('Target.createTarget', { url: `${page.url}?tab=${i}`, background: true });
    await cdp.close();
    await measure('eight tabs (one visible)', endpoint);
    // why a connection kept open across steps is no way out: Playwright emulates focus on every page it holds
    const before = await pageStates(endpoint);
    const held = await playwright.connectOverCDP(endpoint);
    const during = await pageStates(endpoint);
    await held.close();
    console.log(
      `\npages' visibilityState/hasFocus(): alone ${before}; while playwright is connected ${during}`,
    );
  } finally {
    await browser.stop();
    await page.close();
    await display.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
