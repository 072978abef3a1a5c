// The grading stage of a task: the task's own evaluator on the environment the agent left (it runs the
// postconfig first), its verdict appended to the run. A grader that fails scores 0 with the error kept; a
// postconfig that fails leaves the environment short of the state the metric reads: an environment failure.
import type { RuleVerdict } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Environment } from '../env/environment';
import { PostconfigError } from '../evaluators/grade';
import type { RunWriter } from '../store/run-writer';
import { message, Stop, until, type TaskAttempt } from './attempt';
import type { RunnerParts } from './parts';
import { runSetupPhase } from './prepare';
import type { GradingPlan } from './task-plan';

export interface Graded {
  score: number;
  evalError: string | null;
  verdict: RuleVerdict;
}

/** Grades the attempt and appends the verdict to the run (`verdicts`). */
export async function gradeAttempt(
  a: TaskAttempt,
  env: Environment,
  task: Task,
  parts: Pick<RunnerParts, 'grade' | 'runSetup'>,
  plan: GradingPlan,
  at: { taskKey: string; cacheDir: string; lastAction?: string; verdicts: Pick<RunWriter, 'appendVerdict'> },
): Promise<Graded> {
  const runPostSetup = (steps: Task['postSetup']) =>
    runSetupPhase(
      a,
      parts.runSetup,
      { env, task, downloads: plan.downloads },
      { name: 'postconfig', steps, failure: (e) => e },
    ).finally(() => (a.phase = 'grading'));
  a.phase = 'grading';
  const verdict = await until(
    parts.grade(task, {
      env,
      task,
      cacheDir: at.cacheDir,
      downloads: plan.downloads,
      lastAction: at.lastAction,
      runPostSetup,
      signal: a.signal,
    }),
    a.signal,
  ).catch((e): RuleVerdict => {
    if (e instanceof Stop) throw e;
    if (e instanceof PostconfigError) throw new Stop('env_error', e.message, { cause: e });
    return {
      kind: 'rule',
      score: 0,
      metrics: [],
      error: `grading failed: ${message(e)}`,
      at: new Date().toISOString(),
    };
  });
  a.step = 0; // incidents from here on are the grading's
  a.noteIncidents();
  at.verdicts.appendVerdict(at.taskKey, verdict);
  return {
    score: Number.isFinite(verdict.score) ? verdict.score : 0,
    evalError: verdict.error ?? null,
    verdict,
  };
}
