import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { needsShared, repoFixtures, sharedFixtures } from '../testing/shared-fixtures';
import { parseAction, parseComputer13, parsePyautogui } from './index';

const full = sharedFixtures();

function jsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonFiles(p));
    else if (name.endsWith('.json')) out.push(p);
  }
  return out;
}

/** The `python -c <code>` commands that use pyautogui in task files' config and evaluator steps. */
function pyautoguiCommands(value: unknown, found: string[]): string[] {
  if (Array.isArray(value)) {
    if (
      (value[0] === 'python' || value[0] === 'python3') &&
      value[1] === '-c' &&
      typeof value[2] === 'string' &&
      value[2].includes('pyautogui')
    ) {
      found.push(value[2]);
    }
    for (const v of value) pyautoguiCommands(v, found);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) pyautoguiCommands(v, found);
  }
  return found;
}

/** Every pyautogui command of the task files under `root`, each parsed. */
function parseFixtureCommands(root: string): string[] {
  const commands: string[] = [];
  for (const file of jsonFiles(root)) {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      continue;
    }
    pyautoguiCommands(data, commands);
  }
  for (const code of commands) {
    const outcome = parsePyautogui(code);
    expect(outcome, code).toMatchObject({ ok: true });
  }
  return commands;
}

describe('parsePyautogui on real task files', () => {
  it.skipIf(!full)(`parses every pyautogui command of the full fixture tasks (${needsShared})`, () => {
    expect(parseFixtureCommands(full!.root).length).toBeGreaterThan(10);
    expect(parsePyautogui('import pyautogui; pyautogui.hotkey("ctrl", "s");')).toEqual({
      ok: true,
      actions: [{ type: 'hotkey', keys: ['ctrl', 's'] }],
    });
  });

  it('parses every pyautogui command of the in-repo fixture tasks', () => {
    expect(parseFixtureCommands(repoFixtures.root)).toHaveLength(4);
    expect(parsePyautogui('import pyautogui; pyautogui.hotkey("ctrl", "s");')).toEqual({
      ok: true,
      actions: [{ type: 'hotkey', keys: ['ctrl', 's'] }],
    });
  });
});

describe('parsePyautogui', () => {
  it('reports refusals at their line in the whole reply, also in a later block', () => {
    const reply =
      'Plan:\n```python\npyautogui.click(1, 2)\n```\nNext:\n```python\n\npyautogui.press("tab")\neval("1")\n```';
    const outcome = parsePyautogui(reply);
    expect(outcome).toEqual({
      ok: false,
      error: { line: 9, col: 1, message: expect.stringContaining("'eval' is not allowed") },
    });
    if (!outcome.ok) expect(outcome.error.message.startsWith('line 9, column 1: ')).toBe(true);
  });

  it('refuses coordinates outside the given bounds', () => {
    expect(parsePyautogui('pyautogui.click(1919, 1079)', { bounds: { width: 1920, height: 1080 } }).ok).toBe(
      true,
    );
    const out = parsePyautogui('pyautogui.click(1920, 5)', { bounds: { width: 1920, height: 1080 } });
    expect(out).toMatchObject({
      ok: false,
      error: { line: 1, col: 17, message: expect.stringContaining('outside the screen') },
    });
  });

  it('performs nothing of a reply whose last statement is hostile', () => {
    const out = parsePyautogui('```python\npyautogui.click(1, 2)\npyautogui.write("ok")\nimport os\n```');
    expect(out.ok).toBe(false);
    expect('actions' in out).toBe(false);
  });
});

describe('parseComputer13', () => {
  it('validates an already-parsed dict', () => {
    expect(parseComputer13({ action_type: 'CLICK', parameters: { x: 1, y: 2, button: 'right' } })).toEqual({
      ok: true,
      actions: [{ type: 'click', x: 1, y: 2, button: 'right' }],
    });
    expect(parseComputer13([{ action_type: 'WAIT' }, 'DONE'])).toEqual({
      ok: true,
      actions: [{ type: 'WAIT' }, { type: 'DONE' }],
    });
    expect(parseComputer13({ action_type: 'PRESS' })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('needs the parameter "key"') },
    });
    expect(parseComputer13(42)).toMatchObject({ ok: false });
  });

  it("checks x and y against the screen like OSWorld's X_MAX / Y_MAX", () => {
    const bounds = { width: 1920, height: 1080 };
    expect(parseComputer13('{"action_type": "MOVE_TO", "x": 1920, "y": 1080}', { bounds }).ok).toBe(true);
    expect(parseComputer13('{"action_type": "MOVE_TO", "x": 1921, "y": 0}', { bounds })).toMatchObject({
      ok: false,
      error: { line: 1, col: 33 },
    });
  });
});

describe('parseAction', () => {
  it('dispatches on the action space', () => {
    expect(parseAction('pyautogui', 'pyautogui.press("f5")')).toEqual({
      ok: true,
      actions: [{ type: 'press', keys: ['f5'] }],
    });
    expect(parseAction('computer_13', '{"action_type": "PRESS", "key": "f5"}')).toEqual({
      ok: true,
      actions: [{ type: 'press', keys: ['f5'] }],
    });
    expect(parseAction('pyautogui', { action_type: 'PRESS' })).toMatchObject({ ok: false });
    expect(parseAction('other' as 'pyautogui', 'DONE')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('unknown action space') },
    });
  });
});
