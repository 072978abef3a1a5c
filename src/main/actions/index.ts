// The action spaces: model replies (pyautogui code or computer_13 JSON) → typed actions, never evaluated.
// Public surface: parsePyautogui, parseComputer13, parseAction, KEYBOARD_KEYS, normaliseKey, scaleActions,
// describeAction, toPyautogui.
import { splitReply } from './fences';
import { LIMITS } from './limits';
import { actionsOfStatements, type PyautoguiOptions } from './pyautogui';
import { parsePython } from './python/parser';
import { normaliseLineEnds, Refusal, refusalOutcome, type ParseOutcome } from './refusal';
import { parseComputer13, type Computer13Options } from './computer13';
import type { Action } from '../../shared/run';

export type { ParseOutcome, RefusalDetail } from './refusal';
export type { PyautoguiOptions, Point } from './pyautogui';
export type { Computer13Options } from './computer13';
export { KEYBOARD_KEYS, KEY_ALIASES, normaliseKey, isKnownKey, UnknownKeyError } from './keys';
export { PYAUTOGUI_FUNCTIONS, isSomName } from './pyautogui';
export { COMPUTER13_ACTIONS } from './computer13';
export { describeAction, toPyautogui, actionsToPyautogui, scaleActions, pyString } from './render';
export { LIMITS, waitingSeconds } from './limits';
export { parseComputer13 };

import type { ActionSpace } from '../../shared/spaces';

export type { ActionSpace };
export type ParseOptions = PyautoguiOptions & Computer13Options;

const PYTHON_TAGS: ReadonlySet<string> = new Set(['', 'python', 'py', 'python3', 'pyautogui', 'code']);

/**
 * Typed actions from a model reply in the pyautogui space. The reply is refused whole (nothing to perform) when
 * any block holds anything outside the whitelisted subset; the refusal names line, column and reason.
 */
export function parsePyautogui(reply: string, options: PyautoguiOptions = {}): ParseOutcome {
  const text = normaliseLineEnds(reply);
  try {
    if (text.length > LIMITS.replyChars)
      throw new Refusal(
        LIMITS.replyChars,
        `the reply is too long (more than ${LIMITS.replyChars} characters)`,
      );
    const actions: Action[] = [];
    const budget = { seconds: 0 };
    for (const piece of splitReply(text, PYTHON_TAGS)) {
      if (piece.kind === 'token') {
        actions.push({ type: piece.token });
        continue;
      }
      try {
        actions.push(...actionsOfStatements(parsePython(text, piece.start, piece.end), options, budget));
      } catch (err) {
        if (err instanceof Refusal && !piece.fenced) {
          throw new Refusal(
            err.offset,
            `${err.message} (the reply has no \`\`\`python code block, so all of it was read as code)`,
          );
        }
        throw err;
      }
      if (actions.length > LIMITS.actions)
        throw new Refusal(piece.start, `too many actions in one reply (more than ${LIMITS.actions})`);
    }
    if (actions.length === 0) {
      throw new Refusal(
        0,
        'the reply contains no action: answer with a ```python block of pyautogui calls, or WAIT, DONE or FAIL',
      );
    }
    return { ok: true, actions };
  } catch (err) {
    if (err instanceof Refusal) return refusalOutcome(text, err);
    throw err;
  }
}

/** Typed actions from a reply in either action space. */
export function parseAction(
  space: ActionSpace,
  reply: string | unknown,
  options: ParseOptions = {},
): ParseOutcome {
  if (space === 'pyautogui') {
    if (typeof reply !== 'string')
      return { ok: false, error: { line: 1, col: 1, message: 'a pyautogui action must be code text' } };
    return parsePyautogui(reply, options);
  }
  if (space === 'computer_13') return parseComputer13(reply, options);
  return {
    ok: false,
    error: {
      line: 1,
      col: 1,
      message: `unknown action space '${String(space)}' (known: pyautogui, computer_13)`,
    },
  };
}
