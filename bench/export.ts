// `npx tsx bench/export.ts`: `proctor export html` of a 500-task × 20-step run (synthetic, real PNGs written by the
// store; BENCH_TASKS / BENCH_STEPS to change it) beside `cp -r` of the same run folder as the baseline, in the same
// run. The site is written twice: as a user gets it (files hard-linked on the same filesystem) and with --copy
// (every file copied, as across filesystems); three rounds (BENCH_ROUNDS), medians. Goal: under 2× the copy.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main as proctor } from '../src/main/cli/main';
import { ensureUiBuilt } from '../src/main/server/ui-build';
import { writeSyntheticRun } from '../e2e/support/synthetic-run';

const tasks = Number(process.env.BENCH_TASKS ?? 500);
const steps = Number(process.env.BENCH_STEPS ?? 20);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

async function timed(f: () => unknown): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

async function exportHtml(runs: string, out: string, extra: string[] = []): Promise<string[]> {
  const lines: string[] = [];
  const code = await proctor(['export', 'html', runs, '--out', out, ...extra], {
    out: (l) => lines.push(l),
    err: () => undefined,
  });
  if (code !== 0) throw new Error(`export html failed: ${lines.join('\n')}`);
  return lines;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'proctor-bench-export-'));
  try {
    process.stderr.write(`writing a ${tasks}-task × ${steps}-step run…\n`);
    const runs = join(tmp, 'runs');
    const made = await timed(() => writeSyntheticRun({ out: runs, tasks, steps }));
    const files = Number(
      execFileSync('sh', ['-c', `find '${runs}' -type f | wc -l`], { encoding: 'utf8' }).trim(),
    );
    const bytes = Number(execFileSync('du', ['-sb', runs], { encoding: 'utf8' }).split('\t')[0]);
    await ensureUiBuilt((l) => process.stderr.write(l + '\n'));
    // Warm: the first export also loads Proctor's modules, which a CLI call pays once.
    await exportHtml(runs, join(tmp, 'warm'));
    // Three rounds, each taking its turn (copy, site, site --copy), on a shared machine: the medians are printed.
    const times: Record<'cp' | 'site' | 'copy', number[]> = { cp: [], site: [], copy: [] };
    let printed: string[] = [];
    let copied: string[] = [];
    for (let round = 0; round < rounds; round++) {
      execFileSync('sync');
      times.cp.push(await timed(() => execFileSync('cp', ['-r', runs, join(tmp, `copy-${round}`)])));
      execFileSync('sync');
      times.site.push(
        await timed(async () => (printed = await exportHtml(runs, join(tmp, `site-${round}`)))),
      );
      execFileSync('sync');
      times.copy.push(
        await timed(
          async () => (copied = await exportHtml(runs, join(tmp, `site-copy-${round}`), ['--copy'])),
        ),
      );
      for (const d of [`copy-${round}`, `site-${round}`, `site-copy-${round}`])
        rmSync(join(tmp, d), { recursive: true, force: true });
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const cpS = median(times.cp);
    const siteS = median(times.site);
    const copyS = median(times.copy);
    const all = (xs: number[]) => `[${xs.map((x) => x.toFixed(2)).join(', ')}]`;
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(
      `run: ${tasks} tasks × ${steps} steps, ${files} files, ${mb(bytes)} (written in ${made.toFixed(1)} s)`,
    );
    console.log(`medians of ${rounds} rounds (each round's times in brackets)`);
    console.log(`cp -r (baseline)             ${cpS.toFixed(2)} s   ${all(times.cp)}`);
    console.log(
      `proctor export html          ${siteS.toFixed(2)} s   (${(siteS / cpS).toFixed(2)}× the baseline)   ${all(times.site)}   ${printed[0]}`,
    );
    console.log(
      `proctor export html --copy   ${copyS.toFixed(2)} s   (${(copyS / cpS).toFixed(2)}× the baseline)   ${all(times.copy)}   ${copied[0]}`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
