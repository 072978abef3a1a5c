// What `proctor dataflow run|instantiate|execute|demo` prints: where each record was filed, problems named with
// their file and place, and the stage timings (time_cost) of every task with their sums.
import { resolve } from 'node:path';
import { shownPath } from '../../text/shown-path';
import { projectRoot } from '../../demo/paths';
import { formatProblem } from '../../tasks/validation';
import { isObject, TIME_KEYS } from './records';
import type { TaskOutcome } from './run';

export const demoTasksDir = resolve(projectRoot, 'resources/dataflow/tasks');

export interface PipelineReport {
  lines: string[];
  json: Record<string, unknown>;
  /** Whether a task could not be read or its record not filed. */
  failed: boolean;
}

const fmt = (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : '—');

export function pipelineReport(outcomes: TaskOutcome[], o: { out: string; seconds: number }): PipelineReport {
  const lines: string[] = [];
  let failed = false;
  const buckets: Record<string, number> = {};
  for (const t of outcomes) {
    for (const p of t.problems) lines.push(formatProblem(p, shownPath(p.file)));
    if (t.route?.status === 'filed') {
      const key = `${t.route.type}/${t.route.bucket}`;
      buckets[key] = (buckets[key] ?? 0) + 1;
      lines.push(
        `${t.uniqueId}: ${key} -> ${shownPath(t.route.target!)}${t.executed ? ` (document: ${shownPath(t.executed)})` : ''}`,
      );
    } else {
      failed = true;
      lines.push(`${t.uniqueId ?? shownPath(t.file)}: not filed`);
    }
  }
  const rows = outcomes.filter((t) => isObject(t.record?.time_cost));
  if (rows.length) {
    const width = Math.max(9, ...rows.map((t) => String(t.uniqueId).length));
    lines.push(
      '',
      `time_cost (s)${' '.repeat(Math.max(1, width - 12))} ${TIME_KEYS.map((k) => k.padStart(k.length > 8 ? k.length : 8)).join(' ')}`,
    );
    const sums = Object.fromEntries(TIME_KEYS.map((k) => [k, 0]));
    for (const t of rows) {
      const time = t.record!.time_cost as Record<string, unknown>;
      for (const k of TIME_KEYS) if (typeof time[k] === 'number') sums[k] += time[k] as number;
      lines.push(
        `${String(t.uniqueId).padEnd(width)} ${TIME_KEYS.map((k) => fmt(time[k]).padStart(k.length > 8 ? k.length : 8)).join(' ')}`,
      );
    }
    lines.push(
      `${'sum'.padEnd(width)} ${TIME_KEYS.map((k) => fmt(Math.round(sums[k] * 1000) / 1000).padStart(k.length > 8 ? k.length : 8)).join(' ')}`,
    );
  }
  const summary = Object.entries(buckets)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
  lines.push(
    '',
    `${outcomes.length} tasks in ${o.seconds.toFixed(1)} s: ${summary || 'none filed'}`,
    `Open it: proctor serve ${shownPath(resolve(o.out))}`,
  );
  return {
    lines,
    failed,
    json: {
      out: resolve(o.out),
      seconds: o.seconds,
      tasks: outcomes.map((t) => ({
        file: t.file,
        uniqueId: t.uniqueId,
        type: t.route?.type,
        bucket: t.route?.bucket,
        target: t.route?.target,
        executed: t.executed,
        time_cost: t.record?.time_cost,
        problems: t.problems,
      })),
      buckets,
    },
  };
}
