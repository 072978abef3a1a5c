// Writes a run folder through the real store (RunWriter/TaskWriter) with real PNG screenshots: for replay
// tests and the UI benchmark. Each step's screenshot shows a red target where the step clicks.
import sharp from 'sharp';
import type { Action } from '../../src/shared/run';
import { RunWriter, taskDirFor, taskKeyOf } from '../../src/main/store';
import type { Screenshot } from '../../src/main/env/environment';

export interface SyntheticRunOptions {
  out: string;
  tasks: number;
  steps: number;
  width?: number;
  height?: number;
  /** Leave the run unfinished (no run.finished event, the writer's pid alive). */
  keepOpen?: boolean;
  /** The agent named in the manifest; default `synthetic`. */
  agent?: string;
  /** From this step on, the targets (and clicks) sit mirrored through the centre: the run parts from an undiverted one here. */
  divergeAt?: number;
}

export interface SyntheticRun {
  runDir: string;
  runId: string;
  taskKeys: string[];
  /** The click of step n (1-based) of every task. */
  clickOf(step: number): { x: number; y: number };
  writer: RunWriter;
}

async function frame(
  width: number,
  height: number,
  target: { x: number; y: number },
  label: string,
): Promise<Screenshot> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#dfe6ee"/>
    <rect x="0" y="0" width="${width}" height="${Math.round(height / 18)}" fill="#3b4252"/>
    <text x="20" y="${Math.round(height / 25)}" font-size="${Math.round(height / 30)}" fill="#fff" font-family="sans-serif">${label}</text>
    <rect x="${target.x - 60}" y="${target.y - 22}" width="120" height="44" rx="6" fill="#4c78a8"/>
    <circle cx="${target.x}" cy="${target.y}" r="6" fill="#e4572e"/>
  </svg>`;
  const data = await sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer();
  return { data, format: 'png', width, height, toScreen: 1 };
}

export async function writeSyntheticRun(opts: SyntheticRunOptions): Promise<SyntheticRun> {
  const width = opts.width ?? 1280;
  const height = opts.height ?? 720;
  const base = (step: number) => ({
    x: 100 + ((step * 137) % (width - 200)),
    y: 80 + ((step * 89) % (height - 160)),
  });
  const clickOf = (step: number) => {
    const c = base(step);
    return opts.divergeAt !== undefined && step >= opts.divergeAt ? { x: width - c.x, y: height - c.y } : c;
  };
  const apps = ['chromium', 'terminal', 'mousepad', 'sqlite'];
  const tasks = Array.from({ length: opts.tasks }, (_, i) => ({
    id: `task-${String(i + 1).padStart(4, '0')}`,
    domain: apps[i % apps.length],
  }));
  const manifestRun = {
    actionSpace: 'pyautogui',
    observation: 'screenshot',
    agent: opts.agent ?? 'synthetic',
  } as const;
  const taskInfo = Object.fromEntries(
    tasks.map((t, i) => [
      taskKeyOf(t),
      {
        dir: taskDirFor(manifestRun, t.domain, t.id),
        instruction: `Synthetic task ${i + 1}: click the blue buttons in order and save.`,
        app: t.domain,
        tags: [i % 3 === 0 ? 'cli' : 'gui', i % 2 ? 'verbose' : 'abstract'],
        difficulty: (['easy', 'medium', 'hard'] as const)[i % 3],
      },
    ]),
  );
  const writer = await RunWriter.create(opts.out, {
    ...manifestRun,
    args: ['synthetic'],
    tasks: Object.keys(taskInfo),
    taskInfo,
  });
  writer.event({
    kind: 'run.started',
    runId: writer.runId,
    at: new Date().toISOString(),
    tasks: Object.keys(taskInfo),
  });
  // Frames are the same for every task: render once, write many.
  const frames: Screenshot[] = [];
  for (let s = 1; s <= opts.steps + 1; s++) frames.push(await frame(width, height, clickOf(s), `step ${s}`));
  for (const [i, t] of tasks.entries()) {
    const key = taskKeyOf(t);
    const tw = writer.openTask(key);
    tw.started();
    for (let s = 1; s <= opts.steps; s++) {
      const seen = await tw.saveObservation(s, { screenshot: frames[s - 1] });
      const c = clickOf(s);
      const actions: Action[] = s === opts.steps ? [{ type: 'DONE' }] : [{ type: 'click', x: c.x, y: c.y }];
      const code = s === opts.steps ? 'DONE' : `pyautogui.click(${c.x}, ${c.y})`;
      await tw.recordStep(
        {
          step: s,
          at: new Date().toISOString(),
          response: `I will click the button.\n\`\`\`python\n${code}\n\`\`\``,
          actions,
          ...seen,
          screen: { width, height },
          marks: [
            { id: 1, x: c.x - 60, y: c.y - 22, w: 120, h: 44, label: 'push-button\tNext' },
            { id: 2, x: 20, y: 4, w: 200, h: 24, label: 'label\tTitle' },
          ],
          timing: { observeMs: 20 + (s % 5) * 7, agentMs: 300 + ((s * 53) % 400), actMs: 5, storeMs: 3 },
          tokens: { prompt: 1500, completion: 40 },
          done: s === opts.steps,
        },
        frames[s],
        { action: code },
      );
    }
    const score = i % 3 === 0 ? 1 : 0;
    writer.appendVerdict(key, {
      kind: 'rule',
      score,
      metrics: [{ metric: 'compare_csv', score, reason: score ? 'rows match' : 'row 2 differs' }],
      at: new Date().toISOString(),
    });
    if (i === 1)
      writer.appendVerdict(key, {
        kind: 'judge',
        reason: 'The buttons were clicked in order and the file was saved.',
        subScores: [
          { name: 'buttons clicked in order', evaluation: 'yes' },
          { name: 'file saved', evaluation: 'yes' },
        ],
        complete: 'yes',
        model: 'judge-standin',
        options: {},
        at: new Date().toISOString(),
      });
    await tw.finish('success', {
      taskFields: { id: t.id, snapshot: t.domain, instruction: taskInfo[key].instruction },
      results: {
        score,
        eval_error: null,
        state: 'success',
        messages: [],
        total_tokens: 1540 * opts.steps,
        total_timing: 10,
        steps: opts.steps,
      },
    });
  }
  if (!opts.keepOpen)
    writer.event({ kind: 'run.finished', runId: writer.runId, at: new Date().toISOString() });
  return { runDir: writer.runDir, runId: writer.runId, taskKeys: Object.keys(taskInfo), clickOf, writer };
}
