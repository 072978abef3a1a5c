import { describe, expect, it } from 'vitest';
import type { Action } from '../../../shared/run';
import { controlList, matchControl, partialRatio } from './controls';
import { runFunction, StepError, type FunctionContext } from './functions';
import { keysToActions, KeyGrammarError } from './keys';
import { calcTree, writerTree } from './testing/trees';

describe('the control list', () => {
  it('numbers the shown controls of the mapped roles in tree order, naming a nameless toolbar box by its panel', () => {
    const controls = controlList(writerTree(), { width: 1280, height: 800 });
    expect(controls.map((c) => `${c.label} ${c.role} ${c.text}`)).toEqual([
      '1 menu File',
      '2 menu Format',
      '3 text Font Name',
      '4 toggle-button Bold',
      '5 toggle-button Italic',
      '6 push-button Underline',
      '7 document-text memo - LibreOffice Document',
      '8 heading Team memo',
      '9 paragraph This is a line of text to edit.',
      '10 paragraph The meeting moves to Thursday at ten.',
    ]);
    // the frame and the panel are no controls; the button that is not showing is left out
    expect(controls.find((c) => c.text === 'Hidden')).toBeUndefined();
    expect(controls[2].type).toBe('Edit');
  });

  it('names a Calc cell by its address (its text stays on the node)', () => {
    const cells = controlList(calcTree()).filter((c) => c.role === 'table-cell');
    expect(cells.map((c) => c.text)).toEqual(['A1', 'B1', 'C1', 'A2', 'B2', 'C2', 'A3', 'B3', 'C3']);
    expect(cells[1].node.text).toBe('Q1');
    expect(cells[1].type).toBe('DataItem');
  });
});

describe('matching a step to a control', () => {
  const controls = controlList(writerTree());

  it('takes an exact match (case-insensitive) before any fuzzy one', () => {
    const m = matchControl(controls, 'bold');
    expect(m).toMatchObject({ ok: true, how: 'exact', score: 100 });
    expect(m.ok && m.control.text).toBe('Bold');
  });

  it('takes the best partial ratio at or above the threshold, the first on ties, and refuses below it', () => {
    expect(partialRatio('This is a line of text to edit.', 'text to edit')).toBe(100);
    const m = matchControl(controls, 'line of text to edit');
    expect(m.ok && m.control.label).toBe('9');
    // "Itali" is in "Italic" (100); "Bol" in "Bold" (100): both fuzzy, the first best wins
    const tie = matchControl(controls, 'o');
    expect(tie.ok && tie.control.label).toBe('2'); // "Format" is the first control holding "o" ("File" does not)
    const none = matchControl(controls, 'Strikethrough');
    expect(none.ok).toBe(false);
    expect(!none.ok && none.error).toMatch(
      /control not found: no control's text is "Strikethrough" nor scores 70 or more; the nearest is \[\d+\]/,
    );
    // a lower threshold lets a weaker match through
    expect(matchControl(controls, 'Strikethrough', { threshold: 30 }).ok).toBe(true);
  });

  it('strict mode matches exact text only', () => {
    expect(matchControl(controls, 'Bold', { strict: true }).ok).toBe(true);
    const m = matchControl(controls, 'line of text to edit', { strict: true });
    expect(m.ok).toBe(false);
    expect(!m.ok && m.error).toContain('strict matching');
  });
});

describe("UFO's keyboard_input keys as Proctor actions", () => {
  it('holds {VK_CONTROL} on the next key, types ^ + % ( ) and spaces as themselves, repeats {NAME n}, ~ and \\n are Enter', () => {
    expect(keysToActions('{VK_CONTROL}a')).toEqual([{ type: 'hotkey', keys: ['ctrl', 'a'] }]);
    expect(keysToActions('^a')).toEqual([{ type: 'write', text: '^a' }]);
    expect(keysToActions('{TAB 2}')).toEqual([{ type: 'press', keys: ['tab'], presses: 2 }]);
    expect(keysToActions('a b~')).toEqual([
      { type: 'write', text: 'a b' },
      { type: 'press', keys: ['enter'] },
    ]);
    expect(keysToActions('{VK_CONTROL}{VK_SHIFT}{END}')).toEqual([
      { type: 'hotkey', keys: ['ctrl', 'shift', 'end'] },
    ]);
    expect(keysToActions('{DOWN}=SUM(B2:B5)\n')).toEqual([
      { type: 'press', keys: ['down'] },
      { type: 'write', text: '=SUM(B2:B5)' },
      { type: 'press', keys: ['enter'] },
    ]);
    expect(keysToActions('{{}x{}}{+}')).toEqual([{ type: 'write', text: '{x}+' }]);
    expect(keysToActions('1+1=%\t')).toEqual([
      { type: 'write', text: '1+1=%' },
      { type: 'press', keys: ['tab'] },
    ]);
  });

  it('refuses an unknown {NAME}, an unclosed brace and a modifier with no key', () => {
    expect(() => keysToActions('{FOO}')).toThrow(KeyGrammarError);
    expect(() => keysToActions('{FOO}')).toThrow(/unknown key \{FOO\}/);
    expect(() => keysToActions('ab{ENTER')).toThrow(/never closed at character 3/);
    expect(() => keysToActions('x{VK_SHIFT}')).toThrow(/held but no key follows/);
  });
});

describe("UFO's functions through Proctor's actions", () => {
  const recording = () => {
    const performed: Action[][] = [];
    const env = {
      perform: async (a: Action[]) => void performed.push(a),
      run: async () => ({ stdout: '', stderr: '', exitCode: 0, timedOut: false }),
    };
    return { env, performed };
  };
  const tree = writerTree();
  const controls = controlList(tree);
  const ctx = (env: FunctionContext['env'], text?: string): FunctionContext => ({
    env,
    tree,
    control: text ? controls.find((c) => c.text === text) : undefined,
    window: { x: 0, y: 0, width: 1280, height: 800 },
  });

  it('click_input clicks the centre of the control, double when asked; set_edit_text clears and types', async () => {
    const { env, performed } = recording();
    await runFunction('click_input', { button: 'left', double: true }, ctx(env, 'Bold'));
    expect(performed[0]).toEqual([{ type: 'click', x: 608, y: 103, button: 'left', clicks: 2 }]);
    await runFunction('set_edit_text', { text: 'Arial', clear_current_text: true }, ctx(env, 'Font Name'));
    const pause = { type: 'sleep', seconds: 0.3 };
    // Impress enters a text box's edit mode late: a second between the click and Ctrl+A
    const editMode = { type: 'sleep', seconds: 1 };
    // typed over the selection (Ctrl+A, Delete, then typing lost the text in an Impress text box)
    expect(performed[1]).toEqual([
      { type: 'click', x: 353, y: 102 },
      editMode,
      { type: 'hotkey', keys: ['ctrl', 'a'] },
      pause,
      { type: 'write', text: 'Arial' },
    ]);
    await runFunction('set_edit_text', { text: '', clear_current_text: true }, ctx(env, 'Font Name'));
    expect(performed[2]).toEqual([
      { type: 'click', x: 353, y: 102 },
      editMode,
      { type: 'hotkey', keys: ['ctrl', 'a'] },
      { type: 'press', keys: ['delete'] },
      pause,
    ]);
    await runFunction('wheel_mouse_input', { wheel_dist: -3 }, ctx(env, 'memo - LibreOffice Document'));
    expect(performed[3]).toEqual([{ type: 'scroll', dx: 0, dy: -3, x: 604, y: 463 }]);
  });

  it('select_text fails when no paragraph holds the text, and an unknown function or bad Args are step errors', async () => {
    const { env, performed } = recording();
    await expect(runFunction('select_text', { text: 'not in the memo' }, ctx(env))).rejects.toMatchObject({
      kind: 'TextNotFound',
    });
    await expect(runFunction('insert_table', { rows: 2 }, ctx(env))).rejects.toMatchObject({
      kind: 'UnknownFunction',
    });
    await expect(runFunction('click_input', { button: 'sideways' }, ctx(env, 'Bold'))).rejects.toMatchObject({
      kind: 'BadArgs',
    });
    await expect(runFunction('click_input', {}, ctx(env))).rejects.toBeInstanceOf(StepError);
    expect(performed).toEqual([]);
    await runFunction('select_text', { text: 'text to edit' }, ctx(env));
    expect(performed[0]).toContainEqual({ type: 'write', text: 'text to edit' });
  });

  it('an action the environment refuses is the step error, not a crash', async () => {
    const env = {
      perform: async () => Promise.reject(new Error('the worker died')),
      run: async () => ({ stdout: '', stderr: '', exitCode: 0, timedOut: false }),
    };
    await expect(runFunction('keyboard_input', { keys: 'x' }, ctx(env))).rejects.toThrow(
      /the action failed: the worker died/,
    );
  });
});
