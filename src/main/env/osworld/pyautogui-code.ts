// Typed actions → the `/execute` calls that perform them on an OSWorld guest: pyautogui code written by the
// actions' own renderer (toPyautogui, which Proctor's parser reads back to the same actions), in OSWorld's
// `python3 -c "import pyautogui; import time; pyautogui.FAILSAFE = False; <code>"` form. Long waits are
// split out so that no single /execute outlives the guest server's 120 s limit.
import type { Action } from '../../../shared/run';
import { normaliseKey, toPyautogui, waitingSeconds } from '../../actions';
import { EnvironmentError } from '../../errors';

/** What OSWorld's harness puts before the model's code; Proctor's server recognises it. */
export const PYAUTOGUI_PREFIX = 'import pyautogui; import time; pyautogui.FAILSAFE = False; ';

/** Seconds of deliberate waiting one /execute may hold (the guest kills commands at 120 s). */
export const BATCH_WAIT_SECONDS = 60;

export type PerformStep =
  { kind: 'execute'; code: string; actions: Action[] } | { kind: 'sleep'; ms: number };

/** An action that cannot be written as pyautogui code (bad numbers, unknown keys). */
export class OsworldActionError extends EnvironmentError {
  constructor(
    readonly action: unknown,
    why: string,
  ) {
    super(`cannot perform ${JSON.stringify(action)} on the osworld guest: ${why}`);
    this.name = 'OsworldActionError';
  }
}

const BUTTONS = new Set(['left', 'right', 'middle']);

function finite(a: Action, ...values: (number | undefined)[]): void {
  for (const v of values)
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v)))
      throw new OsworldActionError(a, `${String(v)} is not a finite number`);
}

/** The action with key names in pyautogui's canonical spelling; throws OsworldActionError when it is malformed. */
export function checkedAction(a: Action): Action {
  if (!a || typeof a !== 'object') throw new OsworldActionError(a, 'an action is an object with a type');
  const key = (k: unknown): string => {
    try {
      return normaliseKey(String(k));
    } catch (e) {
      throw new OsworldActionError(a, (e as Error).message);
    }
  };
  if ('button' in a && a.button !== undefined && !BUTTONS.has(a.button))
    throw new OsworldActionError(a, `unknown button '${String(a.button)}'`);
  switch (a.type) {
    case 'click':
      finite(a, a.x, a.y, a.clicks, a.interval);
      return a;
    case 'moveTo':
    case 'dragTo':
      finite(a, a.x, a.y, a.duration);
      return a;
    case 'moveRel':
    case 'dragRel':
      finite(a, a.dx, a.dy, a.duration);
      return a;
    case 'mouseDown':
    case 'mouseUp':
      finite(a, a.x, a.y);
      return a;
    case 'scroll':
      finite(a, a.dx, a.dy, a.x, a.y);
      return a;
    case 'write':
      if (typeof a.text !== 'string') throw new OsworldActionError(a, 'text must be a string');
      finite(a, a.interval);
      return a;
    case 'press':
      if (!Array.isArray(a.keys) || !a.keys.length)
        throw new OsworldActionError(a, 'keys must be a non-empty list');
      finite(a, a.presses, a.interval);
      return { ...a, keys: a.keys.map(key) };
    case 'hotkey':
      if (!Array.isArray(a.keys) || !a.keys.length)
        throw new OsworldActionError(a, 'keys must be a non-empty list');
      return { ...a, keys: a.keys.map(key) };
    case 'keyDown':
    case 'keyUp':
      return { ...a, key: key(a.key) };
    case 'sleep':
      finite(a, a.seconds);
      if (a.seconds < 0) throw new OsworldActionError(a, 'seconds must not be negative');
      return a;
    case 'WAIT':
    case 'DONE':
    case 'FAIL':
      return a;
    default:
      throw new OsworldActionError(a, `unknown action type '${String((a as { type?: unknown }).type)}'`);
  }
}

/**
 * The steps that perform `actions`: runs of input actions as one /execute each (cut so that no run waits on
 * purpose longer than BATCH_WAIT_SECONDS), `sleep` done by the client between them, WAIT / DONE / FAIL
 * nothing. Every action is checked before any step is made, so a bad action performs nothing.
 */
export function performSteps(actions: Action[]): PerformStep[] {
  const checked = actions.map(checkedAction);
  const steps: PerformStep[] = [];
  let run: Action[] = [];
  let runWait = 0;
  const flush = (): void => {
    if (!run.length) return;
    steps.push({ kind: 'execute', code: run.map(toPyautogui).join('\n'), actions: run });
    run = [];
    runWait = 0;
  };
  for (const a of checked) {
    if (a.type === 'WAIT' || a.type === 'DONE' || a.type === 'FAIL') continue;
    if (a.type === 'sleep') {
      flush();
      if (a.seconds > 0) steps.push({ kind: 'sleep', ms: a.seconds * 1000 });
      continue;
    }
    const w = waitingSeconds(a);
    if (run.length && runWait + w > BATCH_WAIT_SECONDS) flush();
    run.push(a);
    runWait += w;
  }
  flush();
  return steps;
}

/** The /execute command for pyautogui code, as OSWorld's harness sends it. */
export function pyautoguiCommand(code: string): string[] {
  return ['python3', '-c', PYAUTOGUI_PREFIX + code];
}
