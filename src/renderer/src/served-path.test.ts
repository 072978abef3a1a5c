// A task's recording (below its run) found below the served root from the steps' files, or from the run list.
import { describe, expect, it } from 'vitest';
import type { StepRecord } from '../../shared/run';
import { belowRoot, runPrefixFromList, runPrefixFromSteps } from './served-path';

const at = '2025-01-30T10:15:00.000Z';
const step = (p: Partial<StepRecord>): StepRecord => ({ step: 1, at, actions: [], ...p });

describe('the recording below the served root', () => {
  it('reads the run folder off a step file inside the task folder', () => {
    const steps = [
      step({}),
      step({
        screenshot:
          'osworld/traces/20250130-1/pyautogui/screenshot/gpt-4o/chrome/task-1/step_1_20250130@101500.png',
      }),
    ];
    const prefix = runPrefixFromSteps('chrome/task-1/recording.mp4', steps);
    expect(prefix).toBe('osworld/traces/20250130-1/pyautogui/screenshot/gpt-4o');
    expect(belowRoot(prefix!, 'chrome/task-1/recording.mp4')).toBe(
      'osworld/traces/20250130-1/pyautogui/screenshot/gpt-4o/chrome/task-1/recording.mp4',
    );
    // Spider2-V keeps screenshots one folder deeper; a run served as the root has no prefix
    expect(
      runPrefixFromSteps('excel/task-a/recording.mp4', [
        step({ observation: 'results/x_ef/excel/task-a/screenshots/step_1_20250420@100001.png' }),
      ]),
    ).toBe('results/x_ef');
    expect(
      runPrefixFromSteps('excel/task-a/recording.mp4', [
        step({ observation: 'excel/task-a/screenshots/step_1.png' }),
      ]),
    ).toBe('');
    // a path already below the root stays as it is
    const rooted = 'r/chrome/task-1/recording.mp4';
    expect(
      belowRoot(runPrefixFromSteps(rooted, [step({ screenshot: 'r/chrome/task-1/step_1.png' })])!, rooted),
    ).toBe(rooted);
  });

  it('says it does not know when no step file is in the task folder, and the run list answers', () => {
    expect(
      runPrefixFromSteps('chrome/task-1/recording.mp4', [step({ screenshot: 'elsewhere/step_1.png' })]),
    ).toBeUndefined();
    expect(runPrefixFromSteps('recording.mp4', [step({ screenshot: 'a/step_1.png' })])).toBeUndefined();
    const runs = [
      { runId: 'a', path: 'results/a' },
      { runId: 'root-run', path: '.' },
    ];
    expect(runPrefixFromList(runs, 'results/a')).toBe('results/a');
    expect(runPrefixFromList(runs, 'a')).toBe('results/a');
    expect(runPrefixFromList(runs, 'x', 'root-run')).toBe('');
    expect(runPrefixFromList(runs, 'x', 'y')).toBeUndefined();
  });
});
