// Judging a whole run: every finished task, N at a time, with progress and the tokens and cost spent.
import { readRun } from '../store';
import { judgeTask, type JudgeOptions, type StoredJudgeVerdict } from './judge';

export interface JudgeRunOptions extends JudgeOptions {
  /** Tasks judged at once (default 2). */
  concurrency?: number;
  /** Only these task keys (default: every task of the run). */
  tasks?: string[];
  onProgress?: (progress: {
    done: number;
    total: number;
    taskKey: string;
    verdict: StoredJudgeVerdict;
    reused: boolean;
  }) => void;
}

export interface JudgeRunResult {
  outcomes: { taskKey: string; verdict: StoredJudgeVerdict; reused: boolean }[];
  /** Tasks not judged because they have not finished (pending / running). */
  skipped: { taskKey: string; why: string }[];
  tokens: { prompt: number; completion: number };
  /** Undefined when a price was unknown for some request. */
  costUsd?: number;
}

export async function judgeRun(runDir: string, options: JudgeRunOptions): Promise<JudgeRunResult> {
  const run = readRun(runDir);
  const wanted = options.tasks ? new Set(options.tasks) : undefined;
  const unknown = options.tasks?.filter((k) => !run.tasks.some((t) => t.key === k)) ?? [];
  if (unknown.length)
    throw new Error(`${runDir}: no task ${unknown.map((k) => `'${k}'`).join(', ')} in this run`);
  const skipped: JudgeRunResult['skipped'] = [];
  const queue: string[] = [];
  for (const t of run.tasks) {
    if (wanted && !wanted.has(t.key)) continue;
    if (t.state === 'pending' || t.state === 'running')
      skipped.push({ taskKey: t.key, why: `not finished (${t.state})` });
    else queue.push(t.key);
  }
  const outcomes: JudgeRunResult['outcomes'] = [];
  const tokens = { prompt: 0, completion: 0 };
  let cost: number | undefined = 0;
  const total = queue.length;
  const worker = async () => {
    for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
      if (options.signal?.aborted) return;
      const { verdict, reused } = await judgeTask(runDir, key, options);
      outcomes.push({ taskKey: key, verdict, reused });
      if (!reused) {
        tokens.prompt += verdict.tokens?.prompt ?? 0;
        tokens.completion += verdict.tokens?.completion ?? 0;
        cost =
          cost === undefined || (verdict.costUsd === undefined && verdict.tokens)
            ? undefined
            : cost + (verdict.costUsd ?? 0);
      }
      options.onProgress?.({ done: outcomes.length, total, taskKey: key, verdict, reused });
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 2, total || 1)) }, worker),
  );
  return { outcomes, skipped, tokens, costUsd: cost };
}
