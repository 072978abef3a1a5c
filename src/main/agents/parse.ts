// From a reply (model text, oracle line, human entry) to typed actions: the action parser of src/main/actions
// reads the whole reply (fences, WAIT / DONE / FAIL, the whitelisted calls; never run); coordinates are then
// mapped from the image the model saw back to screen pixels.
import type { Action } from '../../shared/run';
import { parseAction, scaleActions } from '../actions';
import { readReply } from './reply';
import type { ActionSpace } from '../../shared/spaces';

export type ParsedReply =
  { ok: true; actions: Action[]; rawAction: unknown } | { ok: false; message: string; rawAction: unknown };

/** The action as the agent gave it: the code of its blocks (pyautogui) or its dict(s) (computer_13). */
export function rawActionOf(reply: string, space: ActionSpace): unknown {
  const read = readReply(reply, space);
  if (!read.ok) return reply;
  const codes = read.parts.map((p) => (p.kind === 'code' ? p.code : p.token));
  if (space === 'pyautogui') return codes.join('\n');
  const dicts = codes.map((c) => {
    try {
      return JSON.parse(c) as unknown;
    } catch {
      return c;
    }
  });
  return dicts.length === 1 ? dicts[0] : dicts;
}

/**
 * Reads and parses a reply. `bindings` and `bounds` are in the pixels of the image the model saw; `toScreen`
 * multiplies the parsed coordinates back to screen pixels (1 when the model saw the screen at full size).
 */
export function parseReply(
  reply: string,
  space: ActionSpace,
  options: {
    bindings?: Record<string, { x: number; y: number }>;
    bounds?: { width: number; height: number };
    toScreen?: number;
  } = {},
): ParsedReply {
  const rawAction = rawActionOf(reply, space);
  const outcome = parseAction(space, reply, { bindings: options.bindings ?? {}, bounds: options.bounds });
  if (!outcome.ok) return { ok: false, message: outcome.error.message, rawAction };
  const toScreen = options.toScreen ?? 1;
  return {
    ok: true,
    actions: toScreen === 1 ? outcome.actions : scaleActions(outcome.actions, toScreen),
    rawAction,
  };
}
