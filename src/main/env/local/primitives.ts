// Every typed Action as a list of primitive input events for the display worker. Coordinates are rounded to
// whole screen pixels and kept on the screen. Scroll follows pyautogui: positive dy scrolls up, positive dx
// scrolls right, one unit = one wheel click.
import type { Action } from '../../../shared/run';
import type { MouseButton, WorkerOp } from './worker-protocol';
import { keySpec } from './keys';

export type Primitive =
  | Extract<WorkerOp, { op: 'move' | 'button' | 'scroll' | 'key' | 'type' }>
  /** Relative move, resolved against the pointer position when it runs. */
  | { op: 'moveRel'; dx: number; dy: number }
  | { op: 'sleep'; ms: number };

export class InvalidActionError extends Error {
  constructor(
    readonly action: unknown,
    reason: string,
  ) {
    super(`cannot perform ${JSON.stringify(action)}: ${reason}`);
    this.name = 'InvalidActionError';
  }
}

const MAX_SLEEP_S = 600;
const MAX_REPEAT = 1000;

export interface ScreenBox {
  width: number;
  height: number;
}

function num(a: Action, v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new InvalidActionError(a, `${what} must be a finite number`);
  return v;
}

function count(a: Action, v: unknown, what: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = num(a, v, what);
  if (!Number.isInteger(n) || n < 0 || n > MAX_REPEAT)
    throw new InvalidActionError(a, `${what} must be a whole number 0..${MAX_REPEAT}`);
  return n;
}

function seconds(a: Action, v: unknown, what: string): number {
  if (v === undefined) return 0;
  const s = num(a, v, what);
  if (s < 0 || s > MAX_SLEEP_S)
    throw new InvalidActionError(a, `${what} must be between 0 and ${MAX_SLEEP_S} seconds`);
  return s;
}

function button(a: Action, b: unknown): MouseButton {
  if (b === undefined) return 'left';
  if (b === 'left' || b === 'right' || b === 'middle') return b;
  throw new InvalidActionError(a, `button must be left, right or middle`);
}

function point(a: Action, x: unknown, y: unknown, screen: ScreenBox): { x: number; y: number } {
  const px = Math.round(num(a, x, 'x'));
  const py = Math.round(num(a, y, 'y'));
  return { x: Math.min(Math.max(px, 0), screen.width - 1), y: Math.min(Math.max(py, 0), screen.height - 1) };
}

/** A pointer path over `duration` seconds (a single jump when 0), ~60 events per second. */
function glide(to: { x: number; y: number }, duration: number, from?: { x: number; y: number }): Primitive[] {
  if (!duration || !from) return [{ op: 'move', ...to }];
  const steps = Math.max(2, Math.min(240, Math.round(duration * 60)));
  const out: Primitive[] = [];
  for (let i = 1; i <= steps; i++) {
    out.push({
      op: 'move',
      x: Math.round(from.x + ((to.x - from.x) * i) / steps),
      y: Math.round(from.y + ((to.y - from.y) * i) / steps),
    });
    if (i < steps) out.push({ op: 'sleep', ms: (duration * 1000) / steps });
  }
  return out;
}

/** A drag: press, a few motion events (toolkits need motion to start a drag), release. */
function drag(
  to: { x: number; y: number },
  b: MouseButton,
  duration: number,
  from: { x: number; y: number },
): Primitive[] {
  const steps = duration ? Math.max(4, Math.min(240, Math.round(duration * 60))) : 8;
  const out: Primitive[] = [{ op: 'button', button: b, down: true }];
  for (let i = 1; i <= steps; i++) {
    out.push({
      op: 'move',
      x: Math.round(from.x + ((to.x - from.x) * i) / steps),
      y: Math.round(from.y + ((to.y - from.y) * i) / steps),
    });
    out.push({ op: 'sleep', ms: duration ? (duration * 1000) / steps : 5 });
  }
  out.push({ op: 'button', button: b, down: false });
  return out;
}

/**
 * The primitives of one action. `pointer` is the pointer position before it (needed for glides and drags);
 * relative moves compile to `moveRel` when no position is given.
 */
export function compileAction(a: Action, screen: ScreenBox, pointer?: { x: number; y: number }): Primitive[] {
  if (typeof a !== 'object' || a === null) throw new InvalidActionError(a, 'an action must be an object');
  switch (a.type) {
    case 'click': {
      const out: Primitive[] = [];
      if (a.x !== undefined || a.y !== undefined) out.push({ op: 'move', ...point(a, a.x, a.y, screen) });
      const b = button(a, a.button);
      const n = count(a, a.clicks, 'clicks', 1);
      const gap = seconds(a, a.interval, 'interval');
      for (let i = 0; i < n; i++) {
        out.push({ op: 'button', button: b, down: true }, { op: 'button', button: b, down: false });
        if (gap && i < n - 1) out.push({ op: 'sleep', ms: gap * 1000 });
      }
      return out;
    }
    case 'moveTo':
      return glide(point(a, a.x, a.y, screen), seconds(a, a.duration, 'duration'), pointer);
    case 'moveRel': {
      const dx = Math.round(num(a, a.dx, 'dx'));
      const dy = Math.round(num(a, a.dy, 'dy'));
      if (!pointer) return [{ op: 'moveRel', dx, dy }];
      return glide(
        point(a, pointer.x + dx, pointer.y + dy, screen),
        seconds(a, a.duration, 'duration'),
        pointer,
      );
    }
    case 'dragTo':
    case 'dragRel': {
      if (!pointer) throw new InvalidActionError(a, 'a drag needs the pointer position');
      const to =
        a.type === 'dragTo'
          ? point(a, a.x, a.y, screen)
          : point(a, pointer.x + num(a, a.dx, 'dx'), pointer.y + num(a, a.dy, 'dy'), screen);
      return drag(to, button(a, a.button), seconds(a, a.duration, 'duration'), pointer);
    }
    case 'mouseDown':
    case 'mouseUp': {
      const out: Primitive[] = [];
      if (a.x !== undefined || a.y !== undefined) out.push({ op: 'move', ...point(a, a.x, a.y, screen) });
      out.push({ op: 'button', button: button(a, a.button), down: a.type === 'mouseDown' });
      return out;
    }
    case 'scroll': {
      const out: Primitive[] = [];
      if (a.x !== undefined || a.y !== undefined) out.push({ op: 'move', ...point(a, a.x, a.y, screen) });
      const dx = Math.round(num(a, a.dx, 'dx'));
      const dy = Math.round(num(a, a.dy, 'dy'));
      if (Math.abs(dx) > MAX_REPEAT || Math.abs(dy) > MAX_REPEAT)
        throw new InvalidActionError(a, `scroll by at most ${MAX_REPEAT} clicks`);
      if (dx || dy) out.push({ op: 'scroll', dx, dy });
      return out;
    }
    case 'write': {
      if (typeof a.text !== 'string') throw new InvalidActionError(a, 'text must be a string');
      if (a.text.length === 0) return [];
      return [{ op: 'type', text: a.text, intervalMs: seconds(a, a.interval, 'interval') * 1000 }];
    }
    case 'press': {
      if (!Array.isArray(a.keys) || a.keys.length === 0)
        throw new InvalidActionError(a, 'keys must be a non-empty list');
      const specs = a.keys.map((k) => keySpec(String(k)));
      const n = count(a, a.presses, 'presses', 1);
      const gap = seconds(a, a.interval, 'interval');
      const out: Primitive[] = [];
      for (let i = 0; i < n; i++) {
        for (const key of specs) {
          out.push({ op: 'key', key, down: true }, { op: 'key', key, down: false });
          if (gap) out.push({ op: 'sleep', ms: gap * 1000 });
        }
      }
      return out;
    }
    case 'hotkey': {
      if (!Array.isArray(a.keys) || a.keys.length === 0)
        throw new InvalidActionError(a, 'keys must be a non-empty list');
      const specs = a.keys.map((k) => keySpec(String(k)));
      return [
        ...specs.map((key) => ({ op: 'key', key, down: true }) as Primitive),
        ...[...specs].reverse().map((key) => ({ op: 'key', key, down: false }) as Primitive),
      ];
    }
    case 'keyDown':
    case 'keyUp':
      return [{ op: 'key', key: keySpec(String(a.key)), down: a.type === 'keyDown' }];
    case 'sleep':
      return [{ op: 'sleep', ms: seconds(a, a.seconds, 'seconds') * 1000 }];
    case 'WAIT':
    case 'DONE':
    case 'FAIL':
      return [];
    default:
      throw new InvalidActionError(a, `unknown action type '${(a as { type?: unknown }).type}'`);
  }
}
