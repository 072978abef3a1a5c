// `npx tsx bench/report.ts`: the report with statistics (bootstrap intervals overall and per category, app and
// difficulty, per-task pass@k, causes, cost) over 500 tasks × 5 attempts beside the plain report, in one run.
// Target: with statistics < 2× the plain report. Measured twice: from rows in memory (the computing alone) and
// from a run folder written through the store (what `proctor report` does: read, compute, format).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunWriter, taskDirFor } from '../src/main/store';
import {
  breakdown,
  formatBreakdown,
  formatRunStats,
  readReportRun,
  runStats,
  type AttemptRow,
} from '../src/main/report';
import type { AttemptCause } from '../src/shared/run';

const TASKS = Number(process.env.BENCH_TASKS ?? 500);
const ATTEMPTS = Number(process.env.BENCH_ATTEMPTS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const dims = ['category', 'app', 'difficulty'] as const;
const apps = ['chromium', 'terminal', 'mousepad', 'sqlite', 'libreoffice'];
const categories = [
  'data_warehousing',
  'data_transformation',
  'data_ingestion_and_integration',
  'data_analysis_and_visualization',
];
const difficulties = ['easy', 'medium', 'hard'] as const;

/** A deterministic mix: task i succeeds on attempt a with a task-specific chance; a few env and grading errors. */
function outcome(i: number, a: number): { cause: AttemptCause; score: number } {
  const h = ((i * 2654435761 + a * 40503) >>> 0) % 1000;
  if (h < 15) return { cause: 'env_error', score: 0 };
  if (h < 20) return { cause: 'grading_error', score: 0 };
  const p = ((i * 7919) % 100) / 100;
  return h / 1000 < p
    ? { cause: 'success', score: 1 }
    : h % 3
      ? { cause: 'agent_failure', score: 0 }
      : { cause: 'step_limit', score: 0 };
}

function memoryRows(): AttemptRow[] {
  const rows: AttemptRow[] = [];
  for (let i = 0; i < TASKS; i++)
    for (let a = 1; a <= ATTEMPTS; a++) {
      const { cause, score } = outcome(i, a);
      rows.push({
        key: `${apps[i % apps.length]}/task-${i}#${a}`,
        domain: apps[i % apps.length],
        taskId: `task-${i}`,
        attempt: a,
        state: cause === 'env_error' ? 'env_error' : cause === 'step_limit' ? 'max_steps_error' : 'success',
        score,
        cause,
        app: apps[i % apps.length],
        category: categories[i % categories.length],
        difficulty: difficulties[i % 3],
        tokens: 1000 + i,
        timingMs: 20_000 + a * 100,
        cost: {
          tokensIn: 900 + i,
          tokensOut: 100,
          usd: 0.002 * (1 + (i % 4)),
          envMs: 5000,
          wallMs: 20_000 + a * 100,
        },
      });
    }
  return rows;
}

/** A run folder of TASKS × ATTEMPTS task folders; each attempt is a task key `<app>/task-N-aK` of its own. */
async function writeRunFolder(out: string): Promise<string> {
  const layout = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'bench' } as const;
  const keys: string[] = [];
  const taskInfo: Record<string, { dir: string; app: string; tags: string[]; actionNumber: number }> = {};
  for (let i = 0; i < TASKS; i++)
    for (let a = 1; a <= ATTEMPTS; a++) {
      const key = `${apps[i % apps.length]}/task-${i}-a${a}`;
      keys.push(key);
      taskInfo[key] = {
        dir: taskDirFor(layout, apps[i % apps.length], `task-${i}-a${a}`),
        app: apps[i % apps.length],
        tags: [categories[i % categories.length]],
        actionNumber: [3, 10, 20][i % 3],
      };
    }
  const run = await RunWriter.create(out, { ...layout, args: [], tasks: keys, taskInfo });
  run.event({ kind: 'run.started', runId: run.runId, at: new Date().toISOString(), tasks: keys });
  for (let i = 0; i < TASKS; i++)
    for (let a = 1; a <= ATTEMPTS; a++) {
      const key = `${apps[i % apps.length]}/task-${i}-a${a}`;
      const { cause, score } = outcome(i, a);
      const state =
        cause === 'env_error' ? 'env_error' : cause === 'step_limit' ? 'max_steps_error' : 'success';
      const tw = run.openTask(key);
      tw.started();
      await tw.finish(state, {
        taskFields: { id: `task-${i}-a${a}` },
        results: {
          score,
          eval_error: null,
          state,
          messages: [],
          total_tokens: 1000,
          total_timing: 20,
          steps: 0,
        },
      });
    }
  run.event({ kind: 'run.finished', runId: run.runId, at: new Date().toISOString() });
  return run.runDir;
}

/** The attempts of a task were written as keys of their own: group them back (task id without `-aK`). */
function regroup(rows: AttemptRow[]): AttemptRow[] {
  for (const r of rows) {
    const m = /^(.*)-a(\d+)$/.exec(r.taskId);
    if (!m) continue;
    r.taskId = m[1];
    r.attempt = Number(m[2]);
  }
  return rows;
}

function median(ms: number[]): number {
  const s = [...ms].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** CPU milliseconds (user + system) since `from`: less moved than wall time by other work on the machine. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(from);
  return (d.user + d.system) / 1000;
};

/** Both variants, alternating round by round so load on the machine hits them alike: median wall and CPU ms. */
async function race(
  plain: () => Promise<unknown> | unknown,
  withStats: () => Promise<unknown> | unknown,
): Promise<[number, number, number, number]> {
  await plain();
  await withStats();
  const a: number[] = [];
  const b: number[] = [];
  const ca: number[] = [];
  const cb: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    let c = process.cpuUsage();
    await plain();
    a.push(performance.now() - t);
    ca.push(cpuMs(c));
    t = performance.now();
    c = process.cpuUsage();
    await withStats();
    b.push(performance.now() - t);
    cb.push(cpuMs(c));
  }
  return [median(a), median(b), median(ca), median(cb)];
}

const line = (name: string, ms: number, cpu: number) =>
  `  ${name.padEnd(34)}${ms.toFixed(1).padStart(9)} ms wall${cpu.toFixed(1).padStart(9)} ms CPU`;

async function main(): Promise<void> {
  const rows = memoryRows();
  const plainReport = (r: AttemptRow[]) => formatBreakdown('bench', breakdown(r, [...dims])).join('\n');
  const statsReport = (r: AttemptRow[], dir: string) =>
    plainReport(r) + formatRunStats(runStats(r, { dims }), dir).join('\n');
  const s = runStats(rows, { dims });
  console.log(
    `${TASKS} tasks × ${ATTEMPTS} attempts; ${ROUNDS} rounds, median; ${s.method}; breakdowns by ${dims.join(', ')}`,
  );
  console.log(
    `  overall ${(s.overall.rate * 100).toFixed(1)} % [${(s.overall.ci.low * 100).toFixed(1)}–${(s.overall.ci.high * 100).toFixed(1)}], ${s.flaky} flaky tasks, ${s.excluded.length} attempts left out`,
  );
  const [mp, ms, mpc, msc] = await race(
    () => plainReport(rows),
    () => statsReport(rows, 'bench'),
  );
  console.log('From rows in memory (computing and formatting only):');
  console.log(line('plain report (baseline)', mp, mpc));
  console.log(
    line('report with statistics', ms, msc) +
      `  ${(ms / mp).toFixed(2)}× wall, ${(msc / mpc).toFixed(2)}× CPU`,
  );
  const out = mkdtempSync(join(tmpdir(), 'proctor-bench-report-'));
  try {
    const t = performance.now();
    const dir = await writeRunFolder(out);
    console.log(
      `From a run folder (${TASKS * ATTEMPTS} attempt folders written in ${((performance.now() - t) / 1000).toFixed(1)} s; read, compute, format — what proctor report does):`,
    );
    const [dp, ds, dpc, dsc] = await race(
      async () => plainReport((await readReportRun(dir)).rows),
      async () => statsReport(regroup((await readReportRun(dir)).rows), dir),
    );
    console.log(line('plain report (baseline)', dp, dpc));
    console.log(
      line('report with statistics', ds, dsc) +
        `  ${(ds / dp).toFixed(2)}× wall, ${(dsc / dpc).toFixed(2)}× CPU`,
    );
    console.log(
      `  target: with statistics < 2× the plain report — ${ds < 2 * dp ? 'met' : 'NOT met'} from the folder, ${ms < 2 * mp ? 'met' : 'not met'} in memory`,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

void main();
