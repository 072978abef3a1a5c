// Actions of other harnesses' trajectories, read to DRAW them — never to run them. The harness already executed
// each line; the replay shows what ran. Apart from that, `wouldRefuse` says whether Proctor's own runner would
// execute the text as written (the strict parser of this folder), and why not. Drawing is per call, so one call
// over a Proctor limit never hides the valid calls beside it; pointer state carries from line to line as in
// pyautogui (`moveTo(546, 524)` then `click()` clicks at 546, 524); agents' own text actions (`BASH …`, tool
// calls) are shown as what they are.
import type { Action, StepRecord } from '../../shared/run';
import { parseAction, parsePyautogui, PYAUTOGUI_FUNCTIONS, type Point } from './index';
import { actionsOfStatements } from './pyautogui';
import { parsePython, type Expr, type Statement } from './python/parser';
import { splitReply } from './fences';
import { normaliseLineEnds } from './refusal';

export type ToolAction = NonNullable<StepRecord['toolAction']>;

/** One trajectory line's action as the replay draws it. */
export interface DisplayedAction {
  /** What to draw, in order; clicks and scrolls without coordinates carry the pointer's position. */
  actions: Action[];
  /** Why Proctor's own runner would not execute this action as written (absent: it would). */
  wouldRefuse?: string;
  /** The action is no screen action (a shell command, a tool call, text): shown as what it is. */
  toolAction?: ToolAction;
  /** Parts that could not be drawn (e.g. Python beyond calls), for a note beside the step. */
  undrawn?: string;
}

/** The pointer as pyautogui keeps it between calls; one per task, carried across its trajectory lines. */
export class PointerState {
  private at?: Point;

  get position(): Point | undefined {
    return this.at ? { ...this.at } : undefined;
  }

  /** Fills coordinates of actions that act at the pointer, and moves the pointer as each action would. */
  follow(actions: Action[]): Action[] {
    return actions.map((a) => {
      switch (a.type) {
        case 'click':
        case 'scroll':
        case 'mouseDown':
        case 'mouseUp': {
          if (a.x !== undefined && a.y !== undefined) {
            this.at = { x: a.x, y: a.y };
            return a;
          }
          return this.at ? { ...a, x: this.at.x, y: this.at.y } : a;
        }
        case 'moveTo':
        case 'dragTo':
          this.at = { x: a.x, y: a.y };
          return a;
        case 'moveRel':
        case 'dragRel':
          if (this.at) this.at = { x: this.at.x + a.dx, y: this.at.y + a.dy };
          return a;
        default:
          return a;
      }
    });
  }
}

/** `index_27 = (995, 597)`: the Set-of-Mark prelude Spider2-V stores before the model's call (literal only). */
const somBinding =
  /^\s*((?:index|tag)_\d{1,6})\s*=\s*\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)\s*$/;

/** The code without its SoM prelude, and the marks the prelude binds. */
export function splitSomPrelude(code: string): { code: string; bindings: Record<string, Point> } {
  const bindings: Record<string, Point> = {};
  const rest: string[] = [];
  for (const line of normaliseLineEnds(code).split('\n')) {
    const m = somBinding.exec(line);
    if (m) bindings[m[1]] = { x: Number(m[2]), y: Number(m[3]) };
    else rest.push(line);
  }
  return { code: rest.join('\n'), bindings };
}

const SHELL_WORDS = new Set(['BASH', 'SHELL', 'TERMINAL', 'CMD', 'RUN']);
const TOKENS = new Set(['WAIT', 'DONE', 'FAIL']);
const shorten = (s: string, n = 2000) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** `BASH cd ~/Downloads && …`, `ANSWER 42`: an agent's own text action (a capitalised word, then its argument). */
function textAction(text: string): ToolAction | undefined {
  const m = /^([A-Z][A-Z_]{1,30})(?:[ \t:]+([\s\S]*))?$/.exec(text.trim());
  if (!m || TOKENS.has(m[1]) || /^[=(.[]/.test(m[2] ?? '')) return undefined; // `AB = 5`, `F(1)`: code, not a word

  const arg = (m[2] ?? '').trim();
  if (SHELL_WORDS.has(m[1])) return { kind: 'shell', name: m[1].toLowerCase(), text: shorten(arg) };
  return { kind: 'tool', name: m[1].toLowerCase(), text: shorten(arg) };
}

type Value = number | string | boolean | null | Value[] | Point;

/** A literal argument's value (SoM names through `bindings`); undefined for anything else. */
function valueOf(e: Expr, bindings: Record<string, Point>): Value | undefined {
  switch (e.kind) {
    case 'num':
    case 'str':
      return e.value;
    case 'const':
      return e.value;
    case 'list':
    case 'tuple': {
      const items = e.items.map((i) => valueOf(i, bindings));
      return items.some((i) => i === undefined) ? undefined : (items as Value[]);
    }
    case 'name': {
      const [prefix, num] = e.name.split('_');
      return bindings[e.name] ?? bindings[`${prefix === 'tag' ? 'index' : 'tag'}_${num}`];
    }
    default:
      return undefined;
  }
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function pointOf(x: Value | undefined, y: Value | undefined): Point | undefined {
  if (x && typeof x === 'object' && !Array.isArray(x)) return x;
  if (Array.isArray(x) && x.length === 2 && isNum(x[0]) && isNum(x[1])) return { x: x[0], y: x[1] };
  return isNum(x) && isNum(y) ? { x, y } : undefined;
}

const keyName = (v: Value | undefined): string[] =>
  typeof v === 'string'
    ? [v.toLowerCase()]
    : Array.isArray(v)
      ? v.filter((k): k is string => typeof k === 'string').map((k) => k.toLowerCase())
      : [];

/**
 * One call drawn without Proctor's limits (a scroll of -5000, a long text, many clicks): what pyautogui did.
 * Undefined when the call is no pyautogui action that can be drawn.
 */
function lenientCall(st: Statement, bindings: Record<string, Point>): Action[] | undefined {
  if (st.kind !== 'expr' || st.expr.kind !== 'call') return undefined;
  const callee = st.expr.callee;
  if (callee.kind !== 'attr' || callee.object.kind !== 'name') return undefined;
  const mod = callee.object.name;
  const fn = callee.name;
  const named = new Map<string, Value | undefined>();
  const positional: (Value | undefined)[] = [];
  for (const a of st.expr.args) {
    if (a.value.kind === 'starred') {
      const p = valueOf(a.value.value, bindings);
      if (p && typeof p === 'object' && !Array.isArray(p)) positional.push(p.x, p.y);
      continue;
    }
    if (a.name !== undefined) named.set(a.name, valueOf(a.value, bindings));
    else positional.push(valueOf(a.value, bindings));
  }
  if (mod === 'time' && fn === 'sleep')
    return isNum(positional[0]) ? [{ type: 'sleep', seconds: positional[0] }] : undefined;
  if (mod !== 'pyautogui') return undefined;
  const spec = PYAUTOGUI_FUNCTIONS[fn];
  if (!spec) return undefined;
  const arg = (name: string): Value | undefined => {
    if (named.has(name)) return named.get(name);
    const i = spec.params.indexOf(name);
    return spec.rest || i < 0 ? undefined : positional[i];
  };
  const p = pointOf(arg('x'), arg('y'));
  const at = p ? { x: p.x, y: p.y } : {};
  const button = (b: Value | undefined): { button?: 'right' | 'middle' } =>
    b === 'right' || b === 'middle' ? { button: b } : {};
  switch (fn) {
    case 'click':
    case 'leftClick':
    case 'doubleClick':
    case 'tripleClick':
    case 'rightClick':
    case 'middleClick': {
      const clicks =
        fn === 'doubleClick'
          ? 2
          : fn === 'tripleClick'
            ? 3
            : isNum(arg('clicks'))
              ? (arg('clicks') as number)
              : 1;
      const b = fn === 'rightClick' ? 'right' : fn === 'middleClick' ? 'middle' : arg('button');
      return [{ type: 'click', ...at, ...button(b ?? undefined), ...(clicks !== 1 ? { clicks } : {}) }];
    }
    case 'scroll':
    case 'vscroll':
    case 'hscroll': {
      const clicks = arg('clicks');
      if (!isNum(clicks)) return undefined;
      return [
        { type: 'scroll', dx: fn === 'hscroll' ? clicks : 0, dy: fn === 'hscroll' ? 0 : clicks, ...at },
      ];
    }
    case 'moveTo':
      return p ? [{ type: 'moveTo', x: p.x, y: p.y }] : undefined;
    case 'dragTo':
      return p ? [{ type: 'dragTo', x: p.x, y: p.y }] : undefined;
    case 'write':
    case 'typewrite': {
      const m = arg('message');
      if (typeof m === 'string') return [{ type: 'write', text: m }];
      return Array.isArray(m) ? [{ type: 'press', keys: keyName(m) }] : undefined;
    }
    case 'press': {
      const presses = arg('presses');
      const keys = keyName(arg('keys'));
      return keys.length
        ? [{ type: 'press', keys, ...(isNum(presses) && presses !== 1 ? { presses } : {}) }]
        : undefined;
    }
    case 'hotkey': {
      const keys =
        positional.length === 1 && Array.isArray(positional[0])
          ? keyName(positional[0])
          : positional.flatMap(keyName);
      return keys.length ? [{ type: 'hotkey', keys }] : undefined;
    }
    case 'sleep':
      return isNum(arg('seconds')) ? [{ type: 'sleep', seconds: arg('seconds') as number }] : undefined;
    default:
      return undefined;
  }
}

/** Draws each statement on its own: Proctor's parser where it accepts the call, else the lenient reading. */
function drawStatements(
  statements: Statement[],
  bindings: Record<string, Point>,
  undrawn: string[],
  text: string,
): Action[] {
  const out: Action[] = [];
  for (const st of statements) {
    try {
      out.push(...actionsOfStatements([st], { bindings }));
    } catch {
      const lenient = lenientCall(st, bindings);
      if (lenient) out.push(...lenient);
      else
        undrawn.push(
          shorten(
            text
              .slice(st.at, st.kind === 'expr' && st.expr.kind === 'call' ? st.expr.end : st.at + 80)
              .trim(),
            200,
          ),
        );
    }
  }
  return out;
}

/** Pyautogui code drawn statement by statement; a line Python-wise unreadable is drawn line by line. */
function drawCode(code: string, bindings: Record<string, Point>): { actions: Action[]; undrawn: string[] } {
  const text = normaliseLineEnds(code);
  const undrawn: string[] = [];
  const actions: Action[] = [];
  let pieces;
  try {
    pieces = splitReply(text, new Set(['', 'python', 'py', 'python3', 'pyautogui', 'code']));
  } catch {
    pieces = [{ kind: 'code' as const, start: 0, end: text.length, fenced: false, lang: '' }];
  }
  for (const piece of pieces) {
    if (piece.kind === 'token') {
      actions.push({ type: piece.token });
      continue;
    }
    try {
      actions.push(...drawStatements(parsePython(text, piece.start, piece.end), bindings, undrawn, text));
    } catch {
      // Not Python this parser reads as a whole (a loop, an assignment): each line on its own.
      let start = piece.start;
      for (const line of text.slice(piece.start, piece.end).split('\n')) {
        const end = start + line.length;
        if (line.trim()) {
          try {
            actions.push(...drawStatements(parsePython(text, start, end), bindings, undrawn, text));
          } catch {
            if (TOKENS.has(line.trim())) actions.push({ type: line.trim() as 'WAIT' | 'DONE' | 'FAIL' });
            else undrawn.push(shorten(line.trim(), 200));
          }
        }
        start = end + 1;
      }
    }
  }
  return { actions, undrawn };
}

/** Computer-use tool inputs (`{action: 'left_click', coordinate: [x, y]}`) as drawn actions. */
export function computerUseActions(input: unknown): Action[] {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return [];
  const i = input as {
    action?: unknown;
    coordinate?: unknown;
    start_coordinate?: unknown;
    text?: unknown;
    scroll_direction?: unknown;
    scroll_amount?: unknown;
    duration?: unknown;
  };
  const c =
    Array.isArray(i.coordinate) && isNum(i.coordinate[0]) && isNum(i.coordinate[1])
      ? { x: i.coordinate[0], y: i.coordinate[1] }
      : {};
  const text = typeof i.text === 'string' ? i.text : '';
  switch (i.action) {
    case 'mouse_move':
      return 'x' in c ? [{ type: 'moveTo', ...(c as Point) }] : [];
    case 'left_click':
      return [{ type: 'click', ...c }];
    case 'right_click':
      return [{ type: 'click', ...c, button: 'right' }];
    case 'middle_click':
      return [{ type: 'click', ...c, button: 'middle' }];
    case 'double_click':
      return [{ type: 'click', ...c, clicks: 2 }];
    case 'triple_click':
      return [{ type: 'click', ...c, clicks: 3 }];
    case 'left_click_drag': {
      const s =
        Array.isArray(i.start_coordinate) && isNum(i.start_coordinate[0]) && isNum(i.start_coordinate[1])
          ? [{ type: 'moveTo' as const, x: i.start_coordinate[0], y: i.start_coordinate[1] }]
          : [];
      return 'x' in c ? [...s, { type: 'dragTo', ...(c as Point) }] : s;
    }
    case 'type':
      return text ? [{ type: 'write', text }] : [];
    case 'key': {
      const keys = text
        .split('+')
        .map((k) => k.trim().toLowerCase())
        .filter(Boolean);
      return keys.length > 1 ? [{ type: 'hotkey', keys }] : keys.length ? [{ type: 'press', keys }] : [];
    }
    case 'scroll': {
      const n = isNum(i.scroll_amount) ? i.scroll_amount : 1;
      const d = i.scroll_direction;
      return [
        {
          type: 'scroll',
          dx: d === 'left' ? -n : d === 'right' ? n : 0,
          dy: d === 'down' ? -n : d === 'up' ? n : 0,
          ...c,
        },
      ];
    }
    case 'wait':
      return isNum(i.duration) ? [{ type: 'sleep', seconds: i.duration }] : [{ type: 'WAIT' }];
    default:
      return [];
  }
}

/** A tool call object a harness stored as the action (`{name, input}` or a bare computer-use input). */
function toolCallOf(raw: Record<string, unknown>): { name: string; input: unknown } | undefined {
  if (typeof raw.name === 'string' && 'input' in raw) return { name: raw.name, input: raw.input };
  if (typeof raw.action === 'string' && !('action_type' in raw)) return { name: 'computer', input: raw };
  return undefined;
}

/**
 * How to draw one trajectory line's action; `pointer` is the task's pointer, carried from line to line.
 * Text is read as pyautogui code (or a text action), a dict as a tool call or a computer_13 action.
 */
export function displayAction(raw: unknown, pointer: PointerState): DisplayedAction {
  if (raw === undefined || raw === null || raw === '') return { actions: [] };
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (TOKENS.has(trimmed)) return { actions: [{ type: trimmed as 'WAIT' | 'DONE' | 'FAIL' }] };
    // A tool call stored as JSON text (`{"name": "computer", "input": {…}}`) is read as the object it is.
    if (trimmed.startsWith('{') && trimmed.endsWith('}')) {
      try {
        const obj: unknown = JSON.parse(trimmed);
        if (obj && typeof obj === 'object' && !Array.isArray(obj)) return displayAction(obj, pointer);
      } catch {
        // not JSON: read as code below
      }
    }
    const tool = textAction(trimmed);
    if (tool)
      return {
        actions: [],
        toolAction: tool,
        wouldRefuse:
          tool.kind === 'shell'
            ? 'Proctor runs no shell commands: its action spaces are pyautogui calls and computer_13 actions'
            : `'${tool.name?.toUpperCase()}' is not an action Proctor's runner knows (its actions are pyautogui calls, WAIT, DONE and FAIL)`,
      };
    const { code, bindings } = splitSomPrelude(raw);
    const strict = parsePyautogui(code, { bindings });
    const drawn = drawCode(code, bindings);
    const out: DisplayedAction = { actions: pointer.follow(drawn.actions) };
    // The hint about fences speaks to a model writing a reply; a harness's stored action has none to add.
    if (!strict.ok)
      out.wouldRefuse = strict.error.message.replace(/ \(the reply has no ```python code block[^)]*\)$/, '');
    // Code beyond calls (a loop, an assignment) ran too: it is shown as text, the drawable calls beside it.
    if (drawn.undrawn.length) {
      out.undrawn = drawn.undrawn.join('\n');
      out.toolAction = {
        kind: 'text',
        name: 'python',
        text: drawn.actions.length ? out.undrawn : shorten(raw),
      };
    }
    return out;
  }
  if (typeof raw === 'object' && !Array.isArray(raw)) {
    const call = toolCallOf(raw as Record<string, unknown>);
    if (call) {
      const actions = call.name === 'computer' ? computerUseActions(call.input) : [];
      return {
        actions: pointer.follow(actions),
        toolAction: {
          kind: call.name === 'bash' ? 'shell' : 'tool',
          name: call.name,
          text: shorten(JSON.stringify(call.input) ?? ''),
        },
        wouldRefuse: `a '${call.name}' tool call is not in Proctor's action spaces (pyautogui code or computer_13 actions)`,
      };
    }
    const strict = parseAction('computer_13', raw);
    if (strict.ok) return { actions: pointer.follow(strict.actions) };
    return {
      actions: [],
      wouldRefuse: strict.error.message,
      toolAction: { kind: 'text', text: shorten(JSON.stringify(raw) ?? '') },
    };
  }
  return {
    actions: [],
    toolAction: { kind: 'text', text: shorten(JSON.stringify(raw) ?? String(raw)) },
    wouldRefuse: 'the action is neither pyautogui code nor a computer_13 action',
  };
}
