// Harness time per step, model excluded: observe with Set-of-Mark + act + store, at 1920×1080 with a Chromium
// page open, beside a baseline measured in the same run (a bare screenshot); then the same with the sandbox
// session isolated in namespaces (bubblewrap) beside it on the host, and each sandbox's start time.
// `npx tsx bench/step.ts [steps]`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS, createLocalEnvironment } from '../src/main/env/local';
import { observe } from '../src/main/observe';
import { RunWriter } from '../src/main/store/run-writer';
import { taskDirFor } from '../src/main/store/layout';
import { freePort } from '../src/main/free-port';
import { formPage, waitForHttp } from './form-page';

const steps = Number(process.argv[2] ?? 20);

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return {
    median: s[Math.floor(s.length / 2)],
    p95: s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)],
  };
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

interface Measured {
  start: number;
  harness: { median: number; p95: number };
}

async function measure(isolate: boolean): Promise<Measured> {
  const out = mkdtempSync(join(tmpdir(), 'proctor-bench-'));
  const s0 = performance.now();
  const env = await createLocalEnvironment({ width: 1920, height: 1080, isolate });
  const start = performance.now() - s0;
  console.log(`\n== sandbox session: ${env.isolation} (started in ${ms(start)})`);
  try {
    await env.putFile('/home/user/page.html', Buffer.from(formPage));
    const port = await freePort();
    await env.launch([
      'chromium',
      ...CHROMIUM_FLAGS,
      `--remote-debugging-port=${port}`,
      '--user-data-dir=/tmp/bench-chromium',
      '--start-maximized',
      // guest paths are real inside a namespace sandbox; on the host they live in the sandbox home
      `file://${env.isolation === 'namespaces' ? '/home/user/page.html' : env.home.toHost('/home/user/page.html')}`,
    ]);
    env.setBrowserEndpoint?.(`http://127.0.0.1:${port}`);
    await waitForHttp(`http://127.0.0.1:${port}/json/version`, 30_000);
    await new Promise((r) => setTimeout(r, 2000)); // let the page paint

    const layout = { actionSpace: 'pyautogui', observation: 'som', agent: 'bench' } as const;
    const run = await RunWriter.create(out, {
      ...layout,
      args: ['bench'],
      tasks: ['bench/step'],
      taskInfo: { 'bench/step': { dir: taskDirFor(layout, 'bench', 'step') } },
    });
    const writer = run.openTask('bench/step');

    const baseline: number[] = [];
    const harness: number[] = [];
    const parts = { observe: [] as number[], act: [] as number[], store: [] as number[] };
    let marks = 0;
    // SoM needs the environment's accessibility tree; without it the bench measures the screenshot observation and says so.
    const type = env.capabilities.has('accessibility') ? 'som' : 'screenshot';
    if (type !== 'som')
      console.log(
        `note: the local environment has no 'accessibility' capability yet; measuring the screenshot observation instead of SoM`,
      );
    await observe(env, type); // warm-up (CDP connection, fonts)
    for (let i = 1; i <= steps; i++) {
      const b0 = performance.now();
      await env.screenshot();
      baseline.push(performance.now() - b0);

      const t0 = performance.now();
      const obs = await observe(env, type);
      const t1 = performance.now();
      await env.perform([{ type: 'moveTo', x: 200 + (i % 10) * 40, y: 300 }]);
      const t2 = performance.now();
      const saved = await writer.saveObservation(i, {
        screenshot: obs.screenshot,
        som: obs.som?.image,
        a11yTable: obs.a11yTable,
      });
      const after = await env.screenshot();
      await writer.recordStep({ step: i, at: new Date().toISOString(), actions: [], ...saved }, after, {
        action: 'pyautogui.moveTo(1, 1)',
      });
      const t3 = performance.now();
      marks = obs.som?.marks.length ?? 0;
      harness.push(t3 - t0);
      parts.observe.push(t1 - t0);
      parts.act.push(t2 - t1);
      parts.store.push(t3 - t2);
    }
    writer.close();
    const h = stats(harness);
    const b = stats(baseline);
    console.log(`steps: ${steps} at 1920x1080, Chromium page open, ${marks} SoM marks`);
    console.log(`baseline (bare screenshot):   median ${ms(b.median)}  p95 ${ms(b.p95)}`);
    console.log(
      `harness step (${type}+act+store): median ${ms(h.median)}  p95 ${ms(h.p95)}  = ${(h.median / b.median).toFixed(1)}x baseline`,
    );
    console.log(
      `  observe ${ms(stats(parts.observe).median)}, act ${ms(stats(parts.act).median)}, store (incl. after-screenshot) ${ms(stats(parts.store).median)} (medians)`,
    );
    console.log(`target ≤ 150 ms median: ${h.median <= 150 ? 'met' : 'NOT met'}`);
    return { start, harness: h };
  } finally {
    await env.close();
    rmSync(out, { recursive: true, force: true });
  }
}

const isolated = await measure(true);
const host = await measure(false);
const extraStep = (isolated.harness.median / host.harness.median - 1) * 100;
const extraStart = isolated.start - host.start;
console.log('\n== isolation cost (same run)');
console.log(
  `harness step median: isolated ${ms(isolated.harness.median)} vs host ${ms(host.harness.median)} = ${extraStep >= 0 ? '+' : ''}${extraStep.toFixed(1)} % (target ≤ 10 %: ${extraStep <= 10 ? 'met' : 'NOT met'})`,
);
console.log(
  `sandbox start: isolated ${ms(isolated.start)} vs host ${ms(host.start)} = ${extraStart >= 0 ? '+' : ''}${ms(extraStart)} (target ≤ 300 ms: ${extraStart <= 300 ? 'met' : 'NOT met'})`,
);
