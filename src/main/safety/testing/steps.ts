// Trajectories for the detectors' tests: steps as the readers give them (an agent's `BASH …` tool action, text
// typed and entered in a terminal, a click on a marked element).
import type { Action, StepRecord } from '../../../shared/run';

const at = '2026-01-01T00:00:00.000Z';

/** One step per command, each a shell tool action (as OSWorld forks' `BASH …` lines are read). */
export function shellSteps(...commands: string[]): StepRecord[] {
  return commands.map((text, i) => ({
    step: i + 1,
    line: i + 1,
    at,
    actions: [],
    toolAction: { kind: 'shell', name: 'bash', text },
  }));
}

/** One step per line, typed into a terminal and entered (pyautogui.write + press('enter')). */
export function typedSteps(...lines: string[]): StepRecord[] {
  return lines.map((text, i) => ({
    step: i + 1,
    at,
    actions: [
      { type: 'write', text },
      { type: 'press', keys: ['enter'] },
    ],
  }));
}

/** A step of the given actions. */
export function actionStep(step: number, actions: Action[], extra: Partial<StepRecord> = {}): StepRecord {
  return { step, at, actions, ...extra };
}
