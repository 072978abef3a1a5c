// DevTools Protocol cost per observation step: Proctor's own small client against playwright-core's
// connectOverCDP, reading Chromium's accessibility tree of a realistic page (the a11y budget is 300 ms per step).
//   npx tsx bench/cdp.ts [--runs 20]
import { chromium as playwright } from 'playwright-core';
import { cpus, loadavg } from 'node:os';
import { startDisplay } from '../src/main/env/local/display';
import { serveFixturePage, startChromium } from '../src/main/env/local/testing/apps';
import { collectChromiumTree, CdpConnection } from '../src/main/env/local/accessibility/cdp';

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
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms, p90 ${p90(xs).toFixed(1)} ms`;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await fn();
  return [performance.now() - t0, v];
}

/** The same commands collectChromiumTree sends, over a playwright CDP session. */
async function treeOverPlaywright(session: import('playwright-core').CDPSession): Promise<number> {
  const { targetInfos } = (await session.send('Target.getTargets')) as {
    targetInfos: { targetId: string; type: string }[];
  };
  let count = 0;
  for (const t of targetInfos.filter((x) => x.type === 'page')) {
    const { sessionId } = await session.send('Target.attachToTarget', { targetId: t.targetId, flatten: true });
    // playwright's browser session cannot address a child session by id: this is what it cannot do.
    void sessionId;
    count++;
  }
  return count;
}

async function main(): Promise<void> {
  const display = await startDisplay();
  const page = await serveFixturePage(PAGE);
  const browser = await startChromium(display.env, page.url);
  try {
    const endpoint = browser.endpoint;
    console.log(`cdp bench: ${RUNS} runs, ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}`);
    // warm
    await collectChromiumTree(endpoint);

    const own: number[] = [];
    const ownConnect: number[] = [];
    const pwConnect: number[] = [];
    const pwPage: number[] = [];
    const pwTree: number[] = [];
    let nodes = 0;
    for (let i = 0; i < RUNS; i++) {
      const [t, roots] = await timed(() => collectChromiumTree(endpoint));
      own.push(t);
      nodes = JSON.stringify(roots).length;
      const [tc, c] = await timed(() => CdpConnection.open(endpoint));
      ownConnect.push(tc);
      c.close();

      const [tp, pw] = await timed(() => playwright.connectOverCDP(endpoint));
      pwConnect.push(tp);
      const [tt] = await timed(async () => {
        const p = pw.contexts()[0].pages()[0];
        const s = await pw.contexts()[0].newCDPSession(p);
        await s.send('Accessibility.getFullAXTree');
        await s.send('DOMSnapshot.captureSnapshot', { computedStyles: [] });
        await s.detach();
      });
      pwPage.push(tt);
      const [tb] = await timed(async () => {
        const s = await pw.newBrowserCDPSession();
        await treeOverPlaywright(s);
        await s.detach();
      });
      pwTree.push(tb);
      await pw.close();
    }
    console.log(`tree JSON ${nodes} chars`);
    console.log(`own client: connect                          ${fmt(ownConnect)}`);
    console.log(`own client: connect + whole tree (per step)  ${fmt(own)}`);
    console.log(`playwright: connectOverCDP                   ${fmt(pwConnect)}`);
    console.log(`playwright: page session + AX tree + snapshot ${fmt(pwPage)}`);
    console.log(`playwright: browser session + attach        ${fmt(pwTree)}`);
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
