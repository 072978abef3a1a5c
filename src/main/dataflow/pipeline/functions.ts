// UFO's control functions on Linux: each is a registry entry that checks its Args and performs Proctor actions
// (env.perform) on the matched control. An unknown function, bad Args or a failed action is a StepError — the
// step's recorded error, never a crash — and select_text fails when no paragraph holds the text (upstream
// defect 7 let both pass).
import type { Action } from '../../../shared/run';
import type { AccessibilityNode, Environment } from '../../env/environment';
import { flattenTree } from '../../observe/filter';
import type { Control } from './controls';
import { keysToActions } from './keys';

export class StepError extends Error {
  constructor(
    message: string,
    readonly kind:
      'UnknownFunction' | 'BadArgs' | 'ControlNotFound' | 'ActionFailed' | 'TextNotFound' = 'ActionFailed',
  ) {
    super(message);
    this.name = 'StepError';
  }
}

export interface FunctionContext {
  env: Pick<Environment, 'perform' | 'run'>;
  /** The matched control; undefined for a window-level step (empty ControlText). */
  control?: Control;
  /** The accessibility tree the control was matched in. */
  tree: AccessibilityNode[];
  /** The application window's box on the screen (for click_on_coordinates). */
  window: { x: number; y: number; width: number; height: number };
}

type Args = Record<string, unknown>;

interface UfoFunction {
  /** One line for the prefill prompt: the call with its arguments and what it does. */
  help: string;
  /** Whether the function acts on a control (ControlText must name one). */
  needsControl: boolean;
  run(args: Args, ctx: FunctionContext): Promise<string | undefined>;
}

const str = (args: Args, name: string, fallback?: string): string => {
  const v = args[name] ?? fallback;
  if (typeof v !== 'string')
    throw new StepError(`Args.${name} must be a string (got ${JSON.stringify(v)})`, 'BadArgs');
  return v;
};
const bool = (args: Args, name: string, fallback: boolean): boolean => {
  const v = args[name] ?? fallback;
  if (typeof v !== 'boolean')
    throw new StepError(`Args.${name} must be true or false (got ${JSON.stringify(v)})`, 'BadArgs');
  return v;
};
const num = (args: Args, name: string, fallback?: number): number => {
  const v = args[name] ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new StepError(`Args.${name} must be a number (got ${JSON.stringify(v)})`, 'BadArgs');
  return v;
};
const button = (args: Args): 'left' | 'right' | 'middle' => {
  const b = str(args, 'button', 'left');
  if (b !== 'left' && b !== 'right' && b !== 'middle')
    throw new StepError(`Args.button must be left, right or middle (got ${JSON.stringify(b)})`, 'BadArgs');
  return b;
};

function centre(c: Control): { x: number; y: number } {
  const n = c.node;
  return { x: Math.round(n.x + n.width / 2), y: Math.round(n.y + n.height / 2) };
}

async function perform(ctx: FunctionContext, actions: Action[]): Promise<void> {
  try {
    await ctx.env.perform(actions);
  } catch (e) {
    throw new StepError(`the action failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function needControl(ctx: FunctionContext, fn: string): Control {
  if (!ctx.control) throw new StepError(`${fn} acts on a control: give its ControlText`, 'BadArgs');
  return ctx.control;
}

/** The keys pressed with `hotkey` for a UFO `pressed` modifier name. */
const PRESSED: Record<string, string> = {
  control: 'ctrl',
  ctrl: 'ctrl',
  shift: 'shift',
  alt: 'alt',
  menu: 'alt',
};

const FUNCTIONS: Record<string, UfoFunction> = {
  click_input: {
    help: 'click_input(button="left"|"right"|"middle", double=false) — click the control',
    needsControl: true,
    async run(args, ctx) {
      const c = needControl(ctx, 'click_input');
      const { x, y } = centre(c);
      const pressed =
        args.pressed === undefined || args.pressed === ''
          ? []
          : [PRESSED[String(args.pressed).toLowerCase()]];
      if (pressed.some((p) => !p))
        throw new StepError(
          `Args.pressed must be control, shift or alt (got ${JSON.stringify(args.pressed)})`,
          'BadArgs',
        );
      const click: Action = {
        type: 'click',
        x,
        y,
        button: button(args),
        clicks: bool(args, 'double', false) ? 2 : 1,
      };
      await perform(
        ctx,
        pressed.length
          ? [{ type: 'keyDown', key: pressed[0] }, click, { type: 'keyUp', key: pressed[0] }]
          : [click],
      );
      return undefined;
    },
  },
  click_on_coordinates: {
    help: 'click_on_coordinates(x, y, button="left", double=false) — click at fractions 0..1 of the window',
    needsControl: false,
    async run(args, ctx) {
      const w = ctx.window;
      const fx = num(args, 'x');
      const fy = num(args, 'y');
      if (fx < 0 || fx > 1 || fy < 0 || fy > 1)
        throw new StepError('Args.x and Args.y are fractions of the window, 0..1', 'BadArgs');
      await perform(ctx, [
        {
          type: 'click',
          x: Math.round(w.x + fx * w.width),
          y: Math.round(w.y + fy * w.height),
          button: button(args),
          clicks: bool(args, 'double', false) ? 2 : 1,
        },
      ]);
      return undefined;
    },
  },
  drag_on_coordinates: {
    help: 'drag_on_coordinates(start_x, start_y, end_x, end_y, button="left") — drag between fractions 0..1 of the window',
    needsControl: false,
    async run(args, ctx) {
      const w = ctx.window;
      const at = (fx: number, fy: number) => ({
        x: Math.round(w.x + fx * w.width),
        y: Math.round(w.y + fy * w.height),
      });
      const a = at(num(args, 'start_x'), num(args, 'start_y'));
      const b = at(num(args, 'end_x'), num(args, 'end_y'));
      const hold =
        typeof args.key_hold === 'string' && args.key_hold ? PRESSED[args.key_hold.toLowerCase()] : undefined;
      const drag: Action[] = [
        { type: 'moveTo', x: a.x, y: a.y },
        { type: 'dragTo', x: b.x, y: b.y, button: button(args), duration: 0.3 },
      ];
      await perform(
        ctx,
        hold ? [{ type: 'keyDown', key: hold }, ...drag, { type: 'keyUp', key: hold }] : drag,
      );
      return undefined;
    },
  },
  set_edit_text: {
    help: 'set_edit_text(text, clear_current_text=false) — focus the edit control and type text (after clearing it when asked)',
    needsControl: true,
    async run(args, ctx) {
      const c = needControl(ctx, 'set_edit_text');
      const text = str(args, 'text');
      const { x, y } = centre(c);
      const clear: Action[] = bool(args, 'clear_current_text', false)
        ? [
            { type: 'hotkey', keys: ['ctrl', 'a'] },
            ...(text ? [] : [{ type: 'press', keys: ['delete'] } as Action]),
          ]
        : [];
      // clearing selects all and types over it: on GUI Impress, text typed after Ctrl+A, Delete in a slide's text
      // box was measured to be lost (the box saved empty); the pause lets the click enter the box's edit mode.
      // Impress enters a text box's edit mode a while after the click (it first tells a click from a drag): on a
      // loaded machine 0.3 s was too short — Ctrl+A came first and the text was typed at the click, inside the
      // old title. Before a Ctrl+A the pause is a second.
      const pause: Action = { type: 'sleep', seconds: 0.3 };
      await perform(ctx, [
        { type: 'click', x, y },
        clear.length ? { type: 'sleep', seconds: 1 } : pause,
        ...clear,
        ...(clear.length ? [pause] : []),
        ...(text ? [{ type: 'write', text } as Action] : []),
      ]);
      return undefined;
    },
  },
  keyboard_input: {
    help: 'keyboard_input(keys, control_focus=true) — type keys into the control (or the window when ControlText is empty)',
    needsControl: false,
    async run(args, ctx) {
      let actions: Action[];
      try {
        actions = keysToActions(str(args, 'keys'));
      } catch (e) {
        throw new StepError(e instanceof Error ? e.message : String(e), 'BadArgs');
      }
      const focus: Action[] =
        ctx.control && bool(args, 'control_focus', true) ? [{ type: 'click', ...centre(ctx.control) }] : [];
      await perform(ctx, [...focus, ...actions]);
      return undefined;
    },
  },
  wheel_mouse_input: {
    help: 'wheel_mouse_input(wheel_dist) — scroll over the control, positive = up',
    needsControl: true,
    async run(args, ctx) {
      const c = needControl(ctx, 'wheel_mouse_input');
      const d = Math.trunc(num(args, 'wheel_dist'));
      await perform(ctx, [{ type: 'scroll', dx: 0, dy: Math.max(-50, Math.min(50, d)), ...centre(c) }]);
      return undefined;
    },
  },
  select_text: {
    help: 'select_text(text) — select the first occurrence of text in the document (fails when it is not there)',
    needsControl: false,
    async run(args, ctx) {
      const text = str(args, 'text');
      if (!text) throw new StepError('Args.text is empty', 'BadArgs');
      const scope = ctx.control ? [ctx.control.node] : ctx.tree;
      const holder = flattenTree(scope).find(
        (n) =>
          (n.role === 'paragraph' || n.role === 'heading' || n.role === 'table-cell') &&
          (n.text ?? '').includes(text),
      );
      if (!holder)
        throw new StepError(`select_text: no paragraph holds ${JSON.stringify(text)}`, 'TextNotFound');
      // LibreOffice's find toolbar selects the first match after the cursor: start from the top
      await perform(ctx, [
        { type: 'hotkey', keys: ['ctrl', 'home'] },
        { type: 'hotkey', keys: ['ctrl', 'f'] },
        { type: 'sleep', seconds: 0.4 },
        { type: 'hotkey', keys: ['ctrl', 'a'] },
        { type: 'write', text },
        { type: 'press', keys: ['enter'] },
        { type: 'sleep', seconds: 0.2 },
        { type: 'press', keys: ['esc'] },
      ]);
      return undefined;
    },
  },
  texts: {
    help: "texts() — read the control's text",
    needsControl: true,
    async run(_args, ctx) {
      const c = needControl(ctx, 'texts');
      return c.node.text ?? c.text;
    },
  },
  summary: {
    help: 'summary(text) — note a summary (no action)',
    needsControl: false,
    async run(args) {
      return str(args, 'text', '');
    },
  },
  annotation: {
    help: 'annotation(control_labels) — mark controls for the next step (no action)',
    needsControl: false,
    async run() {
      return undefined;
    },
  },
  '': {
    help: '"" — no action',
    needsControl: false,
    async run() {
      return undefined;
    },
  },
};

/** Whether a function name is one the executor runs. */
export function isKnownFunction(name: string): boolean {
  return Object.hasOwn(FUNCTIONS, name);
}

/** Whether the function needs a control (a non-empty ControlText). */
export function functionNeedsControl(name: string): boolean {
  return FUNCTIONS[name]?.needsControl ?? false;
}

/** The functions offered to the prefill model: only what runs here (upstream defect 5 offered what none ran). */
export function functionHelp(): string {
  return Object.entries(FUNCTIONS)
    .filter(([name]) => name !== '')
    .map(([, f]) => `- ${f.help}`)
    .join('\n');
}

/** Runs one UFO function; its return text, or throws StepError. */
export async function runFunction(
  name: string,
  args: Args,
  ctx: FunctionContext,
): Promise<string | undefined> {
  const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (!fn)
    throw new StepError(
      `unknown function ${JSON.stringify(name)}: this executor runs ${Object.keys(FUNCTIONS).filter(Boolean).join(', ')}`,
      'UnknownFunction',
    );
  return fn.run(args, ctx);
}
