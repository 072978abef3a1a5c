// Cross-validation evidence for check (d), "a correct run scores 1": a stored run of the task (the oracle's, or
// a person's demonstration) is replayed step by step on a fresh environment — its recorded actions performed
// again after the task's setup — each step's screen compared with the stored one, and the result graded again.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Action } from '../../shared/run';
import type { Task } from '../../shared/task';
import type { Environment } from '../env/environment';
import { createLocalEnvironment } from '../env/local';
import { gradeTask } from '../evaluators/grade';
import { runSetupSteps } from '../setup';
import { readTaskTrajectory } from '../store';
import { pixelDiff } from './reset-check';

export interface ReplayStep {
  step: number;
  /** Share of the screen after the action that differs from the stored one (undefined: nothing stored). */
  differingShare?: number;
  heatMap?: Buffer;
}

export interface ReplayCheck {
  /** The stored run's score and the replay's. */
  storedScore?: number;
  score: number;
  steps: ReplayStep[];
  reason: string;
}

export interface ReplayCheckOptions {
  width?: number;
  height?: number;
  /** Wait after each step before its screenshot. Default 500 ms. */
  settleMs?: number;
  tolerance?: number;
  createEnvironment?: (r: { width: number; height: number; home: string }) => Promise<Environment>;
}

const tokens = new Set(['DONE', 'FAIL', 'WAIT']);

/** Replays `taskKey` of run folder `runDir` on a fresh environment and grades it again. */
export async function checkReplay(
  task: Task,
  runDir: string,
  taskKey: string,
  opts: ReplayCheckOptions = {},
): Promise<ReplayCheck> {
  const traj = readTaskTrajectory(runDir, taskKey);
  const first = traj.steps.find((s) => s.screen)?.screen;
  const width = opts.width ?? first?.width ?? 1280;
  const height = opts.height ?? first?.height ?? 800;
  const home = await mkdtemp(join(tmpdir(), 'proctor-replay-'));
  const cacheDir = await mkdtemp(join(tmpdir(), 'proctor-replay-grade-'));
  const create =
    opts.createEnvironment ??
    ((r) =>
      createLocalEnvironment({ width: r.width, height: r.height, home: r.home, notify: () => undefined }));
  const env = await create({ width, height, home });
  const steps: ReplayStep[] = [];
  let lastAction: string | undefined;
  try {
    const ctx = { taskDir: task.dir, task };
    await runSetupSteps(task.setup, env, ctx);
    for (const s of traj.steps) {
      const actions = s.actions.filter((a: Action) => !tokens.has(a.type));
      const token = s.actions.find((a) => tokens.has(a.type));
      if (token) lastAction = token.type;
      if (actions.length) await env.perform(actions);
      await new Promise((r) => setTimeout(r, opts.settleMs ?? 500));
      const stored = s.screenshot
        ? await readFile(join(runDir, s.screenshot)).catch(() => undefined)
        : undefined;
      if (!stored || !env.capabilities.has('screenshot')) {
        steps.push({ step: s.step });
        continue;
      }
      const now = await env.screenshot({ format: 'png' });
      steps.push({ step: s.step, ...(await pixelDiff(stored, now.data, opts.tolerance ?? 24)) });
    }
    const verdict = await gradeTask(task, {
      env,
      task,
      cacheDir,
      lastAction,
      runPostSetup: (post) => runSetupSteps(post, env, ctx),
    });
    const worst = steps.reduce((m, s) => Math.max(m, s.differingShare ?? 0), 0);
    const storedScore = traj.item.score;
    const reason =
      `replayed ${steps.length} step(s) on a fresh environment: scores ${verdict.score}` +
      (storedScore !== undefined ? ` (stored run ${storedScore})` : '') +
      `; screens differ from the stored ones by at most ${(worst * 100).toFixed(2)}%`;
    return { ...(storedScore !== undefined ? { storedScore } : {}), score: verdict.score, steps, reason };
  } finally {
    await env.close();
    await rm(home, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
  }
}
