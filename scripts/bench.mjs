#!/usr/bin/env node
// `npm run bench [-- name… | --list]`: runs the benchmarks under bench/ one after the other (each prints its figures
// beside a baseline measured in the same run), or only the ones named. Files other benchmarks import are parts.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const benchDir = join(root, 'bench');

/** Every bench/*.ts that no other bench file imports, with the first line of its header comment. */
export function listBenchmarks() {
  const files = readdirSync(benchDir)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const sources = new Map(files.map((f) => [f, readFileSync(join(benchDir, f), 'utf8')]));
  const imported = new Set();
  for (const text of sources.values()) {
    for (const m of text.matchAll(/from '\.\/([\w.-]+?)(?:\.ts)?'/g)) imported.add(`${m[1]}.ts`);
  }
  return files
    .filter((f) => !imported.has(f))
    .map((f) => ({
      name: f.replace(/\.ts$/, ''),
      about: (sources.get(f).split('\n')[0] ?? '').replace(/^\/\/\s*/, ''),
    }));
}

function main(argv) {
  const benches = listBenchmarks();
  if (argv.includes('--list') || argv.includes('--help')) {
    process.stdout.write('Benchmarks (npm run bench -- <name…>; no name runs them all):\n');
    for (const b of benches) process.stdout.write(`  ${b.name.padEnd(10)} ${b.about}\n`);
    return 0;
  }
  const unknown = argv.filter((a) => !benches.some((b) => b.name === a));
  if (unknown.length) {
    process.stderr.write(
      `unknown benchmark ${unknown.map((u) => `'${u}'`).join(', ')}: the benchmarks are ${benches.map((b) => b.name).join(', ')} (npm run bench -- --list)\n`,
    );
    return 2;
  }
  const chosen = argv.length ? benches.filter((b) => argv.includes(b.name)) : benches;
  const failed = [];
  for (const b of chosen) {
    process.stdout.write(`\n▶ bench/${b.name}.ts\n`);
    const t0 = Date.now();
    const r = spawnSync('npx', ['tsx', join('bench', `${b.name}.ts`)], {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    });
    const ok = r.status === 0;
    if (!ok) failed.push(b.name);
    process.stdout.write(
      `◀ bench/${b.name}.ts: ${ok ? 'ok' : `FAILED (exit ${r.status ?? r.signal})`} (${((Date.now() - t0) / 1000).toFixed(1)} s)\n`,
    );
  }
  process.stdout.write(
    `\nbenchmarks: ${chosen.length - failed.length} ran, ${failed.length} failed${failed.length ? ` (${failed.join(', ')})` : ''}\n`,
  );
  return failed.length ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exit(main(process.argv.slice(2)));
