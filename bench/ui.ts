// UI benchmark (issue 7): a synthetic run of 500 tasks × 20 steps written through the real store, served by
// `proctor serve`, measured in Debian Chromium: time to first paint of the task table, of a replay, and the time
// per next step (median). Baseline from the same run: loading the server's empty page (no data) and one
// runs.get API call without rendering.
// Side by side (issue 14): 4 runs × 50 steps of one task (two of them part at step 20), first paint (all four
// images decoded with their click marks) and next step in sync, beside the single-run replay of one of them.
//   npx tsx bench/ui.ts [--tasks 500] [--steps 20] [--compare-runs 4] [--compare-steps 50]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, serve } from '../e2e/support/serve';
import { writeSyntheticRun, type SyntheticRun } from '../e2e/support/synthetic-run';
import { compareLink, replayLink } from '../src/shared/links';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '500' },
    steps: { type: 'string', default: '20' },
    'compare-runs': { type: 'string', default: '4' },
    'compare-steps': { type: 'string', default: '50' },
  },
});
const tasks = Number(values.tasks);
const steps = Number(values.steps);
const compareRuns = Math.min(4, Math.max(2, Number(values['compare-runs'])));
const compareSteps = Number(values['compare-steps']);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

const root = mkdtempSync(join(tmpdir(), 'proctor-bench-ui-'));
try {
  let t = performance.now();
  const run = await writeSyntheticRun({ out: join(root, 'results'), tasks, steps });
  console.log(`synthetic run: ${tasks} tasks × ${steps} steps written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const side: SyntheticRun[] = [];
  for (let i = 0; i < compareRuns; i++)
    side.push(await writeSyntheticRun({ out: join(root, 'side'), tasks: 1, steps: compareSteps, agent: `agent${i + 1}`, divergeAt: i >= 2 ? 20 : undefined }));
  const served = await serve(root);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  const runPath = `results/${run.runId}`;

  // Baselines: an empty view of the UI, and the API call behind the table without rendering.
  const blank = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    await page.goto(`${served.url}#/none`);
    await page.waitForSelector('.topbar');
    blank.push(performance.now() - t);
  }
  const api = [];
  for (let i = 0; i < 3; i++) {
    t = performance.now();
    await fetch(new URL('/api/call', served.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ method: 'runs.get', params: { runId: runPath } }) }).then((r) => r.json());
    api.push(performance.now() - t);
  }

  const table = [];
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    t = performance.now();
    await page.goto(`${served.url}#/runs/${encodeURIComponent(runPath)}`);
    await page.waitForSelector('[data-testid="run-task-row"]');
    table.push(performance.now() - t);
  }

  const replay = [];
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    t = performance.now();
    await page.goto(`${served.url}#/runs/${encodeURIComponent(runPath)}?task=${encodeURIComponent(run.taskKeys[i * 7])}&step=1`);
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0 && !!document.querySelector('[data-testid="click-mark"]');
    });
    replay.push(performance.now() - t);
  }

  // Next step, timed inside Chromium: from the key event to the frame where the new image is decoded and its
  // click mark drawn.
  const next: number[] = [];
  for (let s = 2; s <= steps; s++) {
    // A string, not a function: tsx would wrap a function with helpers that do not exist in the page.
    next.push(
      await page.evaluate(`new Promise((done) => {
        const want = ${s};
        const t0 = performance.now();
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
        const give = setTimeout(() => done(-1), 5000);
        const check = () => {
          const img = document.querySelector('[data-testid="step-image"]');
          const mark = document.querySelector('[data-testid="click-mark"]');
          if (location.hash.includes('step=' + want) && img && img.complete && img.naturalWidth > 0 && img.src.includes('step_' + want + '.') && (mark || want === ${steps})) { clearTimeout(give); done(performance.now() - t0); }
          else setTimeout(check, 1);
        };
        check();
      })`) as number,
    );
    await page.waitForTimeout(30);
  }
  // Side by side: first paint of N runs at step 1, then next step in sync; the replay of the first run alone
  // (same task, same steps, same page size) as the baseline.
  const sidePaths = side.map((r) => `side/${r.runId}`);
  const sideTask = side[0].taskKeys[0];
  const allShown = (want: number, count: number) => `(() => {
    const imgs = [...document.querySelectorAll('[data-testid="compare-image"], [data-testid="step-image"]')];
    return imgs.length === ${count} && imgs.every((i) => i.complete && i.naturalWidth > 0 && i.src.includes('step_${want}.')) &&
      document.querySelectorAll('[data-testid="click-mark"]').length >= ${count};
  })()`;
  const firstPaint = async (hash: string, count: number) => {
    const xs = [];
    for (let i = 0; i < 3; i++) {
      await page.goto('about:blank');
      t = performance.now();
      await page.goto(`${served.url}${hash}`);
      // Polled inside the page (a string predicate for waitForFunction would need eval, which the UI's CSP refuses).
      await page.evaluate(`new Promise((done) => { const check = () => (${allShown(1, count)} ? done(0) : setTimeout(check, 1)); check(); })`);
      xs.push(performance.now() - t);
    }
    return xs;
  };
  const stepping = async (count: number, last: number) => {
    const xs: number[] = [];
    for (let s = 2; s < last; s++) {
      xs.push(
        (await page.evaluate(`new Promise((done) => {
          const t0 = performance.now();
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
          const give = setTimeout(() => done(-1), 5000);
          const check = () => {
            if (location.hash.includes('step=${s}') && ${allShown(s, count)}) { clearTimeout(give); done(performance.now() - t0); }
            else setTimeout(check, 1);
          };
          check();
        })`)) as number,
      );
      await page.waitForTimeout(30);
    }
    return xs;
  };
  const soloFirst = await firstPaint(`${replayLink(sidePaths[0], sideTask, 1)}`, 1);
  const soloNext = await stepping(1, compareSteps);
  const sideFirst = await firstPaint(compareLink(sidePaths, sideTask, 1), compareRuns);
  const sideNext = await stepping(compareRuns, compareSteps);

  await browser.close();
  await served.stop();

  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`baseline: empty UI view          median ${ms(median(blank))}`);
  console.log(`baseline: runs.get API call      median ${ms(median(api))}  (${tasks} tasks)`);
  console.log(`task table first paint           median ${ms(median(table))}  target < 1000 ms  ${median(table) < 1000 ? 'OK' : 'MISSED'}`);
  console.log(`replay first paint (image+mark)  median ${ms(median(replay))}  target < 500 ms  ${median(replay) < 500 ? 'OK' : 'MISSED'}`);
  if (next.some((x) => x < 0)) console.log(`next step: ${next.filter((x) => x < 0).length} steps did not show within 5 s`);
  console.log(`next step                        median ${ms(median(next))}  p95 ${ms(p95(next))}  target < 50 ms  ${median(next) < 50 ? 'OK' : 'MISSED'}`);
  console.log(`side by side: ${compareRuns} runs × ${compareSteps} steps of one task`);
  console.log(`baseline: replay of one of them  first paint median ${ms(median(soloFirst))}  next step median ${ms(median(soloNext))}  p95 ${ms(p95(soloNext))}`);
  const missed = sideNext.filter((x) => x < 0).length;
  if (missed) console.log(`side by side next step: ${missed} steps did not show within 5 s`);
  console.log(`side by side first paint         median ${ms(median(sideFirst))}  target < 500 ms  ${median(sideFirst) < 500 ? 'OK' : 'MISSED'}`);
  console.log(`side by side next step           median ${ms(median(sideNext))}  p95 ${ms(p95(sideNext))}  target < 50 ms  ${median(sideNext) < 50 ? 'OK' : 'MISSED'}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
