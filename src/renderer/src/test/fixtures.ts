// Small trajectories for the renderer's unit tests, in the shapes the engine's `runs.task` and `runs.list` give.
import type { TaskTrajectory } from '../../../shared/api';
import type { RunListItem, StepRecord } from '../../../shared/run';
import type { FakeClient } from './fake-client';

export function stepOf(step: number, over: Partial<StepRecord> = {}): StepRecord {
  return { step, at: `2026-01-01T00:00:0${step}Z`, actions: [], ...over };
}

/** Three steps: a click, typed text, and a step that failed with an error. */
export function trajectory(over: Partial<TaskTrajectory> = {}): TaskTrajectory {
  return {
    runId: 'run-1',
    taskKey: 'chrome/t1',
    item: { key: 'chrome/t1', taskId: 't1', domain: 'chrome', state: 'done', score: 1, steps: 3 },
    steps: [
      stepOf(1, {
        response: 'I click the search box.',
        actions: [{ type: 'click', x: 10, y: 20 }],
        screen: { width: 100, height: 100 },
        screenshot: 'run-1/chrome/t1/step_1.png',
        tokens: { prompt: 1200, completion: 34 },
        timing: { agentMs: 1500 },
      }),
      stepOf(2, {
        response: 'Now I type.',
        actions: [{ type: 'write', text: 'hello' }],
        screenshot: 'run-1/chrome/t1/step_2.png',
      }),
      stepOf(3, {
        response: 'Done?',
        actions: [],
        error: 'the window closed',
        feedback: 'the window closed',
      }),
    ],
    verdicts: [],
    task: { instruction: 'Search for hello.' },
    problems: [],
    ...over,
  } as TaskTrajectory;
}

export function runListItem(path: string, over: Partial<RunListItem> = {}): RunListItem {
  return { runId: path, path, format: 'proctor', tasks: 1, finished: 1, live: false, ...over } as RunListItem;
}

/** The fake engine the setup installed as the preload bridge. */
export function engine(): FakeClient {
  return window.proctor as FakeClient;
}
