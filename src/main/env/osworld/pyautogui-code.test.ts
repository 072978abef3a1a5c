// Typed actions → /execute steps: code Proctor's own parser reads back to the same actions, sleeps on the
// client, long waits split, bad actions refused before anything is sent.
import { describe, expect, it } from 'vitest';
import type { Action } from '../../../shared/run';
import { parsePyautogui } from '../../actions';
import {
  BATCH_WAIT_SECONDS,
  OsworldActionError,
  performSteps,
  pyautoguiCommand,
  PYAUTOGUI_PREFIX,
} from './pyautogui-code';

describe('performSteps', () => {
  const actions: Action[] = [
    { type: 'click', x: 10, y: 20 },
    { type: 'click', x: 5, y: 6, button: 'right' },
    { type: 'write', text: "it's\n日本 `x`" },
    { type: 'hotkey', keys: ['ctrl', 'shift', 't'] },
    { type: 'scroll', dx: 0, dy: -3, x: 100, y: 200 },
    { type: 'dragTo', x: 300, y: 400, duration: 0.5 },
    { type: 'keyDown', key: 'shift' },
    { type: 'keyUp', key: 'shift' },
  ];

  it('writes a run of input actions as one /execute whose code parses back to the same actions', () => {
    const steps = performSteps(actions);
    expect(steps).toHaveLength(1);
    const step = steps[0];
    if (step.kind !== 'execute') throw new Error('expected an execute step');
    const parsed = parsePyautogui('```python\n' + step.code + '\n```');
    expect(parsed).toEqual({ ok: true, actions });
  });

  it('does sleeps on the client and WAIT / DONE / FAIL not at all', () => {
    const steps = performSteps([
      { type: 'click', x: 1, y: 2 },
      { type: 'sleep', seconds: 1.5 },
      { type: 'WAIT' },
      { type: 'press', keys: ['enter'] },
      { type: 'DONE' },
    ]);
    expect(steps.map((s) => s.kind)).toEqual(['execute', 'sleep', 'execute']);
    expect(steps[1]).toEqual({ kind: 'sleep', ms: 1500 });
    expect(performSteps([{ type: 'FAIL' }])).toEqual([]);
  });

  it('splits a run that would wait longer than one /execute may', () => {
    const slow: Action = { type: 'moveTo', x: 1, y: 1, duration: 10 };
    const steps = performSteps(Array.from({ length: 8 }, () => slow));
    expect(steps.length).toBeGreaterThan(1);
    for (const s of steps)
      if (s.kind === 'execute') expect(s.actions.length * 10).toBeLessThanOrEqual(BATCH_WAIT_SECONDS);
  });

  it('spells keys the way pyautogui knows them', () => {
    const [step] = performSteps([{ type: 'hotkey', keys: ['Control', 'ESCAPE'] }]);
    expect(step.kind === 'execute' && step.code).toBe("pyautogui.hotkey('ctrl', 'esc')");
  });

  it.each([
    [{ type: 'click', x: Number.NaN, y: 1 }, /NaN is not a finite number/],
    [{ type: 'press', keys: ['nosuchkey'] }, /nosuchkey/],
    [{ type: 'press', keys: [] }, /non-empty list/],
    [{ type: 'click', x: 1, y: 1, button: 'side' }, /unknown button 'side'/],
    [{ type: 'teleport' }, /unknown action type 'teleport'/],
    [{ type: 'write', text: 3 }, /text must be a string/],
    [{ type: 'sleep', seconds: -1 }, /must not be negative/],
  ])('refuses %j before sending anything', (bad, why) => {
    expect(() => performSteps([{ type: 'click', x: 1, y: 1 }, bad as unknown as Action])).toThrow(
      OsworldActionError,
    );
    expect(() => performSteps([bad as unknown as Action])).toThrow(why);
  });
});

describe('pyautoguiCommand', () => {
  it("is OSWorld's python -c form", () => {
    expect(pyautoguiCommand('pyautogui.click(1, 2)')).toEqual([
      'python3',
      '-c',
      PYAUTOGUI_PREFIX + 'pyautogui.click(1, 2)',
    ]);
    expect(PYAUTOGUI_PREFIX).toBe('import pyautogui; import time; pyautogui.FAILSAFE = False; ');
  });
});
