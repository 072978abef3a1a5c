// Test fixture: a person's run of one task (agent `human`) written through the real store (RunWriter), each
// entry the person gave recorded as a step's response, as the runner records the human agent's turns.
import { RunWriter, taskDirFor } from '../../store';

export async function writeHumanRun(
  out: string,
  task: { domain: string; id: string },
  entries: string[],
  name = 'human',
  screen?: { width: number; height: number },
): Promise<{ runDir: string; runId: string; taskKey: string }> {
  const manifestRun = { actionSpace: 'pyautogui', observation: 'screenshot', agent: 'human' } as const;
  const taskKey = `${task.domain}/${task.id}`;
  const writer = await RunWriter.create(
    out,
    {
      ...manifestRun,
      args: ['run', task.id, '--agent', 'human'],
      tasks: [taskKey],
      taskInfo: {
        [taskKey]: { dir: taskDirFor(manifestRun, task.domain, task.id), instruction: 'a person shows how' },
      },
      ...(screen ? { screen } : {}),
    },
    new Date(),
    { runId: name },
  );
  writer.event({ kind: 'run.started', runId: writer.runId, at: new Date().toISOString(), tasks: [taskKey] });
  const tw = writer.openTask(taskKey);
  tw.started();
  for (const [i, text] of entries.entries()) {
    const done = text.trim() === 'DONE';
    await tw.recordStep(
      {
        step: i + 1,
        at: new Date().toISOString(),
        response: text,
        actions: done ? [{ type: 'DONE' }] : [],
        done,
      },
      undefined,
      { action: text },
    );
  }
  await tw.finish('success', {
    taskFields: { id: task.id, snapshot: task.domain },
    results: {
      score: 0,
      eval_error: null,
      state: 'success',
      messages: [],
      total_tokens: 0,
      total_timing: 1,
      steps: entries.length,
    },
  });
  writer.event({ kind: 'run.finished', runId: writer.runId, at: new Date().toISOString() });
  writer.release();
  return { runDir: writer.runDir, runId: writer.runId, taskKey };
}
