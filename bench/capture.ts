// `npx tsx bench/capture.ts`: capture, click and typing latency on a 1920×1080 sandbox display, in one run.
// Capture: nut.js grab + sharp (PNG, JPEG) against screenshot-desktop (PNG, JPEG), with the ratio.
// Targets: nut.js capture + encode ≤ 50 ms median, ≥ 5× faster than screenshot-desktop PNG.
import { createLocalEnvironment, type LocalEnvironment } from '../src/main/env/local/local-environment';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

function stats(ms: number[]): { median: number; p95: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
  return { median: at(0.5), p95: at(0.95) };
}

async function time(n: number, f: () => Promise<unknown>): Promise<number[]> {
  await f(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  return out;
}

const fmt = (x: number): string => `${x.toFixed(1)} ms`;

async function main(): Promise<void> {
  const nut = await createLocalEnvironment({ width: 1920, height: 1080 });
  let sd: LocalEnvironment | undefined;
  try {
    // Something to look at: a full-screen terminal with text.
    await nut.launch([
      'xterm',
      '-geometry',
      '240x70+0+0',
      '-e',
      'sh',
      '-c',
      'ls -lR /usr/share/doc | head -400; sleep 600',
    ]);
    await new Promise((r) => setTimeout(r, 1500));
    sd = await createLocalEnvironment({ display: nut.display, captureBackend: 'screenshot-desktop' });

    const rows: [string, { median: number; p95: number }, number][] = [];
    for (const [label, env, format] of [
      ['nut.js + sharp PNG', nut, 'png'],
      ['nut.js + sharp JPEG q80', nut, 'jpeg'],
      ['screenshot-desktop PNG', sd, 'png'],
      ['screenshot-desktop JPEG q80', sd, 'jpeg'],
    ] as const) {
      let bytes = 0;
      const t = await time(
        ROUNDS,
        async () => (bytes = (await env.screenshot({ format, quality: 80 })).data.length),
      );
      rows.push([label, stats(t), bytes]);
    }
    const click = stats(await time(ROUNDS, () => nut.perform([{ type: 'click', x: 960, y: 540 }])));
    const text =
      'The quick brown fox jumps over the lazy dog; THE QUICK BROWN FOX! 0123456789 (a+b)*c "q" \'s\' <x> ~`|\\';
    const typing = stats(await time(5, () => nut.perform([{ type: 'write', text: text.slice(0, 100) }])));
    const step = stats(
      await time(ROUNDS, async () => {
        await nut.screenshot({ format: 'png' });
        await nut.perform([{ type: 'click', x: 900, y: 500 }]);
      }),
    );

    console.log(`Capture at 1920x1080, ${ROUNDS} rounds (median / p95 / size):`);
    for (const [label, s, bytes] of rows)
      console.log(
        `  ${label.padEnd(30)} ${fmt(s.median).padStart(9)} ${fmt(s.p95).padStart(9)}  ${(bytes / 1024).toFixed(0)} KiB`,
      );
    const nutPng = rows[0][1].median;
    const sdPng = rows[2][1].median;
    const ratio = sdPng / nutPng;
    console.log(
      `  ratio screenshot-desktop PNG / nut.js PNG: ${ratio.toFixed(1)}x  (JPEG: ${(rows[3][1].median / rows[1][1].median).toFixed(1)}x)`,
    );
    console.log(`Click (move + press + release):     median ${fmt(click.median)}, p95 ${fmt(click.p95)}`);
    console.log(`Typing 100 characters (exact):      median ${fmt(typing.median)}, p95 ${fmt(typing.p95)}`);
    console.log(`Step overhead (PNG observe + click): median ${fmt(step.median)}, p95 ${fmt(step.p95)}`);
    const ok = nutPng <= 50 && ratio >= 5;
    console.log(
      `Targets (capture+encode ≤ 50 ms median, ≥ 5x faster than screenshot-desktop PNG): ${ok ? 'met' : 'NOT met'}`,
    );
    const load = (await import('node:os')).loadavg()[0];
    console.log(
      `(load average ${load.toFixed(1)} on ${(await import('node:os')).cpus().length} cores during the run)`,
    );
  } finally {
    await sd?.close();
    await nut.close();
  }
}

await main();
