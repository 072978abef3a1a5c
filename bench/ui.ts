// UI benchmark (issue 7): a synthetic run of 500 tasks × 20 steps written through the real store, served by
// `proctor serve`, measured in Debian Chromium: time to first paint of the task table, of a replay, and the time
// per next step (median). Baseline from the same run: loading the server's empty page (no data) and one
// runs.get API call without rendering.
// Side by side (issue 14): 4 runs × 50 steps of one task (two of them part at step 20), first paint (all four
// images decoded with their click marks) and next step in sync, beside the single-run replay of one of them.
// Other harnesses' output (issue 22): an OSWorld top folder of 50 dated runs × 30 steps with several lines per step
// (traj.jsonl lines with step_num, action_timestamp, action, screenshot_file + tiny PNGs), served on its own:
// first paint of the run list (every run listed) and of a replay (image decoded, the carried click drawn), beside
// the empty page of the same server.
//   npx tsx bench/ui.ts [--tasks 500] [--steps 20] [--compare-runs 4] [--compare-steps 50]
//                       [--foreign-runs 50] [--foreign-steps 30] [--foreign-lines 3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium, serve } from '../e2e/support/serve';
import { writeSyntheticRun, type SyntheticRun } from '../e2e/support/synthetic-run';
import { writeOsworldTop } from '../e2e/support/foreign-shapes';
import { compareLink, replayLink } from '../src/shared/links';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '500' },
    steps: { type: 'string', default: '20' },
    'compare-runs': { type: 'string', default: '4' },
    'compare-steps': { type: 'string', default: '50' },
    'foreign-runs': { type: 'string', default: '50' },
    'foreign-steps': { type: 'string', default: '30' },
    'foreign-lines': { type: 'string', default: '3' },
  },
});
const tasks = Number(values.tasks);
const steps = Number(values.steps);
const compareRuns = Math.min(4, Math.max(2, Number(values['compare-runs'])));
const compareSteps = Number(values['compare-steps']);
const foreign = {
  runs: Number(values['foreign-runs']),
  steps: Number(values['foreign-steps']),
  linesPerStep: Math.max(2, Number(values['foreign-lines'])),
  tasks: 1,
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

const root = mkdtempSync(join(tmpdir(), 'proctor-bench-ui-'));
const foreignRoot = mkdtempSync(join(tmpdir(), 'proctor-bench-ui-foreign-'));
try {
  let t = performance.now();
  const run = await writeSyntheticRun({ out: join(root, 'results'), tasks, steps });
  console.log(
    `synthetic run: ${tasks} tasks × ${steps} steps written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const side: SyntheticRun[] = [];
  for (let i = 0; i < compareRuns; i++)
    side.push(
      await writeSyntheticRun({
        out: join(root, 'side'),
        tasks: 1,
        steps: compareSteps,
        agent: `agent${i + 1}`,
        divergeAt: i >= 2 ? 20 : undefined,
      }),
    );
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
    await fetch(new URL('/api/call', served.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'runs.get', params: { runId: runPath } }),
    }).then((r) => r.json());
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
    await page.goto(
      `${served.url}#/runs/${encodeURIComponent(runPath)}?task=${encodeURIComponent(run.taskKeys[i * 7])}&step=1`,
    );
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="step-image"]') as HTMLImageElement | null;
      return (
        !!img &&
        img.complete &&
        img.naturalWidth > 0 &&
        !!document.querySelector('[data-testid="click-mark"]')
      );
    });
    replay.push(performance.now() - t);
  }

  // Next step, timed inside Chromium: from the key event to the frame where the new image is decoded and its
  // click mark drawn.
  const next: number[] = [];
  for (let s = 2; s <= steps; s++) {
    // A string, not a function: tsx would wrap a function with helpers that do not exist in the page.
    next.push(
      (await page.evaluate(`new Promise((done) => {
        const want = ${s};
        const before = document.querySelector('[data-testid="step-image"]')?.src;
        const t0 = performance.now();
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
        const give = setTimeout(() => done(-1), 5000);
        const check = () => {
          const img = document.querySelector('[data-testid="step-image"]');
          const mark = document.querySelector('[data-testid="click-mark"]');
          if (location.hash.includes('step=' + want) && img && img.complete && img.naturalWidth > 0 && img.src !== before && (mark || want === ${steps})) { clearTimeout(give); done(performance.now() - t0); }
          else setTimeout(check, 1);
        };
        check();
      })`)) as number,
    );
    await page.waitForTimeout(30);
  }
  // Side by side: first paint of N runs at step 1, then next step in sync; the replay of the first run alone
  // (same task, same steps, same page size) as the baseline.
  const sidePaths = side.map((r) => `side/${r.runId}`);
  const sideTask = side[0].taskKeys[0];
  // Every image shown, decoded and new (an observation is the step before's screenshot file: names do not say the step).
  const shotsNow = `[...document.querySelectorAll('[data-testid="compare-image"], [data-testid="step-image"]')].map((i) => i.src)`;
  const allShown = (count: number, before = '[]') => `(() => {
    const imgs = [...document.querySelectorAll('[data-testid="compare-image"], [data-testid="step-image"]')];
    const was = ${before};
    return imgs.length === ${count} && imgs.every((i, k) => i.complete && i.naturalWidth > 0 && i.src !== was[k]) &&
      document.querySelectorAll('[data-testid="click-mark"]').length >= ${count};
  })()`;
  const firstPaint = async (hash: string, count: number) => {
    const xs = [];
    for (let i = 0; i < 3; i++) {
      await page.goto('about:blank');
      t = performance.now();
      await page.goto(`${served.url}${hash}`);
      // Polled inside the page (a string predicate for waitForFunction would need eval, which the UI's CSP refuses).
      await page.evaluate(
        `new Promise((done) => { const check = () => (${allShown(count)} ? done(0) : setTimeout(check, 1)); check(); })`,
      );
      xs.push(performance.now() - t);
    }
    return xs;
  };
  const stepping = async (count: number, last: number) => {
    const xs: number[] = [];
    for (let s = 2; s < last; s++) {
      xs.push(
        (await page.evaluate(`new Promise((done) => {
          const before = ${shotsNow};
          const t0 = performance.now();
          window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
          const give = setTimeout(() => done(-1), 5000);
          const check = () => {
            if (location.hash.includes('step=${s}') && ${allShown(count, 'before')}) { clearTimeout(give); done(performance.now() - t0); }
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

  // Other harnesses' output: the top folder served on its own, the empty page of that server as the baseline.
  t = performance.now();
  const foreignRuns = await writeOsworldTop(join(foreignRoot, 'osworld'), foreign);
  console.log(
    `osworld top folder: ${foreign.runs} runs × ${foreign.steps} steps × ${foreign.linesPerStep} lines written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const servedForeign = await serve(foreignRoot);
  const foreignBlank = [];
  const foreignList = [];
  const foreignReplay = [];
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    t = performance.now();
    await page.goto(`${servedForeign.url}#/none`);
    await page.waitForSelector('.topbar');
    foreignBlank.push(performance.now() - t);
  }
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    t = performance.now();
    await page.goto(`${servedForeign.url}#/runs`);
    await page.evaluate(
      `new Promise((done) => { const check = () => (document.querySelectorAll('[data-testid="run-row"]').length >= ${foreign.runs} ? done(0) : setTimeout(check, 1)); check(); })`,
    );
    foreignList.push(performance.now() - t);
  }
  const middle = Math.ceil(foreign.steps / 2);
  for (let i = 0; i < 3; i++) {
    await page.goto('about:blank');
    t = performance.now();
    // The second line of a step: a bare click() drawn at the pointer the line before moved to.
    await page.goto(
      `${servedForeign.url}${replayLink(`osworld/${foreignRuns[(i * 7) % foreignRuns.length].split('\\').join('/')}`, 'chrome/task-001', middle)}&entry=2`,
    );
    await page.evaluate(`new Promise((done) => { const check = () => {
      const img = document.querySelector('[data-testid="step-image"]');
      return img && img.complete && img.naturalWidth > 0 && document.querySelector('[data-testid="click-mark"]') ? done(0) : setTimeout(check, 1);
    }; check(); })`);
    foreignReplay.push(performance.now() - t);
  }
  await servedForeign.stop();

  await browser.close();
  await served.stop();

  const ms = (x: number) => `${x.toFixed(0)} ms`;
  console.log(`baseline: empty UI view          median ${ms(median(blank))}`);
  console.log(`baseline: runs.get API call      median ${ms(median(api))}  (${tasks} tasks)`);
  console.log(
    `task table first paint           median ${ms(median(table))}  target < 1000 ms  ${median(table) < 1000 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `replay first paint (image+mark)  median ${ms(median(replay))}  target < 500 ms  ${median(replay) < 500 ? 'OK' : 'MISSED'}`,
  );
  if (next.some((x) => x < 0))
    console.log(`next step: ${next.filter((x) => x < 0).length} steps did not show within 5 s`);
  console.log(
    `next step                        median ${ms(median(next))}  p95 ${ms(p95(next))}  target < 50 ms  ${median(next) < 50 ? 'OK' : 'MISSED'}`,
  );
  console.log(`side by side: ${compareRuns} runs × ${compareSteps} steps of one task`);
  console.log(
    `baseline: replay of one of them  first paint median ${ms(median(soloFirst))}  next step median ${ms(median(soloNext))}  p95 ${ms(p95(soloNext))}`,
  );
  const missed = sideNext.filter((x) => x < 0).length;
  if (missed) console.log(`side by side next step: ${missed} steps did not show within 5 s`);
  console.log(
    `side by side first paint         median ${ms(median(sideFirst))}  target < 500 ms  ${median(sideFirst) < 500 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `side by side next step           median ${ms(median(sideNext))}  p95 ${ms(p95(sideNext))}  target < 50 ms  ${median(sideNext) < 50 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `other harnesses: OSWorld top folder, ${foreign.runs} runs × ${foreign.steps} steps × ${foreign.linesPerStep} lines per step`,
  );
  console.log(`baseline: empty UI view          median ${ms(median(foreignBlank))}`);
  console.log(
    `run list first paint (all runs)  median ${ms(median(foreignList))}  target < 1000 ms  ${median(foreignList) < 1000 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `replay first paint (image+mark)  median ${ms(median(foreignReplay))}  target < 500 ms  ${median(foreignReplay) < 500 ? 'OK' : 'MISSED'}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(foreignRoot, { recursive: true, force: true });
}
