// What `proctor run` shows while a run goes on: a live block on a terminal, a line per event elsewhere (CI),
// and the final table with the success rate over every task of the set.
import type { Action, RunEvent, RunTaskItem, TaskState } from '../../shared/run';
import type { RunOutcome } from './scheduler';
import { formatDuration, formatPercent, formatScore } from '../../shared/format';

export { formatDuration };

function actionText(actions: Action[], feedback?: string): string {
  if (feedback) return `refused/failed: ${feedback.split('\n')[0].slice(0, 80)}`;
  if (!actions.length) return '(nothing)';
  return actions.map((a) => a.type).join(', ');
}

const okStates: ReadonlySet<TaskState> = new Set(['success', 'max_steps_error']);

export class ProgressView {
  private readonly running = new Map<string, number>();
  private progress?: Extract<RunEvent, { kind: 'run.progress' }>;
  private drawn = 0;
  private lastDraw = 0;

  constructor(
    private readonly write: (text: string) => void,
    private readonly tty: boolean,
  ) {}

  handle(e: RunEvent): void {
    switch (e.kind) {
      case 'task.started':
        this.running.set(e.taskKey, 0);
        if (!this.tty) this.line(`start  ${e.taskKey}`);
        break;
      case 'task.step':
        this.running.set(e.taskKey, e.step.step);
        if (!this.tty)
          this.line(`step   ${e.taskKey} #${e.step.step}: ${actionText(e.step.actions, e.step.feedback)}`);
        break;
      case 'task.finished':
        this.running.delete(e.taskKey);
        this.line(
          `${okStates.has(e.state) ? 'done' : e.state === 'skipped' ? 'skip' : 'FAIL'}   ${e.taskKey} ${e.state}` +
            `${e.score !== undefined ? ` score ${e.score}` : ''}${e.error ? ` — ${e.error.split('\n')[0].slice(0, 160)}` : ''}`,
          true,
        );
        break;
      case 'run.progress':
        this.progress = e;
        if (!this.tty && e.done > 0)
          this.line(
            `progress ${e.done}/${e.total} done, ${e.running} running, ${e.failed} failed${e.etaMs !== undefined && e.done < e.total ? `, ETA ${formatDuration(e.etaMs)}` : ''}`,
          );
        break;
      case 'run.started':
        this.line(`run ${e.runId}: ${e.tasks.length} task(s)`, true);
        break;
      case 'run.finished':
        this.clear();
        return;
      default:
        break;
    }
    if (this.tty) this.draw(e.kind !== 'task.step');
  }

  private line(text: string, keep = false): void {
    if (!this.tty) {
      this.write(text + '\n');
      return;
    }
    if (!keep) return;
    this.clear();
    this.write(text + '\n');
  }

  private clear(): void {
    if (this.tty && this.drawn) this.write(`\x1b[${this.drawn}F\x1b[J`);
    this.drawn = 0;
  }

  private draw(force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const p = this.progress;
    const lines = [
      p
        ? `[${p.done}/${p.total}] ${p.running} running, ${p.failed} failed` +
          (p.etaMs !== undefined && p.done < p.total ? `, ETA ${formatDuration(p.etaMs)}` : '')
        : 'starting…',
      ...[...this.running].map(([k, step]) => `  ${k}  step ${step}`),
    ];
    this.clear();
    this.write(lines.join('\n') + '\n');
    this.drawn = lines.length;
  }
}

/** Tokens, model cost and time summed over the attempts that recorded them (the model cost only when every one is priced). */
function costLine(tasks: RunTaskItem[]): string[] {
  const costs = tasks.map((t) => t.cost).filter((c) => c !== undefined);
  if (!costs.length) return [];
  const sum = (k: 'tokensIn' | 'tokensOut' | 'envMs' | 'wallMs' | 'usd') =>
    costs.reduce((s, c) => s + (c[k] ?? 0), 0);
  const priced = costs.every((c) => c.usd !== undefined);
  const parts = [
    `tokens ${sum('tokensIn')} in, ${sum('tokensOut')} out`,
    priced
      ? `model cost $${sum('usd').toFixed(4)}`
      : 'model cost unknown (no price for the model: --price MODEL=IN,OUT)',
    `environment ${formatDuration(sum('envMs'))} of ${formatDuration(sum('wallMs'))}`,
  ];
  return [`cost: ${parts.join('; ')}`];
}

/** The final table: one row per task, then the success rate over all tasks and the counts by state. */
export function outcomeTable(outcome: Pick<RunOutcome, 'tasks' | 'successRate' | 'counts'>): string[] {
  const rows = outcome.tasks.map((t: RunTaskItem) => [
    t.key,
    t.state,
    t.cause ?? '-',
    t.score === undefined ? '-' : formatScore(t.score),
    String(t.steps),
    t.timingMs === undefined ? '-' : formatDuration(t.timingMs),
    t.state === 'success' ? '' : (t.error ?? '').split('\n')[0].slice(0, 100),
  ]);
  const head = ['task', 'state', 'cause', 'score', 'steps', 'time', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const total = outcome.tasks.length;
  const successes = outcome.tasks.filter((t) => (t.score ?? 0) >= 1).length;
  const counts = Object.entries(outcome.counts)
    .map(([s, n]) => `${s} ${n}`)
    .join(', ');
  const byCause = new Map<string, number>();
  for (const t of outcome.tasks) if (t.cause) byCause.set(t.cause, (byCause.get(t.cause) ?? 0) + 1);
  const causeCounts = [...byCause].map(([c, n]) => `${c} ${n}`).join(', ');
  const skipped = new Map<string, number>();
  for (const t of outcome.tasks)
    if (t.state === 'skipped')
      skipped.set(t.error ?? 'no reason', (skipped.get(t.error ?? 'no reason') ?? 0) + 1);
  return [
    fmt(head),
    fmt(widths.map((w) => '-'.repeat(w))),
    ...rows.map(fmt),
    '',
    `success rate ${formatPercent(outcome.successRate)} over all ${total} ${outcome.tasks.some((t) => t.attempt !== undefined) ? 'attempt' : 'task'}(s) (${successes} scored 1; ${counts})`,
    ...(causeCounts.length ? [`causes: ${causeCounts}`] : []),
    ...costLine(outcome.tasks),
    ...[...skipped].map(([why, n]) => `skipped ${n}: ${why}`),
  ];
}
