// Property-style tests: typed actions → pyautogui code → typed actions gives back the same actions, for
// thousands of generated actions (seeded, so a failure reproduces), and model code → actions → code → actions
// is stable over the whole corpus.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../shared/run';
import {
  actionsToPyautogui,
  describeAction,
  KEYBOARD_KEYS,
  LIMITS,
  normaliseKey,
  parsePyautogui,
  scaleActions,
  toPyautogui,
  waitingSeconds,
} from './index';

/** mulberry32: a small seeded generator. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CANONICAL_KEYS = [...new Set(KEYBOARD_KEYS.map(normaliseKey)), 'A', 'Z', 'Q'];
const TEXT_PIECES = [
  'a',
  'Z',
  ' ',
  "'",
  '"',
  '\\',
  '\n',
  '\r',
  '\t',
  '\x00',
  '\x1b',
  '\x7f',
  'é',
  'ß',
  '€',
  '日本',
  '🙂',
  '\u200b',
  '\u202e',
  '\u2028',
  '\ud800',
  '#',
  ';',
  '```',
  '{x}',
  '\\n',
  "'''",
  '"""',
];

function generate(r: () => number): Action {
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const coord = () => (r() < 0.7 ? int(0, 3840) : Math.round(r() * 384000) / 100);
  const signed = () => int(-2000, 2000);
  const maybe = <T>(v: () => T): T | undefined => (r() < 0.5 ? v() : undefined);
  const positive = () => Math.round((0.01 + r() * 9.9) * 100) / 100;
  const compact = <T extends object>(o: T): T =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  const pos = () => (r() < 0.5 ? { x: coord(), y: coord() } : {});
  const button = () => maybe(() => pick(['right', 'middle'] as const));
  const text = () => Array.from({ length: int(0, 12) }, () => pick(TEXT_PIECES)).join('');
  switch (int(0, 15)) {
    case 0:
      return compact({
        type: 'click',
        ...pos(),
        button: button(),
        clicks: maybe(() => int(2, 10)),
        interval: maybe(positive),
      });
    case 1:
      return compact({ type: 'moveTo', x: coord(), y: coord(), duration: maybe(positive) });
    case 2:
      return compact({ type: 'moveRel', dx: signed(), dy: signed(), duration: maybe(positive) });
    case 3:
      return compact({ type: 'dragTo', x: coord(), y: coord(), button: button(), duration: maybe(positive) });
    case 4:
      return compact({
        type: 'dragRel',
        dx: signed(),
        dy: signed(),
        button: button(),
        duration: maybe(positive),
      });
    case 5:
      return compact({ type: 'mouseDown', ...pos(), button: button() });
    case 6:
      return compact({ type: 'mouseUp', ...pos(), button: button() });
    case 7: {
      const amount = int(-200, 200);
      return compact({
        type: 'scroll',
        dx: r() < 0.3 ? amount : 0,
        dy: r() < 0.3 ? 0 : amount,
        ...pos(),
      }) as Action;
    }
    case 8:
      return compact({ type: 'write', text: text(), interval: maybe(positive) });
    case 9:
      return compact({
        type: 'press',
        keys: Array.from({ length: int(1, 5) }, () => pick(CANONICAL_KEYS)),
        presses: maybe(() => int(2, 100)),
        interval: maybe(positive),
      });
    case 10:
      return { type: 'hotkey', keys: Array.from({ length: int(1, 4) }, () => pick(CANONICAL_KEYS)) };
    case 11:
      return { type: 'keyDown', key: pick(CANONICAL_KEYS) };
    case 12:
      return { type: 'keyUp', key: pick(CANONICAL_KEYS) };
    case 13:
      return { type: 'sleep', seconds: Math.round(r() * 6000) / 100 };
    default:
      return { type: pick(['WAIT', 'DONE', 'FAIL'] as const) };
  }
}

describe('toPyautogui', () => {
  it('round-trips 5000 generated actions through parsePyautogui', () => {
    const r = rng(20240607);
    for (let n = 0; n < 5000; n++) {
      let action = generate(r);
      // A single action that waits longer than one reply may is refused by design (corpus: hostile.json).
      while (waitingSeconds(action) > LIMITS.replySeconds) action = generate(r);
      const code = toPyautogui(action);
      const back = parsePyautogui('```python\n' + code + '\n```');
      if (!back.ok) throw new Error(`${JSON.stringify(action)} → ${code} refused: ${back.error.message}`);
      const expected =
        action.type === 'scroll' && action.dx !== 0 && action.dy !== 0
          ? [
              { ...action, dy: 0 },
              { ...action, dx: 0 },
            ]
          : [action];
      expect(back.actions, code).toEqual(expected);
    }
  });

  it('writes a scroll on both axes as hscroll then vscroll', () => {
    const code = toPyautogui({ type: 'scroll', dx: 2, dy: -3, x: 5, y: 6 });
    expect(code).toBe('pyautogui.hscroll(2, x=5, y=6); pyautogui.vscroll(-3, x=5, y=6)');
  });

  it('writes text that cannot break out of its string literal', () => {
    const text = "'); import os; os.system('x'); ('";
    const code = toPyautogui({ type: 'write', text });
    expect(parsePyautogui(code)).toEqual({ ok: true, actions: [{ type: 'write', text }] });
  });

  it('is stable over the corpus: code → actions → code → the same actions', () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'corpus');
    let checked = 0;
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
      const cases = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
        space: string;
        reply: string | null;
        bindings?: Record<string, { x: number; y: number }>;
      }[];
      for (const c of cases) {
        if (c.space !== 'pyautogui' || typeof c.reply !== 'string') continue;
        const first = parsePyautogui(c.reply, { bindings: c.bindings });
        if (!first.ok) continue;
        const again = parsePyautogui(actionsToPyautogui(first.actions));
        expect(again, c.reply).toEqual(first);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('describeAction', () => {
  it('gives one line a person can read', () => {
    expect(describeAction({ type: 'click', x: 100, y: 200 })).toBe('click (100, 200)');
    expect(describeAction({ type: 'click', x: 1, y: 2, button: 'right' })).toBe('right click (1, 2)');
    expect(describeAction({ type: 'click', clicks: 2 })).toBe('double click at the pointer');
    expect(describeAction({ type: 'write', text: 'hello' })).toBe('type "hello"');
    expect(describeAction({ type: 'hotkey', keys: ['ctrl', 'c'] })).toBe('ctrl+c');
    expect(describeAction({ type: 'press', keys: ['tab'], presses: 3 })).toBe('press tab ×3');
    expect(describeAction({ type: 'press', keys: [' '] })).toBe('press space');
    expect(describeAction({ type: 'scroll', dx: 0, dy: -5 })).toBe('scroll down 5');
    expect(describeAction({ type: 'scroll', dx: 0, dy: 3, x: 4, y: 5 })).toBe('scroll up 3 (4, 5)');
    expect(describeAction({ type: 'sleep', seconds: 0.5 })).toBe('sleep 0.5 s');
    expect(describeAction({ type: 'DONE' })).toBe('DONE');
  });

  it('describes every generated action on a single line', () => {
    const r = rng(7);
    for (let n = 0; n < 1000; n++) {
      const line = describeAction(generate(r));
      expect(line.length).toBeGreaterThan(0);
      expect(line).not.toMatch(/[\n\r\u2028]/);
    }
  });
});

describe('scaleActions', () => {
  it('maps model-image pixels to screen pixels, leaving scroll amounts and text alone', () => {
    const actions: Action[] = [
      { type: 'click', x: 100, y: 50, button: 'right' },
      { type: 'click' },
      { type: 'moveTo', x: 10.4, y: 20.6, duration: 1 },
      { type: 'dragRel', dx: -5, dy: 7 },
      { type: 'scroll', dx: 0, dy: -3, x: 3, y: 4 },
      { type: 'write', text: 'x' },
    ];
    expect(scaleActions(actions, 2)).toEqual([
      { type: 'click', x: 200, y: 100, button: 'right' },
      { type: 'click' },
      { type: 'moveTo', x: 21, y: 41, duration: 1 },
      { type: 'dragRel', dx: -10, dy: 14 },
      { type: 'scroll', dx: 0, dy: -3, x: 6, y: 8 },
      { type: 'write', text: 'x' },
    ]);
    expect(actions[0]).toEqual({ type: 'click', x: 100, y: 50, button: 'right' });
  });

  it('refuses a factor that is not a positive number', () => {
    expect(() => scaleActions([], 0)).toThrow(/positive/);
    expect(() => scaleActions([], Number.NaN)).toThrow(/positive/);
  });
});
