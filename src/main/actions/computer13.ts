// The computer_13 action space: JSON dicts {action_type, ...parameters} as OSWorld's ACTION_SPACE defines them
// (desktop_env/actions.py), parameters either at the top level or under "parameters". SCROLL takes OSWorld's
// dx / dy or Spider2-V's clicks. Each dict is validated and mapped onto the typed actions.
import { closest } from 'fastest-levenshtein';
import type { Action } from '../../shared/run';
import { splitReply } from './fences';
import { readJson, type JsonValue } from './json';
import { normaliseKey, UnknownKeyError } from './keys';
import { LIMITS } from './limits';
import { normaliseLineEnds, Refusal, refusalOutcome, type ParseOutcome } from './refusal';
import { lookupTable } from './lookup';

export interface Computer13Options {
  /** When given, x / y outside 0..width / 0..height are refused (OSWorld's X_MAX / Y_MAX). */
  bounds?: { width: number; height: number };
  /** Accepted for symmetry with the pyautogui space; computer_13 has no SoM names. */
  bindings?: Record<string, { x: number; y: number }>;
}

type ParamKind = 'x' | 'y' | 'button' | 'num_clicks' | 'clicks' | 'text' | 'key' | 'keys';

interface TypeSpec {
  params: Record<string, { kind: ParamKind; required: boolean }>;
  build(p: Record<string, unknown>): Action;
}

const opt = (kind: ParamKind) => ({ kind, required: false });
const req = (kind: ParamKind) => ({ kind, required: true });
const xy = { x: opt('x'), y: opt('y') };

function at(p: Record<string, unknown>): { x?: number; y?: number } {
  return p.x === undefined ? {} : { x: p.x as number, y: p.y as number };
}
function btn(p: Record<string, unknown>): { button?: 'right' | 'middle' } {
  return p.button === 'right' || p.button === 'middle' ? { button: p.button } : {};
}

/** OSWorld's action types with their parameters. */
export const COMPUTER13_ACTIONS: Readonly<Record<string, TypeSpec>> = lookupTable<TypeSpec>({
  MOVE_TO: {
    params: { x: req('x'), y: req('y') },
    build: (p) => ({ type: 'moveTo', x: p.x as number, y: p.y as number }),
  },
  CLICK: {
    params: { button: opt('button'), ...xy, num_clicks: opt('num_clicks') },
    build: (p) => ({
      type: 'click',
      ...at(p),
      ...btn(p),
      ...(p.num_clicks !== undefined && p.num_clicks !== 1 ? { clicks: p.num_clicks as number } : {}),
    }),
  },
  MOUSE_DOWN: { params: { button: opt('button') }, build: (p) => ({ type: 'mouseDown', ...btn(p) }) },
  MOUSE_UP: { params: { button: opt('button') }, build: (p) => ({ type: 'mouseUp', ...btn(p) }) },
  RIGHT_CLICK: { params: xy, build: (p) => ({ type: 'click', ...at(p), button: 'right' }) },
  DOUBLE_CLICK: { params: xy, build: (p) => ({ type: 'click', ...at(p), clicks: 2 }) },
  DRAG_TO: {
    params: { x: req('x'), y: req('y') },
    build: (p) => ({ type: 'dragTo', x: p.x as number, y: p.y as number }),
  },
  SCROLL: {
    params: { dx: opt('clicks'), dy: opt('clicks'), clicks: opt('clicks') },
    build: (p) => ({
      type: 'scroll',
      dx: (p.dx as number | undefined) ?? 0,
      dy: (p.dy as number | undefined) ?? (p.clicks as number | undefined) ?? 0,
    }),
  },
  TYPING: { params: { text: req('text') }, build: (p) => ({ type: 'write', text: p.text as string }) },
  PRESS: { params: { key: req('key') }, build: (p) => ({ type: 'press', keys: [p.key as string] }) },
  KEY_DOWN: { params: { key: req('key') }, build: (p) => ({ type: 'keyDown', key: p.key as string }) },
  KEY_UP: { params: { key: req('key') }, build: (p) => ({ type: 'keyUp', key: p.key as string }) },
  HOTKEY: { params: { keys: req('keys') }, build: (p) => ({ type: 'hotkey', keys: p.keys as string[] }) },
  WAIT: { params: {}, build: () => ({ type: 'WAIT' }) },
  FAIL: { params: {}, build: () => ({ type: 'FAIL' }) },
  DONE: { params: {}, build: () => ({ type: 'DONE' }) },
});

type Where = (pointer: string) => number;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkParam(
  name: string,
  kind: ParamKind,
  v: unknown,
  pointer: string,
  where: Where,
  options: Computer13Options,
): unknown {
  const fail = (msg: string): never => {
    throw new Refusal(where(pointer), `"${name}" ${msg}`);
  };
  switch (kind) {
    case 'x':
    case 'y': {
      if (typeof v !== 'number' || !Number.isFinite(v))
        return fail(`must be a number, not ${JSON.stringify(v)}`);
      const max = options.bounds ? (kind === 'x' ? options.bounds.width : options.bounds.height) : Infinity;
      if (v < 0 || v > max)
        return fail(`must be between 0 and ${max === Infinity ? 'the screen size' : max}, not ${v}`);
      return v;
    }
    case 'button':
      if (v !== 'left' && v !== 'right' && v !== 'middle')
        return fail(`must be "left", "right" or "middle", not ${JSON.stringify(v)}`);
      return v;
    case 'num_clicks':
      if (v !== 1 && v !== 2 && v !== 3) return fail(`must be 1, 2 or 3, not ${JSON.stringify(v)}`);
      return v;
    case 'clicks':
      if (typeof v !== 'number' || !Number.isInteger(v))
        return fail(`must be a whole number, not ${JSON.stringify(v)}`);
      if (Math.abs(v) > LIMITS.scrollClicks)
        return fail(`must be between -${LIMITS.scrollClicks} and ${LIMITS.scrollClicks}`);
      return v;
    case 'text':
      if (typeof v !== 'string') return fail(`must be a string, not ${JSON.stringify(v)}`);
      if (v.length > LIMITS.textChars) return fail(`is too long (at most ${LIMITS.textChars} characters)`);
      return v;
    case 'key':
      if (typeof v !== 'string')
        return fail(`must be a key name string such as "enter", not ${JSON.stringify(v)}`);
      try {
        return normaliseKey(v);
      } catch (err) {
        if (err instanceof UnknownKeyError) return fail(`is not a known key: ${err.message}`);
        throw err;
      }
    case 'keys': {
      if (!Array.isArray(v) || v.length === 0)
        return fail('must be a non-empty list of key names such as ["ctrl", "c"]');
      if (v.length > LIMITS.keys) return fail(`has more than ${LIMITS.keys} keys`);
      return v.map((k, i) => checkParam(`${name}[${i}]`, 'key', k, `${pointer}/${i}`, where, options));
    }
  }
}

/** One computer_13 dict → a typed action. `pointer` is the dict's JSON pointer in the reply. */
function actionOfDict(v: unknown, pointer: string, where: Where, options: Computer13Options): Action {
  if (typeof v === 'string' && (v === 'WAIT' || v === 'DONE' || v === 'FAIL')) return { type: v };
  if (!isObject(v))
    throw new Refusal(
      where(pointer),
      `an action must be a JSON object such as {"action_type": "CLICK", "x": 100, "y": 200}, not ${JSON.stringify(v)?.slice(0, 40)}`,
    );
  const type = v.action_type;
  if (type === undefined) throw new Refusal(where(pointer), 'the action has no "action_type"');
  if (typeof type !== 'string')
    throw new Refusal(where(`${pointer}/action_type`), '"action_type" must be a string');
  const spec = COMPUTER13_ACTIONS[type];
  if (!spec) {
    throw new Refusal(
      where(`${pointer}/action_type`),
      `unknown action_type "${type}" (closest: "${closest(type.toUpperCase(), Object.keys(COMPUTER13_ACTIONS))}"); known: ${Object.keys(COMPUTER13_ACTIONS).join(', ')}`,
    );
  }
  let params: Record<string, unknown>;
  let base: string;
  if (isObject(v.parameters)) {
    const extra = Object.keys(v).filter((k) => k !== 'action_type' && k !== 'parameters');
    if (extra.length)
      throw new Refusal(
        where(`${pointer}/${extra[0]}`),
        `"${extra[0]}" must go inside "parameters" (or put all parameters at the top level)`,
      );
    params = v.parameters;
    base = `${pointer}/parameters`;
  } else {
    if (v.parameters !== undefined)
      throw new Refusal(where(`${pointer}/parameters`), '"parameters" must be a JSON object');
    params = Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'action_type'));
    base = pointer;
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const p = spec.params[name];
    if (!p) {
      const names = Object.keys(spec.params);
      const hint = names.length
        ? `; ${type} takes ${names.join(', ')} (closest: "${closest(name, names)}")`
        : `; ${type} takes no parameters`;
      throw new Refusal(where(`${base}/${name}`), `unknown parameter "${name}"${hint}`);
    }
    if (value === null) continue;
    out[name] = checkParam(name, p.kind, value, `${base}/${name}`, where, options);
  }
  for (const [name, p] of Object.entries(spec.params)) {
    if (p.required && out[name] === undefined)
      throw new Refusal(where(pointer), `${type} needs the parameter "${name}"`);
  }
  if ((out.x === undefined) !== (out.y === undefined))
    throw new Refusal(where(pointer), `${type}: give both "x" and "y", or neither`);
  if (type === 'SCROLL') {
    if (out.clicks !== undefined && (out.dx !== undefined || out.dy !== undefined))
      throw new Refusal(where(pointer), 'SCROLL: give either "clicks" or "dx" / "dy", not both');
    if (out.clicks === undefined && out.dx === undefined && out.dy === undefined)
      throw new Refusal(
        where(pointer),
        'SCROLL needs "dy" (and/or "dx"), the wheel clicks; positive dy scrolls up',
      );
  }
  return spec.build(out);
}

function actionsOfValue(
  v: JsonValue | unknown,
  pointer: string,
  where: Where,
  options: Computer13Options,
): Action[] {
  if (Array.isArray(v)) {
    if (v.length > LIMITS.actions)
      throw new Refusal(where(pointer), `too many actions (more than ${LIMITS.actions})`);
    return v.map((item, i) => actionOfDict(item, `${pointer}/${i}`, where, options));
  }
  return [actionOfDict(v, pointer, where, options)];
}

/** computer_13 actions from a model reply (JSON in ```json fences, bare JSON, WAIT/DONE/FAIL) or from a parsed dict. */
export function parseComputer13(reply: string | unknown, options: Computer13Options = {}): ParseOutcome {
  if (typeof reply !== 'string') {
    try {
      return { ok: true, actions: actionsOfValue(reply, '', () => 0, options) };
    } catch (err) {
      if (err instanceof Refusal) return { ok: false, error: { line: 1, col: 1, message: err.message } };
      throw err;
    }
  }
  const text = normaliseLineEnds(reply);
  try {
    if (text.length > LIMITS.replyChars)
      throw new Refusal(
        LIMITS.replyChars,
        `the reply is too long (more than ${LIMITS.replyChars} characters)`,
      );
    const actions: Action[] = [];
    const pieces = splitReply(text, new Set(['', 'json', 'json5', 'jsonc']));
    for (const [n, piece] of pieces.entries()) {
      if (piece.kind === 'token') {
        actions.push({ type: piece.token });
        continue;
      }
      const body = text.slice(piece.start, piece.end).trim();
      if (body === 'WAIT' || body === 'DONE' || body === 'FAIL') {
        actions.push({ type: body });
        continue;
      }
      if (!piece.fenced && body === '') break;
      try {
        const { value, places } = readJson(text, piece.start, piece.end);
        const where: Where = (pointer) => {
          for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
            const o = places.get(p);
            if (o !== undefined) return o;
            if (p === '') return piece.start;
          }
        };
        actions.push(...actionsOfValue(value, '', where, options));
      } catch (err) {
        if (err instanceof Refusal && !piece.fenced) {
          throw new Refusal(
            err.offset,
            `${err.message} (the reply has no \`\`\`json block, so all of it was read as one JSON action)`,
          );
        }
        if (err instanceof Refusal && pieces.length > 1)
          throw new Refusal(err.offset, `block ${n + 1}: ${err.message}`);
        throw err;
      }
      if (actions.length > LIMITS.actions)
        throw new Refusal(piece.start, `too many actions (more than ${LIMITS.actions})`);
    }
    if (actions.length === 0)
      throw new Refusal(
        0,
        'the reply contains no action: answer with a ```json action dict, or WAIT, DONE or FAIL',
      );
    return { ok: true, actions };
  } catch (err) {
    if (err instanceof Refusal) return refusalOutcome(text, err);
    throw err;
  }
}
