// Names that are members of every JavaScript object are just unknown names to the parsers.
import { describe, expect, it } from 'vitest';
import { parseComputer13, parsePyautogui } from '.';

const names = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__proto__',
  '__defineGetter__',
  'isPrototypeOf',
];

describe('object member names in model output', () => {
  it.each(names)('pyautogui.%s() is refused with a reason, not a crash', (name) => {
    const r = parsePyautogui(`pyautogui.${name}(1)`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/not a supported function|not available|not allowed/);
  });
  it.each(names)("pyautogui.press('%s') is an unknown key", (name) => {
    const r = parsePyautogui(`pyautogui.press('${name}')`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/key/i);
  });
  it.each(names)('a bare %s() is refused', (name) => {
    expect(parsePyautogui(`${name}()`).ok).toBe(false);
  });
  it.each(names)('computer_13 action_type %s is unknown', (name) => {
    const r = parseComputer13({ action_type: name });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toMatch(/unknown action_type/);
  });
});
