// `npx tsx bench/bundle.ts`: `proctor bundle` and `proctor verify` on a real run (the demo's Chromium and terminal
// tasks run by the oracle on sandbox displays, or BENCH_RUN=<run folder>), beside `tar -czf` / `tar -xzf` of the
// same folder as the baseline, in the same run. Bundling also hashes, probes app versions and writes the report;
// verifying also re-hashes and re-grades every task.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main as proctor } from '../src/main/cli/main';
import { projectRoot } from '../src/main/demo/paths';

const quiet = { out: () => undefined, err: (l: string) => process.stderr.write(l + '\n') };

function demoRun(out: string): string {
  const tasks = ['resources/demo/chromium/d88f645c-b93d-4da3-8636-683046aaf745', 'resources/demo/terminal'];
  const r = spawnSync(
    process.execPath,
    [
      resolve(projectRoot, 'bin/proctor.mjs'),
      'run',
      ...tasks,
      '--agent',
      'oracle',
      '--observation',
      'som',
      '--out',
      out,
    ],
    { cwd: projectRoot, encoding: 'utf8' },
  );
  const m = /^run folder: (.+)$/m.exec(r.stdout);
  if (r.status !== 0 || !m) throw new Error(`the demo run failed: ${r.stdout}\n${r.stderr}`);
  return resolve(projectRoot, m[1]);
}

async function timed(f: () => unknown): Promise<number> {
  const t = performance.now();
  await f();
  return (performance.now() - t) / 1000;
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'proctor-bench-bundle-'));
  try {
    const run = process.env.BENCH_RUN ? resolve(process.env.BENCH_RUN) : demoRun(join(tmp, 'runs'));
    const files = Number(
      execFileSync('sh', ['-c', `find '${run}' -type f | wc -l`], { encoding: 'utf8' }).trim(),
    );
    const bytes = Number(execFileSync('du', ['-sb', run], { encoding: 'utf8' }).split('\t')[0]);
    const tarFile = join(tmp, 'copy.tar.gz');
    const tarS = await timed(() =>
      execFileSync('tar', ['-czf', tarFile, '-C', resolve(run, '..'), run.split('/').pop()!]),
    );
    const untar = join(tmp, 'untar');
    mkdirSync(untar);
    const untarS = await timed(() => execFileSync('tar', ['-xzf', tarFile, '-C', untar]));
    const bundle = join(tmp, 'run.proctor.tar.gz');
    // the first bundle also loads Proctor's modules (report, grading): timed apart, as a CLI call pays it
    const coldS = await timed(async () => {
      if ((await proctor(['bundle', run, '--out', join(tmp, 'cold.tar.gz')], quiet)) !== 0)
        throw new Error('bundle failed');
    });
    const bundleS = await timed(async () => {
      if ((await proctor(['bundle', run, '--out', bundle], quiet)) !== 0) throw new Error('bundle failed');
    });
    const verifyS = await timed(async () => {
      if ((await proctor(['verify', bundle], quiet)) !== 0) throw new Error('verify failed');
    });
    const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
    console.log(`run: ${run}\n  ${files} files, ${mb(bytes)}`);
    console.log(`tar -czf (baseline)  ${tarS.toFixed(2)} s   ${mb(statSync(tarFile).size)}`);
    console.log(
      `proctor bundle       ${bundleS.toFixed(2)} s   ${mb(statSync(bundle).size)}   (${(bundleS / tarS).toFixed(1)}× the baseline)`,
    );
    console.log(
      `  (first call, loading Proctor's modules: ${coldS.toFixed(2)} s; of either, ~1 s asks the applications their versions)`,
    );
    console.log(`tar -xzf (baseline)  ${untarS.toFixed(2)} s`);
    console.log(
      `proctor verify       ${verifyS.toFixed(2)} s   (${(verifyS / untarS).toFixed(1)}× the baseline; re-hashes and re-grades)`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

void main();
