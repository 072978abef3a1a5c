// A finished Proctor run with real PNG screenshots, written through the store's writer: for the site and video tests.
import sharp from 'sharp';
import { RunWriter, taskDirFor, taskKeyOf } from '../../../store';

export async function png(label: number): Promise<Buffer> {
  return sharp({
    create: { width: 64, height: 40, channels: 3, background: { r: label * 40, g: 90, b: 200 } },
  })
    .png()
    .toBuffer();
}

/** A finished Proctor run of `tasks` tasks × `steps` steps with real PNGs, through the store's writer. */
export async function proctorRun(
  out: string,
  tasks: number,
  steps: number,
): Promise<{ runDir: string; keys: string[] }> {
  const run = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'scripted' } as const;
  const list = Array.from({ length: tasks }, (_, i) => ({ id: `t${i + 1}`, domain: 'chromium' }));
  const taskInfo = Object.fromEntries(
    list.map((t) => [taskKeyOf(t), { dir: taskDirFor(run, t.domain, t.id), instruction: `task ${t.id}` }]),
  );
  const writer = await RunWriter.create(out, { ...run, args: [], tasks: Object.keys(taskInfo), taskInfo });
  for (const t of list) {
    const tw = writer.openTask(taskKeyOf(t));
    tw.started();
    for (let s = 1; s <= steps; s++) {
      const shot = { data: await png(s), format: 'png' as const, width: 64, height: 40, toScreen: 1 };
      const seen = await tw.saveObservation(s, { screenshot: shot });
      await tw.recordStep(
        {
          step: s,
          at: new Date().toISOString(),
          response: `step ${s}`,
          actions: [{ type: 'click', x: 10 + s, y: 20 }],
          ...seen,
          screen: { width: 64, height: 40 },
        },
        { ...shot, data: await png(s + 1) },
        { action: `pyautogui.click(${10 + s}, 20)` },
      );
    }
    writer.appendVerdict(taskKeyOf(t), { kind: 'rule', score: 1, metrics: [], at: new Date().toISOString() });
    await tw.finish('success', {
      taskFields: { id: t.id, snapshot: t.domain, instruction: 'x' },
      results: {
        score: 1,
        eval_error: null,
        state: 'success',
        messages: [],
        total_tokens: 0,
        total_timing: 1,
        steps,
      },
    });
  }
  writer.event({ kind: 'run.finished', runId: writer.runId, at: new Date().toISOString() });
  return { runDir: writer.runDir, keys: Object.keys(taskInfo) };
}
