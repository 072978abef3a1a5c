// Typed actions back to words and code: describeAction() for people (one line), toPyautogui() for traj.jsonl
// and oracle files (pyautogui code that parsePyautogui reads back to the same actions), scaleActions() from
// model-image pixels to screen pixels.
import type { Action } from '../../shared/run';
export { describeAction } from '../../shared/describe-action';

/** A Python string literal for any text (single quotes, escapes for control characters and quotes). */
export function pyString(s: string): string {
  let out = "'";
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === "'") out += "\\'";
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '`')
      out += '\\x60'; // so that code never holds a ``` fence
    else if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0))
      out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\u' + cp.toString(16).padStart(4, '0');
    else if (cp === 0x2028 || cp === 0x2029 || cp === 0x85) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + "'";
}

/** A Python number literal. */
export function pyNumber(n: number): string {
  if (!Number.isFinite(n)) throw new Error(`cannot write ${n} as a Python number`);
  return Object.is(n, -0) ? '0' : String(n);
}

function call(
  fn: string,
  positional: (string | undefined)[],
  keywords: Record<string, string | undefined>,
): string {
  const parts = positional.filter((p): p is string => p !== undefined);
  for (const [k, v] of Object.entries(keywords)) if (v !== undefined) parts.push(`${k}=${v}`);
  return `${fn}(${parts.join(', ')})`;
}

const num = (n: number | undefined): string | undefined => (n === undefined ? undefined : pyNumber(n));
const btn = (b: string | undefined): string | undefined =>
  b === undefined || b === 'left' ? undefined : pyString(b);

/**
 * pyautogui code for one action. parsePyautogui(toPyautogui(a)) gives back [a] for every action in its canonical
 * form (defaults left out), except a scroll on both axes, which is written as hscroll + vscroll (two actions).
 */
export function toPyautogui(action: Action): string {
  switch (action.type) {
    case 'click': {
      const xy =
        action.x !== undefined && action.y !== undefined ? [pyNumber(action.x), pyNumber(action.y)] : [];
      const clicks = action.clicks ?? 1;
      const interval = action.interval ? pyNumber(action.interval) : undefined;
      const button = action.button ?? 'left';
      if (clicks === 1 && button === 'right') return call('pyautogui.rightClick', xy, { interval });
      if (clicks === 1 && button === 'middle') return call('pyautogui.middleClick', xy, { interval });
      if (button === 'left' && clicks === 2) return call('pyautogui.doubleClick', xy, { interval });
      if (button === 'left' && clicks === 3) return call('pyautogui.tripleClick', xy, { interval });
      return call('pyautogui.click', xy, {
        clicks: clicks === 1 ? undefined : pyNumber(clicks),
        interval,
        button: btn(action.button),
      });
    }
    case 'moveTo':
      return call('pyautogui.moveTo', [pyNumber(action.x), pyNumber(action.y)], {
        duration: num(action.duration || undefined),
      });
    case 'moveRel':
      return call('pyautogui.moveRel', [pyNumber(action.dx), pyNumber(action.dy)], {
        duration: num(action.duration || undefined),
      });
    case 'dragTo':
      return call('pyautogui.dragTo', [pyNumber(action.x), pyNumber(action.y)], {
        duration: num(action.duration || undefined),
        button: btn(action.button),
      });
    case 'dragRel':
      return call('pyautogui.dragRel', [pyNumber(action.dx), pyNumber(action.dy)], {
        duration: num(action.duration || undefined),
        button: btn(action.button),
      });
    case 'mouseDown':
    case 'mouseUp': {
      const xy =
        action.x !== undefined && action.y !== undefined ? [pyNumber(action.x), pyNumber(action.y)] : [];
      return call(`pyautogui.${action.type}`, xy, { button: btn(action.button) });
    }
    case 'scroll': {
      const where = { x: num(action.x), y: num(action.y) };
      if (action.dx !== 0 && action.dy !== 0) {
        return `${call('pyautogui.hscroll', [pyNumber(action.dx)], where)}; ${call('pyautogui.vscroll', [pyNumber(action.dy)], where)}`;
      }
      if (action.dx !== 0) return call('pyautogui.hscroll', [pyNumber(action.dx)], where);
      return call('pyautogui.scroll', [pyNumber(action.dy)], where);
    }
    case 'write':
      return call('pyautogui.write', [pyString(action.text)], {
        interval: num(action.interval || undefined),
      });
    case 'press': {
      const keys =
        action.keys.length === 1 ? pyString(action.keys[0]) : `[${action.keys.map(pyString).join(', ')}]`;
      return call('pyautogui.press', [keys], {
        presses: action.presses !== undefined && action.presses !== 1 ? pyNumber(action.presses) : undefined,
        interval: num(action.interval || undefined),
      });
    }
    case 'hotkey':
      return call('pyautogui.hotkey', action.keys.map(pyString), {});
    case 'keyDown':
    case 'keyUp':
      return call(`pyautogui.${action.type}`, [pyString(action.key)], {});
    case 'sleep':
      return call('time.sleep', [pyNumber(action.seconds)], {});
    case 'WAIT':
    case 'DONE':
    case 'FAIL':
      return action.type;
  }
}

/** Code for a list of actions, one statement a line. */
export function actionsToPyautogui(actions: Action[]): string {
  return actions.map(toPyautogui).join('\n');
}

/**
 * Actions with pointer coordinates multiplied by `factor` (model-image pixels → screen pixels), or by
 * `factor.x` across and `factor.y` down (one screen size → another), rounded to whole pixels. Scroll amounts
 * are wheel clicks and stay as they are.
 */
export function scaleActions(actions: Action[], factor: number | { x: number; y: number }): Action[] {
  const f = typeof factor === 'number' ? { x: factor, y: factor } : factor;
  for (const v of [f.x, f.y])
    if (!Number.isFinite(v) || v <= 0)
      throw new Error(`scaleActions: the factor must be a positive number, not ${v}`);
  const sx = (v: number): number => Math.round(v * f.x);
  const sy = (v: number): number => Math.round(v * f.y);
  return actions.map((a): Action => {
    switch (a.type) {
      case 'click':
      case 'mouseDown':
      case 'mouseUp':
      case 'scroll':
        return a.x !== undefined && a.y !== undefined ? { ...a, x: sx(a.x), y: sy(a.y) } : { ...a };
      case 'moveTo':
      case 'dragTo':
        return { ...a, x: sx(a.x), y: sy(a.y) };
      case 'moveRel':
      case 'dragRel':
        return { ...a, dx: sx(a.dx), dy: sy(a.dy) };
      default:
        return { ...a };
    }
  });
}
