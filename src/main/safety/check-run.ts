// The rule detectors over every task of a run folder Proctor reads (its own, OSWorld's and forks', Spider2-V's,
// UFO's): the task's declaration from the task file the run names (or from the tasks given), one safety verdict
// per task, appended to the task's verdicts.jsonl like the other verdicts when asked.
import { existsSync } from 'node:fs';
import type { SafetyVerdict, Verdict } from '../../shared/run';
import type { Problem, Task } from '../../shared/task';
import { appendVerdict, readRun, readTaskTrajectory } from '../store';
import { readTaskFile } from '../tasks';
import type { TaskInfo } from './context';
import { checkTrajectory, type CheckOptions } from './registry';
import { judgeSafety, type SafetyJudgeOptions } from './judge';

export interface TaskSafetyResult {
  taskKey: string;
  taskId: string;
  domain: string;
  steps: number;
  /** The task's score (rule, as the table shows it), for the "completed and safe" figure. */
  score?: number;
  verdict: SafetyVerdict;
  /** Where the task's declaration came from, if any. */
  taskFile?: string;
  /** The verdict was appended to the task's verdicts.jsonl (false: not asked, or the latest said the same). */
  stored: boolean;
  /** The safety judge's verdict, with `judge`. */
  judge?: SafetyVerdict;
}

export interface RunSafetyResult {
  runDir: string;
  runId: string;
  format: string;
  tasks: TaskSafetyResult[];
  problems: Problem[];
}

export interface CheckRunOptions extends CheckOptions {
  /** Tasks to take declarations, instructions and setup from (matched by id), for runs that do not name their task files. */
  tasks?: readonly Task[];
  /** Append each verdict to the task's verdicts.jsonl unless its latest rule safety verdict says the same (default false). */
  write?: boolean;
  /** Also ask the safety judge (an OpenAI-compatible model), shown what the rules found; its verdict is appended too. */
  judge?: SafetyJudgeOptions;
}

/** Whether `v` says what the task's latest rule safety verdict already says (same detectors, findings, declaration). */
export function sameAsStored(stored: readonly Verdict[], v: SafetyVerdict): boolean {
  const last = stored.filter((s): s is SafetyVerdict => s.kind === 'safety' && s.by === 'rule').at(-1);
  if (!last) return false;
  const key = (x: SafetyVerdict) =>
    JSON.stringify([
      x.verdict,
      x.findings,
      x.detectors,
      x.provenance?.source,
      x.provenance?.taskFile ?? null,
    ]);
  return key(last) === key(v);
}

const fromTask = (t: Task): TaskInfo => ({
  instruction: t.instruction,
  safety: t.safety,
  setup: t.setup,
  file: t.file,
});

/** Safety verdicts for every task of one run folder. A task whose trajectory cannot be read is a problem, not a crash. */
export async function checkRun(runDir: string, options: CheckRunOptions = {}): Promise<RunSafetyResult> {
  const detail = readRun(runDir);
  const problems: Problem[] = [...detail.problems.filter((p) => p.severity === 'error')];
  const manifestInfo = (detail.manifest as { taskInfo?: Record<string, { file?: string }> }).taskInfo ?? {};
  const byId = new Map<string, Task>();
  for (const t of options.tasks ?? []) byId.set(t.id, t);
  const read = new Map<string, Promise<Task | undefined>>();
  const taskFile = (file: string) => {
    if (!read.has(file))
      read.set(
        file,
        readTaskFile(file).then((r) => {
          problems.push(...r.problems.filter((p) => p.severity === 'error'));
          return r.task;
        }),
      );
    return read.get(file)!;
  };
  const tasks: TaskSafetyResult[] = [];
  for (const item of detail.tasks) {
    let traj;
    try {
      traj = readTaskTrajectory(runDir, item.key);
    } catch (e) {
      problems.push({
        file: runDir,
        severity: 'error',
        message: `task ${item.key}: ${(e as Error).message}`,
      });
      continue;
    }
    const file = manifestInfo[item.key]?.file;
    const task =
      byId.get(item.taskId) ??
      byId.get(item.domain) ??
      (file && existsSync(file) ? await taskFile(file) : undefined);
    const info: TaskInfo = task ? fromTask(task) : {};
    info.instruction = info.instruction || traj.task?.instruction || item.instruction;
    let verdict = checkTrajectory(traj.steps, info, options);
    // A step `--stop-on-unsafe` refused is in the record only as refused: its stored verdict keeps standing.
    const guarded = traj.verdicts.find(
      (v): v is SafetyVerdict =>
        v.kind === 'safety' && v.by === 'rule' && !!v.provenance?.source?.includes('--stop-on-unsafe'),
    );
    if (guarded && verdict.verdict !== 'unsafe') verdict = guarded;
    const stored = !!options.write && !sameAsStored(traj.verdicts, verdict);
    if (stored) appendVerdict(runDir, item.key, verdict);
    const result: TaskSafetyResult = {
      taskKey: item.key,
      taskId: item.taskId,
      domain: item.domain,
      steps: item.steps,
      ...(item.score !== undefined ? { score: item.score } : {}),
      verdict,
      stored,
      ...(task ? { taskFile: task.file } : {}),
    };
    if (options.judge) {
      result.judge = await judgeSafety(runDir, traj.steps, info, verdict.findings, options.judge);
      if (options.write) appendVerdict(runDir, item.key, result.judge);
    }
    tasks.push(result);
  }
  return { runDir, runId: detail.run.runId, format: detail.run.format, tasks, problems };
}
