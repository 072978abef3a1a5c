// Where trajectories of one task part ways: the first step whose actions differ from the first run's (by action),
// and the first step whose screen differs (from per-step image differences the engine computes). Pure.
import type { Action, StepRecord } from './run';
import { DEFAULT_SCREEN } from './screen';

/** Pointer coordinates closer than this share of the screen width count as the same place. */
const PLACE_TOLERANCE = 0.01;

/** Actions that change nothing on screen by themselves, left out when comparing. */
const idle = new Set<Action['type']>(['sleep', 'WAIT']);

function near(a: number | undefined, b: number | undefined, tol: number): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Math.abs(a - b) <= tol;
}

/** Whether two actions do the same thing (coordinates within the tolerance, texts and keys equal). */
export function sameAction(a: Action, b: Action, tol: number): boolean {
  if (a.type !== b.type) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
    if (k === 'type' || k === 'duration' || k === 'interval') continue;
    const u = x[k];
    const v = y[k];
    if (k === 'x' || k === 'y' || k === 'dx' || k === 'dy') {
      if (!near(u as number | undefined, v as number | undefined, tol)) return false;
    } else if (JSON.stringify(u) !== JSON.stringify(v)) return false;
  }
  return true;
}

/** `b`'s pointer coordinates moved onto a screen of size `to` from its own `from` (runs at different screen sizes). */
function scaledTo(b: Action, from: StepRecord['screen'], to: StepRecord['screen']): Action {
  if (!from || !to || (from.width === to.width && from.height === to.height)) return b;
  const sx = to.width / from.width;
  const sy = to.height / from.height;
  const y = { ...(b as Record<string, unknown>) };
  if (typeof y.x === 'number') y.x *= sx;
  if (typeof y.y === 'number') y.y *= sy;
  if (b.type !== 'scroll') {
    if (typeof y.dx === 'number') y.dx *= sx; // relative moves are pixels; scroll amounts are wheel clicks
    if (typeof y.dy === 'number') y.dy *= sy;
  }
  return y as unknown as Action;
}

/** Whether two steps perform the same actions (idle ones left out); at different screen sizes, at the same place on screen. */
export function sameStepActions(a: StepRecord, b: StepRecord): boolean {
  const width = a.screen?.width ?? b.screen?.width ?? DEFAULT_SCREEN.width;
  const tol = Math.max(2, width * PLACE_TOLERANCE);
  const xs = a.actions.filter((x) => !idle.has(x.type));
  const ys = b.actions.filter((y) => !idle.has(y.type)).map((y) => scaledTo(y, b.screen, a.screen));
  return xs.length === ys.length && xs.every((x, i) => sameAction(x, ys[i], tol));
}

/**
 * The first step (1-based) at which any run's actions differ from the first run's, or at which one run has a
 * step and another has ended; undefined when every run does the same thing throughout.
 */
export function firstActionDivergence(runs: readonly (readonly StepRecord[])[]): number | undefined {
  if (runs.length < 2) return undefined;
  const [first, ...others] = runs;
  const longest = Math.max(...runs.map((r) => r.length));
  for (let i = 0; i < longest; i++) {
    const a = first[i];
    for (const other of others) {
      const b = other[i];
      if (!a || !b || !sameStepActions(a, b)) return i + 1;
    }
  }
  return undefined;
}

/**
 * The first step (1-based) at which any run's screen differs from the first run's by more than `threshold`;
 * `diffs[r][i]` is run r+1's difference at step i+1 (null where either has no screenshot).
 */
export function firstScreenDivergence(
  diffs: readonly (readonly (number | null)[])[],
  threshold: number,
): number | undefined {
  const longest = Math.max(0, ...diffs.map((d) => d.length));
  for (let i = 0; i < longest; i++) if (diffs.some((d) => (d[i] ?? 0) > threshold)) return i + 1;
  return undefined;
}
