// Throughput of queued runs (BullMQ on a private redis-server) against the in-process scheduler at the same
// parallelism, on the `simulated` environment kind (a latency model, no real machine; throughput only), with
// 1, 4, 16 and 40 slots; the queue's overhead per task, and a projection for a full benchmark from the mean
// task time of a real run folder when one is given.
// `npx tsx bench/queue.ts [--steps N] [--slots 1,4,16,40] [--real-run DIR]`
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { Agent, AgentTurn } from '../src/main/agents/agent';
import { environmentKinds } from '../src/main/env/kinds';
import { defaultParts, type RunnerParts } from '../src/main/runner/parts';
import { runTasks } from '../src/main/runner/scheduler';
import { parseQueueUrl, QUEUE_NAME } from '../src/main/queue/connection';
import { enqueueRun } from '../src/main/queue/enqueue';
import { TestRedis } from '../src/main/queue/testing/redis-server';
import { simulatedKind } from '../src/main/queue/testing/simulated-environment';
import { startQueueWorker, type QueueWorker } from '../src/main/queue/worker';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const steps = Number(arg('--steps', '5'));
const slotsList = arg('--slots', '1,4,16,40').split(',').map(Number);
const realRun = arg('--real-run', '');
const SLOTS_PER_WORKER = 8;

environmentKinds.register('simulated', simulatedKind());

/** Clicks for `steps - 1` steps, then DONE. */
const scripted = (): Agent => ({
  name: 'scripted',
  async start() {},
  async next(_o, step): Promise<AgentTurn> {
    if (step >= steps) return { response: 'DONE', actions: [{ type: 'DONE' }] };
    return { response: 'click', actions: [{ type: 'click', x: 10, y: 10 }] };
  },
});

/** No evaluator work: throughput of the harness and the queue only. */
const parts: Partial<RunnerParts> = {
  grade: async () => ({ kind: 'rule', score: 1, metrics: [], at: new Date().toISOString() }),
};

function writeTasks(root: string, n: number): string {
  const dir = join(root, 'tasks');
  for (let i = 0; i < n; i++) {
    const id = `t${String(i).padStart(4, '0')}`;
    mkdirSync(join(dir, 'sim', id), { recursive: true });
    writeFileSync(
      join(dir, 'sim', id, `${id}.json`),
      JSON.stringify({
        id,
        snapshot: 'os',
        instruction: `simulated task ${id}`,
        source: [],
        related_apps: ['os'],
        config: [],
        evaluation: { func: 'infeasible' },
      }),
    );
  }
  return dir;
}

async function settle(queue: Queue, runId: string, n: number): Promise<void> {
  for (;;) {
    const done = (await queue.getJobs(['completed', 'failed'], 0, -1)).filter(
      (j) => j?.data.runId === runId,
    ).length;
    if (done >= n) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const root = mkdtempSync(join(tmpdir(), 'proctor-bench-queue-'));
const redis = await TestRedis.start();
const queue = new Queue(QUEUE_NAME, { connection: parseQueueUrl(redis.url).options });
const rows: string[][] = [];
try {
  for (const slots of slotsList) {
    const n = Math.max(12, slots * 3);
    const taskDir = writeTasks(join(root, `p${slots}`), n);
    const { tasks } = await (await defaultParts()).loadTasks([taskDir]);
    const common = {
      env: 'simulated',
      screen: { width: 640, height: 400 },
      observation: 'screenshot' as const,
      maxSteps: steps + 1,
    };

    let t0 = performance.now();
    await runTasks(tasks, {
      ...common,
      agent: scripted,
      agentName: 'scripted',
      parallel: slots,
      outDir: join(root, 'inproc'),
      parts,
    });
    const inproc = performance.now() - t0;

    t0 = performance.now();
    const q = await enqueueRun(
      tasks,
      { ...common, agent: 'noop', outDir: join(root, 'queued') },
      { queue: redis.url, name: `bench-${slots}` },
    );
    const enqueueMs = performance.now() - t0;
    const workers: QueueWorker[] = [];
    for (let left = slots; left > 0; left -= SLOTS_PER_WORKER)
      workers.push(
        await startQueueWorker({
          queue: redis.url,
          slots: Math.min(SLOTS_PER_WORKER, left),
          agent: scripted,
          parts,
          name: `bench-${slots}-${workers.length}`,
        }),
      );
    await settle(queue, q.runId, n);
    const queued = performance.now() - t0;
    for (const w of workers) await w.close();
    // Per job: time in the worker beyond the task itself (run folder, task file, lock, commit to Redis).
    const jobs = (await queue.getJobs(['completed'], 0, -1)).filter((j) => j?.data.runId === q.runId);
    const handling = jobs
      .map((j) => {
        const summary = JSON.parse(
          readFileSync(
            join(q.runDir, 'pyautogui/screenshot/noop/sim', j.data.taskKey.split('/')[1], 'summary.json'),
            'utf8',
          ),
        ) as { results: { total_timing: number } };
        return (j.finishedOn ?? 0) - (j.processedOn ?? 0) - summary.results.total_timing * 1000;
      })
      .sort((a, b) => a - b);
    const median = handling[Math.floor(handling.length / 2)] ?? 0;

    const overhead = ((queued - inproc) * slots) / n;
    rows.push([
      String(slots),
      String(n),
      (n / (inproc / 1000)).toFixed(1),
      (n / (queued / 1000)).toFixed(1),
      `${((queued / inproc) * 100).toFixed(0)}%`,
      (enqueueMs / n).toFixed(1),
      median.toFixed(1),
      overhead.toFixed(0),
    ]);
    console.error(
      `slots ${slots}: in-process ${inproc.toFixed(0)} ms, queued ${queued.toFixed(0)} ms for ${n} tasks`,
    );
  }
} finally {
  await queue.close();
  await redis.dispose();
  rmSync(root, { recursive: true, force: true });
}

const head = [
  'slots',
  'tasks',
  'in-process tasks/s',
  'queued tasks/s',
  'queued time',
  'enqueue ms/task',
  'job handling ms',
  'overhead ms/task',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const fmt = (r: string[]) => r.map((c, i) => c.padStart(widths[i])).join('  ');
console.log(
  `queued vs in-process, simulated environment (start 100 ms, action 40 ms, screenshot 20 ms, ±20%), ${steps} steps per task`,
);
console.log(fmt(head));
for (const r of rows) console.log(fmt(r));
console.log(
  "job handling = median per job of (finished − started in the worker) − the task's own time (run folder, task file, lock, commit)",
);
console.log(
  'overhead ms/task = (queued wall − in-process wall) × slots ÷ tasks: what each task costs a slot beyond the in-process scheduler (noisy when the machine is the limit)',
);

/** Mean task time (s) of a real run folder's committed results. */
function meanTaskSeconds(dir: string): { mean: number; n: number } {
  const times: number[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f === 'summary.json') {
        const t = (JSON.parse(readFileSync(p, 'utf8')) as { results?: { total_timing?: number } }).results
          ?.total_timing;
        if (typeof t === 'number') times.push(t);
      }
    }
  };
  walk(dir);
  return { mean: times.reduce((a, b) => a + b, 0) / Math.max(1, times.length), n: times.length };
}

if (realRun && existsSync(realRun)) {
  const { mean, n } = meanTaskSeconds(realRun);
  const lastOverhead = Math.max(0, Number(rows.at(-1)?.[7] ?? 0), Number(rows.at(-1)?.[6] ?? 0)) / 1000;
  const waves = Math.ceil(324 / 40);
  console.log(`real run ${realRun}: ${n} task(s), mean ${mean.toFixed(1)} s per task`);
  console.log(
    `projection: 324 tasks on 40 environments ≈ ${waves} waves × (${mean.toFixed(1)} s + ${lastOverhead.toFixed(2)} s queue overhead) ≈ ${((waves * (mean + lastOverhead)) / 60).toFixed(1)} min`,
  );
}
