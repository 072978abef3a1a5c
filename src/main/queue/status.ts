// What `proctor queue status` shows: the jobs by state (of one run or all), how many were retried, each
// worker's share, the rate over the last minutes and the ETA, and a progress bar; `--watch` redraws it.
import { Queue, type Job } from 'bullmq';
import { formatDuration } from '../runner/progress';
import { parseQueueUrl, QUEUE_NAME } from './connection';
import type { JobResult } from './worker';
import type { QueueStatus } from '../../shared/queue';

export type { QueueStatus } from '../../shared/queue';

const STATES = ['waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed'] as const;

function progressStep(job: Job): number | undefined {
  const p = job.progress as unknown;
  if (typeof p === 'object' && p !== null && typeof (p as { step?: unknown }).step === 'number')
    return (p as { step: number }).step;
  return undefined;
}

/** Reads the queue (every job of `runId`, or of all runs). */
export async function queueStatus(
  url: string,
  options: { runId?: string; now?: number } = {},
): Promise<QueueStatus> {
  const target = parseQueueUrl(url);
  const queue = new Queue(QUEUE_NAME, { connection: target.options });
  try {
    const byState = new Map<string, Job[]>();
    for (const s of STATES) {
      const jobs = (await queue.getJobs([s], 0, -1)).filter(
        (j): j is Job => !!j && (!options.runId || (j.data as { runId?: string }).runId === options.runId),
      );
      byState.set(s, jobs);
    }
    const get = (s: (typeof STATES)[number]) => byState.get(s) ?? [];
    const all = [...byState.values()].flat();
    const clients = await queue.getWorkers().catch(() => []);
    const workersOnline = [
      ...new Set(clients.map((c) => (c.rawname ?? '').split(':w:')[1]).filter((n): n is string => !!n)),
    ].sort();
    const per = new Map<string, { active: number; done: number }>();
    const slot = (n: string) => per.get(n) ?? per.set(n, { active: 0, done: 0 }).get(n)!;
    for (const w of workersOnline) slot(w);
    for (const j of get('active')) if (j.processedBy) slot(j.processedBy).active++;
    for (const j of get('completed')) {
      const w = (j.returnvalue as JobResult | undefined)?.worker ?? j.processedBy;
      if (w) slot(w).done++;
    }
    const finished = [...get('completed'), ...get('failed')];
    const now = options.now ?? Date.now();
    const firstStart = Math.min(...all.map((j) => j.processedOn ?? Infinity));
    const windowStart = Math.max(now - 10 * 60_000, Number.isFinite(firstStart) ? firstStart : now);
    const recent = finished.filter((j) => (j.finishedOn ?? 0) >= windowStart).length;
    const perMinute = now > windowStart && recent > 0 ? recent / ((now - windowStart) / 60_000) : undefined;
    const left =
      get('waiting').length + get('prioritized').length + get('active').length + get('delayed').length;
    return {
      queue: target.shown,
      ...(options.runId ? { runId: options.runId } : {}),
      waiting: get('waiting').length + get('prioritized').length,
      active: get('active').length,
      delayed: get('delayed').length,
      done: get('completed').length,
      failed: get('failed').length,
      // attemptsMade counts finished attempts (a success too); a job waiting or delayed after one is being retried
      retried: all.filter(
        (j) =>
          (j.attemptsStarted ?? 0) > 1 ||
          (j.stalledCounter ?? 0) > 0 ||
          (j.attemptsMade > 0 && !j.finishedOn),
      ).length,
      total: all.length,
      workersOnline,
      perWorker: [...per].map(([name, v]) => ({ name, ...v })).sort((a, b) => a.name.localeCompare(b.name)),
      running: get('active').map((j) => ({
        taskKey: j.name,
        step: progressStep(j),
        worker: j.processedBy,
        attempt: Math.max(1, j.attemptsStarted ?? 1),
      })),
      failures: get('failed').map((j) => ({
        taskKey: j.name,
        reason: (j.failedReason ?? '').split('\n')[0],
      })),
      ...(perMinute !== undefined
        ? { perMinute, ...(left ? { etaMs: Math.round((left / perMinute) * 60_000) } : {}) }
        : {}),
    };
  } finally {
    await queue.close();
  }
}

export function progressBar(done: number, total: number, width = 30): string {
  const f = total ? Math.round((done / total) * width) : 0;
  return `[${'#'.repeat(f)}${'.'.repeat(width - f)}]`;
}

/** The status as lines for the terminal. */
export function statusLines(s: QueueStatus): string[] {
  const settled = s.done + s.failed;
  const lines = [
    `queue ${s.queue}${s.runId ? `, run ${s.runId}` : ''}`,
    `${progressBar(settled, s.total)} ${settled}/${s.total} settled (${s.total ? Math.round((settled / s.total) * 100) : 0}%)`,
    `waiting ${s.waiting}  active ${s.active}  delayed ${s.delayed}  done ${s.done}  failed ${s.failed}  retried ${s.retried}`,
    s.perMinute !== undefined
      ? `rate ${s.perMinute.toFixed(1)} task(s)/min${s.etaMs !== undefined ? `, ETA ${formatDuration(s.etaMs)}` : ''}`
      : 'rate: nothing finished yet',
    `workers: ${s.workersOnline.length} online`,
    ...s.perWorker.map(
      (w) =>
        `  ${w.name.padEnd(28)} active ${w.active}  done ${w.done}${s.workersOnline.includes(w.name) ? '' : '  (gone)'}`,
    ),
  ];
  if (s.running.length)
    lines.push(
      'running:',
      ...s.running.map(
        (r) =>
          `  ${r.taskKey}  step ${r.step ?? 0}${r.attempt > 1 ? `  attempt ${r.attempt}` : ''}${r.worker ? `  on ${r.worker}` : ''}`,
      ),
    );
  if (s.failures.length)
    lines.push('failed:', ...s.failures.slice(0, 20).map((f) => `  ${f.taskKey}  ${f.reason.slice(0, 140)}`));
  return lines;
}
