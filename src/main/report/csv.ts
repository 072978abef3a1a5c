// The tidy CSV of `proctor report --csv FILE`: one row per attempt of every run, every field in its own column
// (RFC 4180 quoting), for R, pandas and spreadsheets. Empty cell = unknown.
import type { RunStats } from '../../shared/run-stats';
import type { AttemptRow } from './stats';

export interface CsvRun {
  label: string;
  runDir: string;
  rows: readonly AttemptRow[];
  stats: RunStats;
}

export const csvColumns = [
  'run',
  'run_dir',
  'task',
  'key',
  'domain',
  'task_id',
  'attempt',
  'state',
  'score',
  'cause',
  'cause_derived',
  'counted',
  'task_k',
  'task_n',
  'task_flaky',
  'app',
  'category',
  'difficulty',
  'interface',
  'style',
  'account',
  'tokens',
  'tokens_in',
  'tokens_out',
  'usd',
  'env_ms',
  'wall_ms',
  'error',
] as const;

type Cell = string | number | boolean | undefined;

/** One CSV field: quoted when it holds a comma, quote, or line break. */
export function csvField(v: Cell): string {
  if (v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function attemptsCsv(runs: readonly CsvRun[]): string {
  const out = [csvColumns.join(',')];
  for (const run of runs) {
    const byKey = new Map(run.stats.tasks.flatMap((t) => t.attempts.map((a) => [a.key, { t, a }] as const)));
    for (const r of run.rows) {
      const hit = byKey.get(r.key);
      const cells: Record<(typeof csvColumns)[number], Cell> = {
        run: run.label,
        run_dir: run.runDir,
        task: `${r.domain}/${r.taskId}`,
        key: r.key,
        domain: r.domain,
        task_id: r.taskId,
        attempt: hit?.a.attempt,
        state: r.state,
        score: r.score,
        cause: hit?.a.cause,
        cause_derived: hit?.a.cause ? Boolean(hit.a.derived) : undefined,
        counted: hit?.a.counted,
        task_k: hit?.t.k,
        task_n: hit?.t.n,
        task_flaky: hit?.t.flaky,
        app: r.app,
        category: r.category,
        difficulty: r.difficulty,
        interface: r.interface,
        style: r.style,
        account: r.account,
        tokens: r.tokens,
        tokens_in: r.cost?.tokensIn,
        tokens_out: r.cost?.tokensOut,
        usd: r.cost?.usd ?? r.costUsd,
        env_ms: r.cost?.envMs,
        wall_ms: r.cost?.wallMs ?? r.timingMs,
        error: r.error,
      };
      out.push(csvColumns.map((c) => csvField(cells[c])).join(','));
    }
  }
  return out.join('\n') + '\n';
}
