// `npx tsx bench/labels.ts`: opening the agreement view (labels.agreement, as the UI calls it) over 500 runs,
// 3 people labelling each and 20,000 step labels, beside opening the run list (runs.list) as the baseline.
// Target: agreement view < 1 s (median). Run folders are OSWorld result folders written to a temp folder.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWorkbench } from '../src/main/workbench/workbench';

const RUNS = Number(process.env.BENCH_RUNS ?? 500);
const STEP_LABELS = Number(process.env.BENCH_STEP_LABELS ?? 20000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const people = ['ann', 'bob', 'cyd'];
const answers = ['yes', 'no', 'unsure'] as const;

function write(root: string): void {
  const stepsPerRun = Math.ceil(STEP_LABELS / RUNS);
  for (let r = 0; r < RUNS; r++) {
    const task = join(
      root,
      `run-${String(r).padStart(4, '0')}`,
      ['chrome', 'gimp', 'vlc', 'os'][r % 4],
      `task-${r}`,
    );
    mkdirSync(task, { recursive: true });
    writeFileSync(join(task, 'result.txt'), `${r % 3 === 0 ? 1 : 0}\n`);
    writeFileSync(
      join(task, 'traj.jsonl'),
      JSON.stringify({
        step_num: 1,
        action_timestamp: '20261122@100000',
        action: 'DONE',
        reward: 0,
        done: true,
      }) + '\n',
    );
    const lines: string[] = [];
    people.forEach((p, i) => {
      const complete = answers[(r * 7 + i * (r % 5 === 0 ? 1 : 0)) % 3];
      lines.push(
        JSON.stringify({
          kind: 'human',
          author: p,
          complete,
          seen: 'blind',
          at: new Date(Date.UTC(2026, 10, 22, 10, 0, r % 60, i)).toISOString(),
        }),
      );
    });
    for (let s = 0; s < stepsPerRun; s++) {
      const p = people[s % 3];
      const mark = (['right', 'wrong', 'unnecessary'] as const)[(r + s) % 3];
      lines.push(
        JSON.stringify({
          kind: 'human',
          author: p,
          steps: [{ step: 1 + Math.floor(s / 3), correct: mark === 'right', mark }],
          at: '2026-11-22T10:00:00.000Z',
        }),
      );
    }
    appendFileSync(join(task, 'verdicts.jsonl'), lines.join('\n') + '\n');
  }
}

function stats(ms: number[]): { median: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
}

async function time(f: () => Promise<unknown>): Promise<{ median: number; max: number }> {
  await f();
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await f();
    out.push(performance.now() - t);
  }
  return stats(out);
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'proctor-bench-labels-'));
  try {
    write(root);
    const wb = createWorkbench(root, { transport: 'http' });
    try {
      const list = await time(() => wb.handlers['runs.list']({}));
      const agreement = await time(() => wb.handlers['labels.agreement']({}));
      const conflicts = await time(() => wb.handlers['labels.conflicts']({}));
      const a = await wb.handlers['labels.agreement']({});
      console.log(
        `${RUNS} runs × ${people.length} people, ${STEP_LABELS} step labels; ${ROUNDS} rounds (median / max):`,
      );
      console.log(
        `  runs.list (baseline)    ${list.median.toFixed(0).padStart(6)} ms ${list.max.toFixed(0).padStart(6)} ms`,
      );
      console.log(
        `  labels.agreement        ${agreement.median.toFixed(0).padStart(6)} ms ${agreement.max.toFixed(0).padStart(6)} ms  (alpha ${a.alpha?.toFixed(3)}, ${a.items} items)`,
      );
      console.log(
        `  labels.conflicts        ${conflicts.median.toFixed(0).padStart(6)} ms ${conflicts.max.toFixed(0).padStart(6)} ms`,
      );
      console.log(
        `  target: agreement < 1000 ms — ${agreement.median < 1000 ? 'met' : 'NOT met'} (${(agreement.median / Math.max(1, list.median)).toFixed(1)}× the run list)`,
      );
    } finally {
      await wb.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
