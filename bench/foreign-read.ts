// `npx tsx bench/foreign-read.ts`: reading a harness's output folder of 50 OSWorld runs × 30 steps × 2 lines (the
// run list, one run's task table, one replay), beside the floor of any reader — JSON-parsing the same traj.jsonl
// files — measured in the same run.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRunDirs, listRuns, readRun, readTaskTrajectory } from '../src/main/store';
import { writeManyOsworldRuns } from '../src/main/store/testing/foreign-fixtures';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);

function median(f: () => unknown): number {
  f(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return ms.sort((a, b) => a - b)[Math.floor(ms.length / 2)];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'proctor-bench-foreign-'));
  try {
    const top = await writeManyOsworldRuns(dir, 50, 30, 2);
    const runDirs = findRunDirs(top);
    const trajFiles = runDirs.map((r) => join(r, 'os', readRun(r, top).tasks[0].taskId, 'traj.jsonl'));
    const floor = median(() =>
      trajFiles.forEach((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      ),
    );
    const list = median(() => listRuns(top));
    const table = median(() => readRun(runDirs[0], top));
    const key = readRun(runDirs[0], top).tasks[0].key;
    const replay = median(() => readTaskTrajectory(runDirs[0], key));
    const fmt = (x: number) => `${x.toFixed(1)} ms`;
    console.log(`50 runs × 30 steps × 2 lines (median of ${ROUNDS})`);
    console.log(`  baseline: JSON-parse every traj.jsonl   ${fmt(floor)}`);
    console.log(
      `  runs.list (listRuns of the top folder)  ${fmt(list)}  (${(list / floor).toFixed(1)}× the baseline)`,
    );
    console.log(`  runs.get (one run's task table)         ${fmt(table)}`);
    console.log(`  runs.task (one replay, 60 entries)      ${fmt(replay)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
