// `npx tsx bench/export.ts`: `proctor export html` of a 500-task × 20-step run (synthetic, real PNGs written by the
// store; BENCH_TASKS / BENCH_STEPS to change it) beside `cp -r` of the same run folder as the baseline, in the same
// run. The site is written twice: as a user gets it (files hard-linked on the same filesystem) and with --copy
// (every file copied, as across filesystems). Goal: under 2× the copy.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main as proctor } from '../src/main/cli/main';
import { ensureUiBuilt } from '../src/main/server/ui-build';
import { writeSyntheticRun } from '../e2e/support/synthetic-run';

const tasks = Number(process.env.BENCH_TASKS ?? 500);
const steps = Number(process.env.BENCH_STEPS ?? 20);

async function timed(f: () => unknown): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

async function exportHtml(runs: string, out: string, extra: string[] = []): Promise<string[]> {
  const lines: string[] = [];
  const code = await proctor(['export', 'html', runs, '--out', out, ...extra], { out: (l) => lines.push(l), err: () => undefined });
  if (code !== 0) throw new Error(`export html failed: ${lines.join('\n')}`);
  return lines;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'proctor-bench-export-'));
  try {
    process.stderr.write(`writing a ${tasks}-task × ${steps}-step run…\n`);
    const runs = join(tmp, 'runs');
    const made = await timed(() => writeSyntheticRun({ out: runs, tasks, steps }));
    const files = Number(execFileSync('sh', ['-c', `find '${runs}' -type f | wc -l`], { encoding: 'utf8' }).trim());
    const bytes = Number(execFileSync('du', ['-sb', runs], { encoding: 'utf8' }).split('\t')[0]);
    await ensureUiBuilt((l) => process.stderr.write(l + '\n'));
    // Warm: the first export also loads Proctor's modules, which a CLI call pays once.
    await exportHtml(runs, join(tmp, 'warm'));
    execFileSync('sync');
    const cpS = await timed(() => execFileSync('cp', ['-r', runs, join(tmp, 'copy')]));
    execFileSync('sync');
    let printed: string[] = [];
    const siteS = await timed(async () => (printed = await exportHtml(runs, join(tmp, 'site'))));
    execFileSync('sync');
    let copied: string[] = [];
    const copyS = await timed(async () => (copied = await exportHtml(runs, join(tmp, 'site-copy'), ['--copy'])));
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(`run: ${tasks} tasks × ${steps} steps, ${files} files, ${mb(bytes)} (written in ${made.toFixed(1)} s)`);
    console.log(`cp -r (baseline)             ${cpS.toFixed(2)} s`);
    console.log(`proctor export html          ${siteS.toFixed(2)} s   (${(siteS / cpS).toFixed(2)}× the baseline)   ${printed[0]}`);
    console.log(`proctor export html --copy   ${copyS.toFixed(2)} s   (${(copyS / cpS).toFixed(2)}× the baseline)   ${copied[0]}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
