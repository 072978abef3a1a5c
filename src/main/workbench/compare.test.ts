// runs.compare / runs.stepDiffs through the real handlers over run folders written by the real store: where the
// actions part, where the screens part, and that the answers name files below the served root.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createWorkbench, type Workbench } from './workbench';
import { dispatch } from './dispatch';
import { RunWriter, taskDirFor } from '../store';
import type { Action } from '../../shared/run';
import { firstActionDivergence, firstScreenDivergence, sameStepActions } from '../../shared/divergence';
import { compareLinksFor } from '../report/links';

const W = 640;
const H = 400;

/** A frame with a dark box at the target; the same target gives the same bytes. */
async function frame(x: number, y: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#eee"/><rect x="${x - 40}" y="${y - 20}" width="80" height="40" fill="#223"/></svg>`;
  return {
    data: await sharp(Buffer.from(svg)).png().toBuffer(),
    format: 'png' as const,
    width: W,
    height: H,
    toScreen: 1,
  };
}

/** One task of 5 steps; from `divergeAt` on, the run clicks (and its screen shows the target) elsewhere. */
async function writeRun(out: string, agent: string, divergeAt?: number, attempt?: number): Promise<string> {
  const layout = { actionSpace: 'pyautogui', observation: 'screenshot', agent } as const;
  // With `attempt`, a repeated run (--repeats) keeping its attempts under `app/t1#1`, `app/t1#2`.
  const key = attempt ? `app/t1#${attempt}` : 'app/t1';
  const keys = attempt ? [1, 2].map((n) => `app/t1#${n}`) : [key];
  const dir = taskDirFor(layout, 'app', 't1');
  const taskInfo = Object.fromEntries(
    keys.map((k, i) => [
      k,
      attempt ? { dir: join(dir, `attempt-${i + 1}`), task: 'app/t1', attempt: i + 1 } : { dir },
    ]),
  );
  const writer = await RunWriter.create(out, {
    ...layout,
    args: [],
    tasks: keys,
    taskInfo,
    ...(attempt ? { repeats: 2 } : {}),
  });
  const tw = writer.openTask(key);
  tw.started();
  for (let s = 1; s <= 5; s++) {
    const target =
      divergeAt !== undefined && s >= divergeAt ? { x: 500, y: 300 } : { x: 100 + s * 20, y: 100 };
    const shot = await frame(target.x, target.y);
    const seen = await tw.saveObservation(s, { screenshot: shot });
    const actions: Action[] =
      s === 5
        ? [{ type: 'DONE' }]
        : [
            { type: 'click', ...target },
            { type: 'sleep', seconds: 0.5 },
          ];
    await tw.recordStep(
      { step: s, at: new Date().toISOString(), actions, ...seen, screen: { width: W, height: H } },
      shot,
      { action: s === 5 ? 'DONE' : `pyautogui.click(${target.x}, ${target.y})` },
    );
  }
  const score = divergeAt ? 0 : 1;
  await tw.finish('success', {
    taskFields: { id: 't1', snapshot: 'app' },
    results: {
      score,
      eval_error: null,
      state: 'success',
      messages: [],
      total_tokens: 0,
      total_timing: 1,
      steps: 5,
    },
  });
  writer.event({ kind: 'run.finished', runId: writer.runId, at: new Date().toISOString() });
  return writer.runDir;
}

describe('several runs of one task side by side', () => {
  let root: string;
  let wb: Workbench;
  const paths: string[] = [];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'proctor-compare-'));
    for (const [agent, at] of [
      ['a', undefined],
      ['b', undefined],
      ['c', 3],
    ] as const)
      paths.push((await writeRun(join(root, 'results'), agent, at)).slice(root.length + 1));
    wb = createWorkbench(root, { transport: 'http' });
  });
  afterAll(async () => {
    await wb?.close();
    rmSync(root, { recursive: true, force: true });
  });
  const call = async (method: string, params: unknown) => {
    const r = await dispatch(wb.handlers, method, params);
    if (!r.ok) throw new Error(r.error.message);
    return r.result as Record<string, unknown>;
  };

  it('finds no divergence between two runs that do the same', async () => {
    const cmp = await call('runs.compare', { runIds: paths.slice(0, 2), taskKey: 'app/t1' });
    expect(cmp.actionDivergence).toBeUndefined();
    const diffs = await call('runs.stepDiffs', { runIds: paths.slice(0, 2), taskKey: 'app/t1' });
    expect(diffs.screenDivergence).toBeUndefined();
    expect((diffs.diffs as number[][])[0]).toEqual([0, 0, 0, 0, 0]);
  });

  it('marks the step where a run clicks elsewhere, by action and by screen, with the runs named by folder', async () => {
    const cmp = await call('runs.compare', { runIds: [paths[0], paths[2]], taskKey: 'app/t1' });
    expect(cmp.actionDivergence).toBe(3);
    const runs = cmp.runs as { run: { path: string; agent?: string }; steps: { observation?: string }[] }[];
    expect(runs.map((r) => r.run)).toEqual([
      { path: paths[0], agent: 'a' },
      { path: paths[2], agent: 'c' },
    ]);
    expect(runs[1].steps[0].observation!.startsWith(`${paths[2]}/`)).toBe(true);
    const diffs = await call('runs.stepDiffs', { runIds: [paths[0], paths[2]], taskKey: 'app/t1' });
    expect(diffs.screenDivergence).toBe(3);
    const row = (diffs.diffs as number[][])[0];
    expect(row[1]).toBe(0);
    expect(row[2]).toBeGreaterThan(diffs.threshold as number);
  });

  it('offers for comparison only the runs that have the task', async () => {
    const other = (await writeRun(join(root, 'elsewhere'), 'd')).slice(root.length + 1);
    const all = (await call('runs.list', {})) as unknown as { path: string }[];
    expect(all.map((r) => r.path)).toContain(other);
    const withTask = (await call('runs.list', { withTask: 'app/t1' })) as unknown as { path: string }[];
    expect(withTask.map((r) => r.path).sort()).toEqual([...paths, other].sort());
    expect(await call('runs.list', { withTask: 'app/none' })).toEqual([]);
  });

  it("compares a repeated run's attempt with a run of single attempts, by either key", async () => {
    const repeated = (await writeRun(join(root, 'repeated'), 'r', 2, 2)).slice(root.length + 1);
    const byTask = await call('runs.compare', { runIds: [paths[0], repeated], taskKey: 'app/t1' });
    expect((byTask.runs as { taskKey: string }[]).map((r) => r.taskKey)).toEqual(['app/t1', 'app/t1#1']);
    const byAttempt = await call('runs.compare', { runIds: [paths[0], repeated], taskKey: 'app/t1#2' });
    expect((byAttempt.runs as { taskKey: string }[]).map((r) => r.taskKey)).toEqual(['app/t1', 'app/t1#2']);
    expect(byAttempt.actionDivergence).toBe(2);
    await expect(call('runs.compare', { runIds: [paths[0], repeated], taskKey: 'app/t9' })).rejects.toThrow(
      /app\/t9/,
    );
    // Offered for comparison from either side: the attempt's replay lists the runs of single attempts too.
    const offered = (await call('runs.list', { withTask: 'app/t1#2' })) as unknown as { path: string }[];
    expect(offered.map((r) => r.path)).toEqual(expect.arrayContaining([paths[0], repeated]));
  });

  it('refuses fewer than two or more than four runs, a run named twice, and a run outside the root', async () => {
    await expect(call('runs.compare', { runIds: [paths[0]], taskKey: 'app/t1' })).rejects.toThrow(/runIds/);
    await expect(call('runs.compare', { runIds: [...paths, ...paths], taskKey: 'app/t1' })).rejects.toThrow(
      /runIds/,
    );
    await expect(call('runs.compare', { runIds: [paths[0], paths[0]], taskKey: 'app/t1' })).rejects.toThrow(
      /named twice/,
    );
    await expect(call('runs.stepDiffs', { runIds: [paths[0], '../..'], taskKey: 'app/t1' })).rejects.toThrow(
      /outside the served folder/,
    );
  });
});

describe('divergence rules', () => {
  const step = (actions: Action[]) => ({ step: 1, at: '', actions, screen: { width: 1000, height: 800 } });
  it('treat nearby clicks as the same, ignore sleeps, and count an ended run as parting', () => {
    expect(
      sameStepActions(
        step([{ type: 'click', x: 100, y: 100 }]),
        step([
          { type: 'click', x: 106, y: 97 },
          { type: 'sleep', seconds: 1 },
        ]),
      ),
    ).toBe(true);
    expect(
      sameStepActions(step([{ type: 'click', x: 100, y: 100 }]), step([{ type: 'click', x: 140, y: 100 }])),
    ).toBe(false);
    expect(sameStepActions(step([{ type: 'write', text: 'a' }]), step([{ type: 'write', text: 'b' }]))).toBe(
      false,
    );
    const a = [step([{ type: 'write', text: 'a' }]), step([{ type: 'DONE' }])];
    expect(firstActionDivergence([a, a])).toBeUndefined();
    expect(firstActionDivergence([a, a.slice(0, 1)])).toBe(2);
    expect(
      firstScreenDivergence(
        [
          [0, 0.001, 0.2],
          [0, 0.3],
        ],
        0.01,
      ),
    ).toBe(2);
  });

  it('compare clicks of runs at different screen sizes at the same place on screen', () => {
    const at = (screen: { width: number; height: number }, actions: Action[]) => ({
      step: 1,
      at: '',
      actions,
      screen,
    });
    const small = { width: 1280, height: 800 };
    const large = { width: 1920, height: 1200 };
    expect(
      sameStepActions(
        at(small, [{ type: 'click', x: 328, y: 313 }]),
        at(large, [{ type: 'click', x: 492, y: 470 }]),
      ),
    ).toBe(true);
    expect(
      sameStepActions(
        at(small, [{ type: 'click', x: 328, y: 313 }]),
        at(large, [{ type: 'click', x: 328, y: 313 }]),
      ),
    ).toBe(false);
    expect(
      sameStepActions(
        at(small, [{ type: 'scroll', dx: 0, dy: -5, x: 640, y: 450 }]),
        at(large, [{ type: 'scroll', dx: 0, dy: -5, x: 960, y: 675 }]),
      ),
    ).toBe(true);
  });
});

describe('report links to flipped tasks', () => {
  it('serve the runs’ closest common folder and name each run below it', () => {
    expect(compareLinksFor(['/data/results/run-a', '/data/results/run-b'])).toEqual({
      serveRoot: '/data/results',
      runPaths: ['run-a', 'run-b'],
    });
    expect(compareLinksFor(['/data/x/run-a', '/data/y/run-b'])).toEqual({
      serveRoot: '/data',
      runPaths: ['x/run-a', 'y/run-b'],
    });
    // One run folder inside the other: serve the outer one's parent, never a run itself.
    expect(compareLinksFor(['/data/run-a', '/data/run-a/inner'])).toEqual({
      serveRoot: '/data',
      runPaths: ['run-a', 'run-a/inner'],
    });
  });
});
