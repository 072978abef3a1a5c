// The pyautogui action space: statements parsed by python/parser.ts are checked against a whitelist of
// pyautogui functions with pyautogui's own parameter names and orders, and mapped onto typed actions.
// Arguments must be literals (numbers, strings, True/False/None, lists/tuples of those) or SoM names
// (tag_3 / index_3) that stand for the centre of a marked element.
import { closest } from 'fastest-levenshtein';
import type { Action } from '../../shared/run';
import { normaliseKey, UnknownKeyError } from './keys';
import { LIMITS, waitingSeconds } from './limits';
import { Refusal } from './refusal';
import type { Arg, Expr, Statement } from './python/parser';
import { lookupTable } from './lookup';

export type Point = { x: number; y: number };

export interface PyautoguiOptions {
  /** SoM names (`tag_3`, `index_3`) → element centres, in the same pixels as the reply's coordinates. */
  bindings?: Record<string, Point>;
  /** When given, absolute coordinates outside 0..width-1 / 0..height-1 are refused. */
  bounds?: { width: number; height: number };
}

type Lit =
  | { kind: 'num'; value: number; at: number }
  | { kind: 'str'; value: string; at: number }
  | { kind: 'bool'; value: boolean; at: number }
  | { kind: 'none'; at: number }
  | { kind: 'seq'; items: Lit[]; at: number }
  | { kind: 'point'; x: number; y: number; name: string; at: number }
  | { kind: 'tween'; at: number };

const SPECIAL = new Set(['WAIT', 'DONE', 'FAIL']);

const DANGEROUS_NAMES: Record<string, string> = lookupTable({
  exec: "'exec' is not allowed: write pyautogui calls directly",
  eval: "'eval' is not allowed: write literal values",
  __import__: "'__import__' is not allowed: only pyautogui and time may be used",
  compile: "'compile' is not allowed",
  open: "'open' is not allowed: files cannot be read or written from actions",
  getattr: "'getattr' is not allowed: write pyautogui.<function>(...) directly",
  setattr: "'setattr' is not allowed",
  globals: "'globals' is not allowed",
  locals: "'locals' is not allowed",
  vars: "'vars' is not allowed",
  input: "'input' is not allowed",
  print: "'print' does nothing here: write only the actions to perform",
  breakpoint: "'breakpoint' is not allowed",
});

/** Functions of pyautogui that exist but are not actions; the message says why. */
const NOT_ACTIONS: Record<string, string> = lookupTable({
  screenshot: 'you receive a new screenshot after every step, so pyautogui.screenshot() is not needed',
  locateOnScreen: 'there are no images to locate: give coordinates read from the screenshot',
  locateCenterOnScreen: 'there are no images to locate: give coordinates read from the screenshot',
  locateAllOnScreen: 'there are no images to locate: give coordinates read from the screenshot',
  locate: 'there are no images to locate: give coordinates read from the screenshot',
  position: 'its result cannot be used here: give coordinates read from the screenshot',
  size: 'its result cannot be used here: the screen size is in the task description',
  onScreen: 'its result cannot be used here',
  pixel: 'its result cannot be used here',
  pixelMatchesColor: 'its result cannot be used here',
  alert: 'dialogs are not allowed',
  confirm: 'dialogs are not allowed',
  prompt: 'dialogs are not allowed',
  password: 'dialogs are not allowed',
  hold: "'with pyautogui.hold(...)' is not allowed: use keyDown / keyUp or hotkey",
  countdown: 'use time.sleep(seconds) instead',
  mouseInfo: 'it is not an action',
  displayMousePosition: 'it is not an action',
});

interface Spec {
  params: string[];
  /** Variadic positional parameters (hotkey). */
  rest?: boolean;
  /** Keyword arguments are refused (time.sleep). */
  positionalOnly?: boolean;
  build(a: Args): Action[];
}

/** Parameters accepted everywhere pyautogui accepts them, and ignored. */
const IGNORED = new Set(['logScreenshot', '_pause', 'tween']);

class Args {
  constructor(
    readonly fn: string,
    readonly callAt: number,
    private readonly values: Map<string, Lit>,
    readonly rest: Lit[],
    private readonly options: PyautoguiOptions,
  ) {}

  has(name: string): boolean {
    const v = this.values.get(name);
    return v !== undefined && v.kind !== 'none';
  }
  get(name: string): Lit | undefined {
    const v = this.values.get(name);
    return v === undefined || v.kind === 'none' ? undefined : v;
  }
  private fail(at: number, message: string): never {
    throw new Refusal(at, `${this.fn}(): ${message}`);
  }
  number(name: string, min: number, max: number): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (v.kind !== 'num') this.fail(v.at, `'${name}' must be a number, not ${litType(v)}`);
    if (v.value < min || v.value > max)
      this.fail(v.at, `'${name}' must be between ${min} and ${max}, not ${v.value}`);
    return v.value;
  }
  int(name: string, min: number, max: number): number | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (v.kind !== 'num' || !Number.isInteger(v.value))
      this.fail(v.at, `'${name}' must be a whole number, not ${v.kind === 'num' ? v.value : litType(v)}`);
    if (v.value < min || v.value > max)
      this.fail(v.at, `'${name}' must be between ${min} and ${max}, not ${v.value}`);
    return v.value;
  }
  requireInt(name: string, min: number, max: number): number {
    const n = this.int(name, min, max);
    if (n === undefined) this.fail(this.callAt, `the argument '${name}' is required`);
    return n;
  }
  duration(name: string): number | undefined {
    const d = this.number(name, 0, LIMITS.durationSeconds);
    return d === 0 ? undefined : d;
  }
  bool(name: string): boolean | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (v.kind !== 'bool') this.fail(v.at, `'${name}' must be True or False, not ${litType(v)}`);
    return v.value;
  }
  button(name = 'button'): 'right' | 'middle' | undefined {
    const v = this.get(name);
    if (v === undefined) return undefined;
    if (v.kind === 'str') {
      const b = v.value.toLowerCase();
      if (b === 'left' || b === 'primary') return undefined;
      if (b === 'right' || b === 'secondary') return 'right';
      if (b === 'middle') return 'middle';
    }
    this.fail(v.at, `'${name}' must be 'left', 'right' or 'middle'`);
  }
  /** An absolute position from x / y (numbers, a tuple (x, y) as x, or a SoM name). */
  point(xName = 'x', yName = 'y'): Point | undefined {
    const x = this.get(xName);
    const y = this.get(yName);
    if (x === undefined && y === undefined) return undefined;
    let p: Point;
    if (x !== undefined && (x.kind === 'point' || x.kind === 'seq')) {
      if (y !== undefined)
        this.fail(y.at, `give either a position (x, y) as the first argument or separate x and y, not both`);
      p = x.kind === 'point' ? { x: x.x, y: x.y } : this.pair(x, 'position');
    } else {
      if (x?.kind === 'str')
        this.fail(x.at, 'locating images on screen is not supported: give x and y coordinates');
      if (x === undefined) this.fail(y?.at ?? this.callAt, `'${xName}' is missing: give both x and y`);
      if (y === undefined) this.fail(x.at, `'${yName}' is missing: give both x and y`);
      if (x.kind !== 'num') this.fail(x.at, `'${xName}' must be a number, not ${litType(x)}`);
      if (y.kind !== 'num') this.fail(y.at, `'${yName}' must be a number, not ${litType(y)}`);
      p = { x: x.value, y: y.value };
    }
    const at = x?.at ?? this.callAt;
    if (p.x < 0 || p.y < 0) this.fail(at, `coordinates must not be negative, got (${p.x}, ${p.y})`);
    const b = this.options.bounds;
    if (b && (p.x >= b.width || p.y >= b.height)) {
      this.fail(at, `(${p.x}, ${p.y}) is outside the screen (${b.width}x${b.height})`);
    }
    return p;
  }
  /** A relative offset from xOffset / yOffset (numbers, or a tuple as the first). */
  offset(xName: string, yName: string): { dx: number; dy: number } {
    const x = this.get(xName);
    const y = this.get(yName);
    if (x !== undefined && x.kind === 'point')
      this.fail(x.at, `${x.name} is a position; '${xName}' is an offset in pixels`);
    if (x !== undefined && x.kind === 'seq') {
      if (y !== undefined) this.fail(y.at, 'give either an offset tuple or separate offsets, not both');
      const p = this.pair(x, 'offset');
      return { dx: p.x, dy: p.y };
    }
    if (x !== undefined && x.kind !== 'num')
      this.fail(x.at, `'${xName}' must be a number, not ${litType(x)}`);
    if (y !== undefined && y.kind !== 'num')
      this.fail(y.at, `'${yName}' must be a number, not ${litType(y)}`);
    if (x === undefined && y === undefined) this.fail(this.callAt, `give the offsets ${xName} and ${yName}`);
    return { dx: x?.value ?? 0, dy: (y as { value: number } | undefined)?.value ?? 0 };
  }
  private pair(v: Lit & { kind: 'seq' }, what: string): Point {
    if (v.items.length !== 2 || v.items.some((i) => i.kind !== 'num')) {
      this.fail(v.at, `a ${what} must be a pair of numbers (x, y)`);
    }
    return { x: (v.items[0] as { value: number }).value, y: (v.items[1] as { value: number }).value };
  }
  key(v: Lit): string {
    if (v.kind !== 'str') this.fail(v.at, `a key name must be a string such as 'enter', not ${litType(v)}`);
    try {
      return normaliseKey(v.value);
    } catch (err) {
      if (err instanceof UnknownKeyError) {
        const combo =
          v.value.length > 1 && /[+-]/.test(v.value)
            ? ` (for a combination write pyautogui.hotkey(${v.value
                .split(/[+-]/)
                .map((k) => `'${k.trim().toLowerCase()}'`)
                .join(', ')}))`
            : '';
        this.fail(v.at, err.message + combo);
      }
      throw err;
    }
  }
  keyList(items: Lit[], at: number): string[] {
    if (items.length === 0) this.fail(at, 'give at least one key');
    if (items.length > LIMITS.keys) this.fail(at, `at most ${LIMITS.keys} keys`);
    return items.map((i) => this.key(i));
  }
}

function litType(v: Lit): string {
  switch (v.kind) {
    case 'num':
      return 'a number';
    case 'str':
      return 'a string';
    case 'bool':
      return v.value ? 'True' : 'False';
    case 'none':
      return 'None';
    case 'seq':
      return 'a list';
    case 'point':
      return `the position ${v.name}`;
    case 'tween':
      return 'a tween function';
  }
}

function clickAction(
  a: Args,
  base: { button?: 'right' | 'middle'; clicks?: number },
  withInterval: boolean,
): Action[] {
  const p = a.point();
  const button = base.button ?? a.button();
  const clicks = base.clicks ?? a.int('clicks', 1, LIMITS.clicks) ?? 1;
  const interval = withInterval ? a.number('interval', 0, LIMITS.durationSeconds) : undefined;
  a.duration('duration');
  const action: Action = { type: 'click' };
  if (p) Object.assign(action, p);
  if (button) action.button = button;
  if (clicks !== 1) action.clicks = clicks;
  if (interval) action.interval = interval;
  return [action];
}

function withPoint<T extends Action>(action: T, p: Point | undefined): T {
  return p ? { ...action, x: p.x, y: p.y } : action;
}

function scrollAction(a: Args, axis: 'v' | 'h'): Action[] {
  const clicks = a.requireInt('clicks', -LIMITS.scrollClicks, LIMITS.scrollClicks);
  const p = a.point();
  return [withPoint({ type: 'scroll', dx: axis === 'h' ? clicks : 0, dy: axis === 'v' ? clicks : 0 }, p)];
}

function writeAction(a: Args): Action[] {
  const m = a.get('message');
  const interval = a.number('interval', 0, LIMITS.durationSeconds);
  if (m === undefined) throw new Refusal(a.callAt, `${a.fn}(): the text to type is missing`);
  if (m.kind === 'seq') {
    const keys = a.keyList(m.items, m.at);
    return [{ type: 'press', keys, ...(interval ? { interval } : {}) }];
  }
  if (m.kind !== 'str')
    throw new Refusal(m.at, `${a.fn}(): the text to type must be a string, not ${litType(m)}`);
  if (m.value.length > LIMITS.textChars)
    throw new Refusal(m.at, `${a.fn}(): the text is too long (at most ${LIMITS.textChars} characters)`);
  return [{ type: 'write', text: m.value, ...(interval ? { interval } : {}) }];
}

const CLICK_PARAMS = [
  'x',
  'y',
  'clicks',
  'interval',
  'button',
  'duration',
  'tween',
  'logScreenshot',
  '_pause',
];
const MULTI_CLICK_PARAMS = ['x', 'y', 'interval', 'button', 'duration', 'tween', 'logScreenshot', '_pause'];
const SIDE_CLICK_PARAMS = ['x', 'y', 'interval', 'duration', 'tween', 'logScreenshot', '_pause'];
const MOVE_PARAMS = ['x', 'y', 'duration', 'tween', 'logScreenshot', '_pause'];
const MOVE_REL_PARAMS = ['xOffset', 'yOffset', 'duration', 'tween', 'logScreenshot', '_pause'];
const DRAG_PARAMS = ['x', 'y', 'duration', 'tween', 'button', 'logScreenshot', '_pause', 'mouseDownUp'];
const DRAG_REL_PARAMS = [
  'xOffset',
  'yOffset',
  'duration',
  'tween',
  'button',
  'logScreenshot',
  '_pause',
  'mouseDownUp',
];
const BUTTON_PARAMS = ['x', 'y', 'button', 'duration', 'tween', 'logScreenshot', '_pause'];
const SCROLL_PARAMS = ['clicks', 'x', 'y', 'logScreenshot', '_pause'];
const WRITE_PARAMS = ['message', 'interval', 'logScreenshot', '_pause'];

const moveRel: Spec = {
  params: MOVE_REL_PARAMS,
  build: (a) => {
    const duration = a.duration('duration');
    return [{ type: 'moveRel', ...a.offset('xOffset', 'yOffset'), ...(duration ? { duration } : {}) }];
  },
};
const dragRel: Spec = {
  params: DRAG_REL_PARAMS,
  build: (a) => {
    const duration = a.duration('duration');
    const button = a.button();
    const o = a.offset('xOffset', 'yOffset');
    if (a.bool('mouseDownUp') === false)
      return [{ type: 'moveRel', ...o, ...(duration ? { duration } : {}) }];
    return [{ type: 'dragRel', ...o, ...(button ? { button } : {}), ...(duration ? { duration } : {}) }];
  },
};
const sleepSpec = (positionalOnly: boolean, param: string): Spec => ({
  params: [param],
  positionalOnly,
  build: (a) => {
    const s = a.number(param, 0, LIMITS.sleepSeconds);
    if (s === undefined) throw new Refusal(a.callAt, `${a.fn}(): give the seconds to sleep`);
    return [{ type: 'sleep', seconds: s }];
  },
});
const write: Spec = { params: WRITE_PARAMS, build: writeAction };
const keyUpDown = (type: 'keyDown' | 'keyUp'): Spec => ({
  params: ['key', 'logScreenshot', '_pause'],
  build: (a) => {
    const k = a.get('key');
    if (k === undefined) throw new Refusal(a.callAt, `${a.fn}(): the key is missing`);
    return [{ type, key: a.key(k) }];
  },
});
const buttonUpDown = (type: 'mouseDown' | 'mouseUp'): Spec => ({
  params: BUTTON_PARAMS,
  build: (a) => {
    const p = a.point();
    const button = a.button();
    a.duration('duration');
    return [withPoint({ type, ...(button ? { button } : {}) }, p)];
  },
});

/** The accepted pyautogui functions (aliases included) with pyautogui's parameter order. */
export const PYAUTOGUI_FUNCTIONS: Readonly<Record<string, Spec>> = lookupTable<Spec>({
  click: { params: CLICK_PARAMS, build: (a) => clickAction(a, {}, true) },
  leftClick: { params: SIDE_CLICK_PARAMS, build: (a) => clickAction(a, {}, true) },
  doubleClick: { params: MULTI_CLICK_PARAMS, build: (a) => clickAction(a, { clicks: 2 }, true) },
  tripleClick: { params: MULTI_CLICK_PARAMS, build: (a) => clickAction(a, { clicks: 3 }, true) },
  rightClick: { params: SIDE_CLICK_PARAMS, build: (a) => clickAction(a, { button: 'right' }, true) },
  middleClick: { params: SIDE_CLICK_PARAMS, build: (a) => clickAction(a, { button: 'middle' }, true) },
  moveTo: {
    params: MOVE_PARAMS,
    build: (a) => {
      const p = a.point();
      if (!p) throw new Refusal(a.callAt, 'moveTo(): give the position x, y to move to');
      const duration = a.duration('duration');
      return [{ type: 'moveTo', x: p.x, y: p.y, ...(duration ? { duration } : {}) }];
    },
  },
  moveRel,
  move: moveRel,
  dragTo: {
    params: DRAG_PARAMS,
    build: (a) => {
      const p = a.point();
      if (!p) throw new Refusal(a.callAt, 'dragTo(): give the position x, y to drag to');
      const duration = a.duration('duration');
      const button = a.button();
      if (a.bool('mouseDownUp') === false)
        return [{ type: 'moveTo', x: p.x, y: p.y, ...(duration ? { duration } : {}) }];
      return [
        { type: 'dragTo', x: p.x, y: p.y, ...(button ? { button } : {}), ...(duration ? { duration } : {}) },
      ];
    },
  },
  dragRel,
  drag: dragRel,
  mouseDown: buttonUpDown('mouseDown'),
  mouseUp: buttonUpDown('mouseUp'),
  scroll: { params: SCROLL_PARAMS, build: (a) => scrollAction(a, 'v') },
  vscroll: { params: SCROLL_PARAMS, build: (a) => scrollAction(a, 'v') },
  hscroll: { params: SCROLL_PARAMS, build: (a) => scrollAction(a, 'h') },
  write,
  typewrite: write,
  press: {
    params: ['keys', 'presses', 'interval', 'logScreenshot', '_pause'],
    build: (a) => {
      const k = a.get('keys');
      if (k === undefined) throw new Refusal(a.callAt, 'press(): the key to press is missing');
      const keys = k.kind === 'seq' ? a.keyList(k.items, k.at) : [a.key(k)];
      const presses = a.int('presses', 1, LIMITS.presses) ?? 1;
      const interval = a.number('interval', 0, LIMITS.durationSeconds);
      return [
        { type: 'press', keys, ...(presses !== 1 ? { presses } : {}), ...(interval ? { interval } : {}) },
      ];
    },
  },
  hotkey: {
    params: ['interval', 'logScreenshot', '_pause'],
    rest: true,
    build: (a) => {
      a.number('interval', 0, LIMITS.durationSeconds);
      const first = a.rest[0];
      const items = a.rest.length === 1 && first.kind === 'seq' ? first.items : a.rest;
      return [{ type: 'hotkey', keys: a.keyList(items, first?.at ?? a.callAt) }];
    },
  },
  keyDown: keyUpDown('keyDown'),
  keyUp: keyUpDown('keyUp'),
  sleep: sleepSpec(false, 'seconds'),
});

const TIME_SLEEP = sleepSpec(true, 'secs');

/** Turns an argument expression into a literal; names other than bound SoM names are refused. */
function literal(e: Expr, options: PyautoguiOptions, depth = 0): Lit {
  switch (e.kind) {
    case 'num':
      return { kind: 'num', value: e.value, at: e.at };
    case 'str':
      return { kind: 'str', value: e.value, at: e.at };
    case 'const':
      return e.value === null ? { kind: 'none', at: e.at } : { kind: 'bool', value: e.value, at: e.at };
    case 'list':
    case 'tuple':
      if (depth >= 2) throw new Refusal(e.at, 'lists are nested too deeply');
      if (e.items.length > LIMITS.textChars) throw new Refusal(e.at, 'the list is too long');
      return { kind: 'seq', items: e.items.map((i) => literal(i, options, depth + 1)), at: e.at };
    case 'name':
      return somName(e.name, e.at, options);
    case 'attr':
      if (
        e.object.kind === 'name' &&
        e.object.name === 'pyautogui' &&
        (e.name.startsWith('ease') || e.name === 'linear')
      ) {
        return { kind: 'tween', at: e.at };
      }
      throw new Refusal(
        startOf(e),
        `'${dotted(e)}' is not allowed as an argument: arguments must be literal values`,
      );
    case 'call':
      throw new Refusal(startOf(e), 'calls inside arguments are not allowed: write the literal value');
    case 'starred':
      throw new Refusal(e.at, "'*' unpacking is only allowed for SoM names, e.g. pyautogui.click(*tag_3)");
  }
}

export function isSomName(name: string): boolean {
  const m = /^(tag|index)_(\d{1,6})$/.exec(name);
  return m !== null;
}

function somName(name: string, at: number, options: PyautoguiOptions): Lit {
  if (!isSomName(name)) {
    const danger = DANGEROUS_NAMES[name];
    if (danger) throw new Refusal(at, danger);
    throw new Refusal(
      at,
      `the name '${name}' is not defined: arguments must be literal values (numbers, 'strings', True/False/None, lists) or SoM names like tag_3`,
    );
  }
  const bindings = options.bindings ?? {};
  const [prefix, num] = name.split('_');
  const other = `${prefix === 'tag' ? 'index' : 'tag'}_${num}`;
  const p = bindings[name] ?? bindings[other];
  if (p === undefined) {
    const known = Object.keys(bindings).filter(isSomName);
    if (known.length === 0)
      throw new Refusal(
        at,
        `'${name}' cannot be used: this observation has no numbered marks; give x, y coordinates`,
      );
    const nums = known.map((k) => Number(k.split('_')[1])).sort((a, b) => a - b);
    throw new Refusal(
      at,
      `'${name}' is not a mark on this screen (marks ${prefix}_${nums[0]} to ${prefix}_${nums[nums.length - 1]}); use a marked element or x, y coordinates`,
    );
  }
  return { kind: 'point', x: p.x, y: p.y, name, at };
}

/** Offset where an expression starts (its leftmost name for calls and attribute chains). */
function startOf(e: Expr): number {
  if (e.kind === 'call') return startOf(e.callee);
  if (e.kind === 'attr') return startOf(e.object);
  return e.at;
}

function dotted(e: Expr): string {
  if (e.kind === 'name') return e.name;
  if (e.kind === 'attr') return `${dotted(e.object)}.${e.name}`;
  if (e.kind === 'call') return `${dotted(e.callee)}(...)`;
  return '...';
}

function resolveCallee(e: Expr): { fn: string; spec: Spec } {
  if (e.kind === 'attr' && e.object.kind === 'name') {
    const mod = e.object.name;
    if (mod === 'pyautogui') {
      const spec = PYAUTOGUI_FUNCTIONS[e.name];
      if (spec) return { fn: `pyautogui.${e.name}`, spec };
      const why = NOT_ACTIONS[e.name];
      if (why) throw new Refusal(e.at, `pyautogui.${e.name}() is not available: ${why}`);
      const near = closest(e.name, Object.keys(PYAUTOGUI_FUNCTIONS));
      throw new Refusal(
        e.at,
        `pyautogui.${e.name}() is not a supported function (closest: pyautogui.${near}); supported: ${Object.keys(PYAUTOGUI_FUNCTIONS).join(', ')}`,
      );
    }
    if (mod === 'time') {
      if (e.name === 'sleep') return { fn: 'time.sleep', spec: TIME_SLEEP };
      throw new Refusal(e.at, `time.${e.name}() is not allowed: only time.sleep(seconds) may be used`);
    }
    const hint = ['pg', 'pag', 'gui', 'pyag', 'pya', 'auto'].includes(mod)
      ? `; write pyautogui.${e.name}(...) with the full module name`
      : '';
    throw new Refusal(
      e.object.at,
      `'${mod}.${e.name}' is not allowed: only pyautogui.<function>(...) and time.sleep(...) may be called${hint}`,
    );
  }
  if (e.kind === 'attr') {
    let root: Expr = e;
    while (root.kind === 'attr' || root.kind === 'call')
      root = root.kind === 'attr' ? root.object : root.callee;
    if (root.kind === 'name' && DANGEROUS_NAMES[root.name])
      throw new Refusal(root.at, DANGEROUS_NAMES[root.name]);
    throw new Refusal(
      e.at,
      `'${dotted(e)}' is not allowed: attribute access is limited to pyautogui.<function> and time.sleep`,
    );
  }
  if (e.kind === 'name') {
    const danger = DANGEROUS_NAMES[e.name];
    if (danger) throw new Refusal(e.at, danger);
    if (PYAUTOGUI_FUNCTIONS[e.name])
      throw new Refusal(e.at, `'${e.name}' is not defined: write pyautogui.${e.name}(...)`);
    if (e.name === 'sleep') throw new Refusal(e.at, "'sleep' is not defined: write time.sleep(seconds)");
    throw new Refusal(
      e.at,
      `calling '${e.name}' is not allowed: only pyautogui.<function>(...) and time.sleep(...) may be called`,
    );
  }
  let root: Expr = e;
  while (root.kind === 'attr' || root.kind === 'call')
    root = root.kind === 'attr' ? root.object : root.callee;
  if (root.kind === 'name' && DANGEROUS_NAMES[root.name])
    throw new Refusal(root.at, DANGEROUS_NAMES[root.name]);
  throw new Refusal(
    startOf(e),
    `'${dotted(e)}' is not allowed: only pyautogui.<function>(...) and time.sleep(...) may be called`,
  );
}

function bindArgs(fn: string, spec: Spec, args: Arg[], callAt: number, options: PyautoguiOptions): Args {
  const values = new Map<string, Lit>();
  const rest: Lit[] = [];
  const positional: Lit[] = [];
  for (const arg of args) {
    if (arg.name !== undefined) continue;
    if (arg.value.kind === 'starred') {
      const inner = arg.value.value;
      if (inner.kind !== 'name' || !isSomName(inner.name)) {
        throw new Refusal(
          arg.at,
          "'*' unpacking is only allowed for SoM names, e.g. pyautogui.click(*tag_3)",
        );
      }
      const p = somName(inner.name, inner.at, options) as Lit & { kind: 'point' };
      positional.push({ kind: 'num', value: p.x, at: inner.at }, { kind: 'num', value: p.y, at: inner.at });
      continue;
    }
    positional.push(literal(arg.value, options));
  }
  if (spec.rest) rest.push(...positional);
  else {
    if (positional.length > spec.params.length) {
      throw new Refusal(
        positional[spec.params.length].at,
        `${fn}() takes at most ${spec.params.length} positional arguments (${spec.params.join(', ')}), got ${positional.length}`,
      );
    }
    positional.forEach((v, i) => values.set(spec.params[i], v));
  }
  for (const arg of args) {
    if (arg.name === undefined) continue;
    if (spec.positionalOnly)
      throw new Refusal(
        arg.at,
        `${fn}() takes no keyword arguments: write ${fn}(${spec.params[0] === 'secs' ? '1' : '...'})`,
      );
    if (!spec.params.includes(arg.name)) {
      const near = closest(arg.name, spec.params);
      throw new Refusal(
        arg.at,
        `${fn}() has no parameter '${arg.name}' (closest: '${near}'); its parameters are ${spec.params.filter((p) => !p.startsWith('_') && p !== 'logScreenshot').join(', ')}`,
      );
    }
    if (values.has(arg.name)) throw new Refusal(arg.at, `${fn}() got two values for '${arg.name}'`);
    values.set(arg.name, literal(arg.value, options));
  }
  for (const name of IGNORED) {
    const v = values.get(name);
    if (v === undefined) continue;
    if (name === 'tween' && v.kind !== 'tween' && v.kind !== 'none')
      throw new Refusal(
        v.at,
        `${fn}(): 'tween' must be a pyautogui easing function such as pyautogui.easeInQuad`,
      );
    if (name !== 'tween' && v.kind !== 'bool' && v.kind !== 'none')
      throw new Refusal(v.at, `${fn}(): '${name}' must be True, False or None`);
  }
  return new Args(fn, callAt, values, rest, options);
}

/** Typed actions of parsed statements; throws Refusal at the first statement outside the whitelist. */
export function actionsOfStatements(
  statements: Statement[],
  options: PyautoguiOptions = {},
  budget = { seconds: 0 },
): Action[] {
  const out: Action[] = [];
  for (const st of statements) {
    if (st.kind === 'import' || st.kind === 'pass') continue;
    const e = st.expr;
    if (e.kind === 'name') {
      if (SPECIAL.has(e.name)) {
        out.push({ type: e.name as 'WAIT' | 'DONE' | 'FAIL' });
        continue;
      }
      if (SPECIAL.has(e.name.toUpperCase()))
        throw new Refusal(e.at, `write ${e.name.toUpperCase()} in capitals`);
      throw new Refusal(
        e.at,
        `a bare name ('${e.name}') does nothing: write a pyautogui call, or WAIT, DONE or FAIL`,
      );
    }
    if (e.kind !== 'call') {
      if (e.kind === 'attr')
        throw new Refusal(
          startOf(e),
          `'${dotted(e)}' does nothing: call a function, e.g. pyautogui.click(100, 200)`,
        );
      throw new Refusal(
        e.at,
        'this statement does nothing: each statement must be a pyautogui call, time.sleep(...), WAIT, DONE or FAIL',
      );
    }
    const { fn, spec } = resolveCallee(e.callee);
    const args = bindArgs(fn, spec, e.args, e.callee.at, options);
    const actions = spec.build(args);
    for (const a of actions) budget.seconds += waitingSeconds(a);
    if (budget.seconds > LIMITS.replySeconds) {
      throw new Refusal(
        startOf(e),
        `this reply would wait about ${Math.round(budget.seconds)} s in sleeps, durations and intervals; keep one reply under ${LIMITS.replySeconds} s and look at the screen again`,
      );
    }
    out.push(...actions);
    if (out.length > LIMITS.actions)
      throw new Refusal(startOf(e), `too many actions in one reply (more than ${LIMITS.actions})`);
  }
  return out;
}
