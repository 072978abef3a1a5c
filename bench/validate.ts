// Validation benchmark: task files validated per second with the compiled validators (read + parse + detect +
// schema + checks beyond the schema), beside the cost of only reading and parsing the same files, in one run.
// Run: npx tsx bench/validate.ts [paths…]   (default: the Spider2-V and native fixtures, full set if beside the clone)
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expandPaths } from '../src/main/tasks/files';
import { detectFileKind, taskKinds } from '../src/main/tasks/kind';
import { lintTask } from '../src/main/tasks/lint';
import { validatorFor, type SchemaKind } from '../src/main/schemas';
import { repoFixtures, sharedFixtures } from '../src/main/testing/shared-fixtures';

const fixtureSet = sharedFixtures() ?? repoFixtures;
const defaults = [fixtureSet.spider2vExamples, fixtureSet.seedExamples];
const paths = (process.argv.length > 2 ? process.argv.slice(2) : defaults).map((p) => resolve(p));
const { files: all } = await expandPaths(paths);
const files = all.filter((f) => f.endsWith('.json'));
if (files.length === 0) {
  console.error(`no JSON files under ${paths.join(', ')}`);
  process.exit(1);
}

async function readAndParse(): Promise<number> {
  let n = 0;
  for (const f of files) {
    JSON.parse(await readFile(f, 'utf8'));
    n++;
  }
  return n;
}

async function readParseValidate(): Promise<number> {
  let n = 0;
  for (const f of files) {
    const json = JSON.parse(await readFile(f, 'utf8'));
    const kind = detectFileKind(f, json);
    if (kind === 'unknown') continue;
    const ok = validatorFor(kind as SchemaKind)(json);
    if (ok && taskKinds.has(kind)) lintTask(json as Record<string, unknown>, kind, f);
    n++;
  }
  return n;
}

async function rate(fn: () => Promise<number>, rounds: number): Promise<{ perSecond: number; ms: number }> {
  const start = process.hrtime.bigint();
  let n = 0;
  for (let i = 0; i < rounds; i++) n += await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  return { perSecond: (n / ms) * 1000, ms };
}

// Compile the validators and warm the file cache and JIT before measuring.
await readParseValidate();
await readAndParse();
// Interleave the two measurements so neither gains from running second (warmer caches, later JIT tiers), and
// report medians: on a busy machine single rounds swing widely.
const rounds = Math.max(5, Math.round(5000 / files.length));
const baseMs: number[] = [];
const fullMs: number[] = [];
for (let i = 0; i < rounds; i++) {
  baseMs.push((await rate(readAndParse, 1)).ms);
  fullMs.push((await rate(readParseValidate, 1)).ms);
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = { ms: median(baseMs), perSecond: (files.length / median(baseMs)) * 1000 };
const full = { ms: median(fullMs), perSecond: (files.length / median(fullMs)) * 1000 };
const fmt = (x: number): string => x.toFixed(0).padStart(8);
console.log(`${files.length} JSON files, median of ${rounds} interleaved rounds`);
console.log(
  `read + parse only:              ${fmt(base.perSecond)} files/s  (${base.ms.toFixed(0)} ms per round)`,
);
console.log(
  `read + parse + validate:        ${fmt(full.perSecond)} files/s  (${full.ms.toFixed(0)} ms per round)`,
);
console.log(
  `validation cost over parsing:   ${(base.perSecond / full.perSecond).toFixed(2)}x the time of reading and parsing alone`,
);
