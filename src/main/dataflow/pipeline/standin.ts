// The built-in stand-in for the instantiation models (`builtin-standin`): deterministic rules, no network. It
// chooses the template whose description shares most words with the request, plans the few request shapes of
// the bundled tasks (format a quoted phrase in Writer, append a quoted line, bold a sheet's header row, total a
// named column, add a slide, reword a slide's text box) on the controls really read from the document, and judges a request doable when it could plan
// it. Any other request gets an empty plan and is filtered out as Non_task. It answers in UFO's reply form.
import type { Control } from './controls';
import type { StageInputs } from './models';

const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'to',
  'in',
  'on',
  'and',
  'or',
  'for',
  'with',
  'its',
  'it',
  'is',
  'be',
  'by',
  'as',
  'at',
  'this',
  'that',
  'make',
  'add',
  'put',
]);

const words = (s: string): Set<string> =>
  new Set((s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 2 && !STOP.has(w)));

export function standinChoose(input: StageInputs['choose']): string {
  const want = words(input.task);
  let best = '';
  let bestShared: string[] = [];
  for (const [file, text] of Object.entries(input.descriptions)) {
    const have = words(text);
    const shared = [...want].filter((w) => have.has(w));
    if (!best || shared.length > bestShared.length) {
      best = file;
      bestShared = shared;
    }
  }
  return JSON.stringify({
    [best]: `builtin-standin: the description shares the words ${JSON.stringify(bestShared)} with the request`,
  });
}

/** A phrase in quotes (straight or typographic) in the request. */
const quoted = (s: string): string | undefined => /["“]([^"”]+)["”]/.exec(s)?.[1];

/** Text typed literally by keyboard_input: its grammar's special characters in braces. */
export function literalKeys(text: string): string {
  return text
    .replace(/[{}~]/g, (c) => `{${c}}`)
    .replace(/\n/g, '{ENTER}')
    .replace(/\t/g, '{TAB}');
}

interface Step {
  Step: number;
  Subtask: string;
  ControlLabel: string | null;
  ControlText: string;
  Function: string;
  Args: Record<string, unknown>;
}

function step(
  n: number,
  subtask: string,
  control: Control | undefined,
  fn: string,
  args: Record<string, unknown>,
): Step {
  return {
    Step: n,
    Subtask: subtask,
    ControlLabel: control?.label ?? null,
    ControlText: control?.text ?? '',
    Function: fn,
    Args: args,
  };
}

const reply = (observation: string, thought: string, newTask: string, plan: Step[]) =>
  JSON.stringify({
    Observation: observation,
    Thought: `builtin-standin: ${thought}`,
    New_task: newTask,
    Actions_plan: plan,
  });

const FORMATS: Record<string, string> = { bold: 'Bold', italic: 'Italic', underline: 'Underline' };

function writerPlan(task: string, controls: Control[]): string | undefined {
  const phrase = quoted(task);
  if (!phrase) return undefined;
  const format = Object.keys(FORMATS).find((f) => new RegExp(`\\b${f}`, 'i').test(task));
  if (format) {
    const holder = controls.find(
      (c) => (c.role === 'paragraph' || c.role === 'heading') && (c.node.text ?? '').includes(phrase),
    );
    const button = controls.find(
      (c) => c.text === FORMATS[format] && (c.role === 'toggle-button' || c.role === 'push-button'),
    );
    if (!holder || !button) return undefined;
    return reply(
      `The document shows the line ${JSON.stringify(holder.node.text)}; the ${FORMATS[format]} button is on the toolbar.`,
      `select the phrase in its line, then press ${FORMATS[format]}`,
      `Make the words "${phrase}" in the line "${holder.node.text}" ${format === 'bold' ? 'bold' : format === 'italic' ? 'italic' : 'underlined'}.`,
      [
        step(1, `Select "${phrase}"`, holder, 'select_text', { text: phrase }),
        step(2, `Press ${FORMATS[format]}`, button, 'click_input', { button: 'left', double: false }),
      ],
    );
  }
  if (/\b(add|append|insert)\b/i.test(task) && /\bend\b/i.test(task)) {
    const doc = controls.find((c) => c.role === 'document-text');
    if (!doc) return undefined;
    return reply(
      'The document is open with its text.',
      'go to the end of the document, start a new paragraph and type the line',
      `Add a new last paragraph "${phrase}" at the end of the document.`,
      [
        step(1, 'Go to the end of the document', doc, 'keyboard_input', {
          keys: '{VK_CONTROL}{END}',
          control_focus: false,
        }),
        step(2, `Type "${phrase}" on a new line`, undefined, 'keyboard_input', {
          keys: `\n${literalKeys(phrase)}`,
          control_focus: false,
        }),
      ],
    );
  }
  return undefined;
}

const cellAt = (c: Control): { col: string; row: number } | undefined => {
  const m = c.role === 'table-cell' ? /^([A-Z]{1,3})(\d+)$/.exec(c.text) : null;
  return m ? { col: m[1], row: Number(m[2]) } : undefined;
};

function calcPlan(task: string, controls: Control[]): string | undefined {
  const cells = controls.filter((c) => cellAt(c) && (c.node.text ?? '') !== '');
  const header = cells.filter((c) => cellAt(c)!.row === 1);
  if (!header.length) return undefined;
  if (/\bheader\b/i.test(task) && /\bbold\b/i.test(task)) {
    const first = header.find((c) => cellAt(c)!.col === 'A') ?? header[0];
    const bold = controls.find((c) => c.text === 'Bold' && c.role === 'toggle-button');
    if (!bold) return undefined;
    return reply(
      `The sheet's first row holds ${header.map((c) => JSON.stringify(c.node.text)).join(', ')}.`,
      'select the header row from its first cell to its last, then press Bold',
      `Make the header row (${header.map((c) => c.node.text).join(', ')}) of the sheet bold.`,
      [
        step(1, `Select ${first.text}`, first, 'click_input', { button: 'left', double: false }),
        step(2, 'Extend the selection to the last header cell', undefined, 'keyboard_input', {
          keys: '{VK_SHIFT}{END}',
          control_focus: false,
        }),
        step(3, 'Press Bold', bold, 'click_input', { button: 'left', double: false }),
      ],
    );
  }
  if (/\b(total|sum)\b/i.test(task)) {
    const named = header.find((c) =>
      new RegExp(
        `(^|[^\\w])${(c.node.text ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\w]|$)`,
        'i',
      ).test(task),
    );
    if (!named) return undefined;
    const col = cellAt(named)!.col;
    const below = cells.filter(
      (c) => cellAt(c)!.col === col && cellAt(c)!.row > 1 && Number.isFinite(Number(c.node.text)),
    );
    if (!below.length) return undefined;
    const last = below.reduce((a, b) => (cellAt(b)!.row > cellAt(a)!.row ? b : a));
    const lastRow = cellAt(last)!.row;
    const range = `${col}2:${col}${lastRow}`;
    return reply(
      `Column ${col} is headed ${JSON.stringify(named.node.text)} with figures down to ${col}${lastRow}.`,
      'select the last figure, move one cell down and enter a SUM formula',
      `Put the total of the ${named.node.text} column (${range}) in cell ${col}${lastRow + 1} with a SUM formula.`,
      [
        step(1, `Select the last figure ${col}${lastRow}`, last, 'click_input', {
          button: 'left',
          double: false,
        }),
        step(2, `Enter =SUM(${range}) in ${col}${lastRow + 1}`, undefined, 'keyboard_input', {
          keys: `{DOWN}=SUM(${range})\n`,
          control_focus: false,
        }),
      ],
    );
  }
  return undefined;
}

/** Every phrase in quotes in the request, in order. */
const allQuoted = (s: string): string[] => [...s.matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]);

function impressPlan(task: string, controls: Control[]): string | undefined {
  const [from, to] = allQuoted(task);
  // a new slide: Slide ▸ New Slide's shortcut, no selection needed
  if (
    /\b(add|insert|new)\b/i.test(task) &&
    /\bslide\b/i.test(task) &&
    !/\b(change|rename|retitle|replace)\b/i.test(task)
  ) {
    const deck = controls.find((c) => c.role === 'document-presentation');
    if (!deck) return undefined;
    const after = from
      ? controls.find((c) => c.role === 'paragraph' && (c.node.text ?? '').includes(from))
      : undefined;
    return reply(
      `The presentation is open${after ? ` on the slide showing ${JSON.stringify(after.node.text)}` : ''}.`,
      'insert a new slide after the current one with Ctrl+M (Slide ▸ New Slide)',
      `Insert a new slide after the current slide${after ? ` (the one showing "${after.node.text}")` : ''}.`,
      [
        step(1, 'Insert a new slide (Ctrl+M)', undefined, 'keyboard_input', {
          keys: '{VK_CONTROL}m',
          control_focus: false,
        }),
      ],
    );
  }
  // rewording a slide's text box: click into it (text edit mode), replace all of its text, leave edit mode
  if (from && to && /\b(change|rename|retitle|replace|reword)\b/i.test(task)) {
    const box =
      controls.find((c) => c.role === 'paragraph' && (c.node.text ?? '').trim() === from) ??
      controls.find((c) => c.role === 'paragraph' && (c.node.text ?? '').includes(from));
    if (!box) return undefined;
    return reply(
      `The slide shows the text ${JSON.stringify(box.node.text)}.`,
      "set the text box's text (click into it, select all, type over it), then press Escape to leave text editing",
      `Change the slide text "${box.node.text}" to "${to}".`,
      [
        step(1, `Replace "${from}" with "${to}"`, box, 'set_edit_text', {
          text: to,
          clear_current_text: true,
        }),
        step(2, 'Leave text editing', undefined, 'keyboard_input', { keys: '{ESC}', control_focus: false }),
      ],
    );
  }
  return undefined;
}

export function standinPrefill(input: StageInputs['prefill']): string {
  const text = [input.task, ...input.steps].join('\n');
  // Impress: operations that need no text selection (its formatting buttons show only once text is selected, and
  // the find bar's selection there was measured to bold every text box of the slide)
  const plan =
    input.app === 'writer'
      ? writerPlan(text, input.controls)
      : input.app === 'calc'
        ? calcPlan(text, input.controls)
        : impressPlan(text, input.controls);
  return (
    plan ??
    reply(
      `${input.controls.length} controls on screen.`,
      'no plan: the request names nothing concrete this stand-in can act on',
      input.task,
      [],
    )
  );
}

export function standinFilter(input: StageInputs['filter']): string {
  return input.planSteps > 0
    ? JSON.stringify({
        judge: true,
        thought: 'builtin-standin: the request names concrete content of the document and was planned',
        type: 'None',
      })
    : JSON.stringify({
        judge: false,
        thought: 'builtin-standin: the request names no concrete content to act on (subjective or vague)',
        type: 'Non_task',
      });
}
