import { describe, expect, it } from 'vitest';
import { readReply } from './reply';

describe('readReply', () => {
  it('takes the code of a fenced python block and its line in the reply', () => {
    const r = readReply('I will click the button.\n```python\npyautogui.click(10, 20)\n```', 'pyautogui');
    expect(r).toEqual({ ok: true, parts: [{ kind: 'code', code: 'pyautogui.click(10, 20)', line: 3 }] });
  });

  it('reads a token block, a bare token line, and code followed by DONE in the same block', () => {
    expect(readReply('All set.\n```\nDONE\n```', 'pyautogui')).toMatchObject({
      ok: true,
      parts: [{ kind: 'token', token: 'DONE' }],
    });
    expect(readReply('The page is loading.\nWAIT', 'pyautogui')).toMatchObject({
      ok: true,
      parts: [{ kind: 'token', token: 'WAIT' }],
    });
    expect(readReply('```python\npyautogui.press("enter")\nDONE\n```', 'pyautogui')).toMatchObject({
      ok: true,
      parts: [
        { kind: 'code', code: 'pyautogui.press("enter")' },
        { kind: 'token', token: 'DONE', line: 3 },
      ],
    });
  });

  it('keeps several blocks in order', () => {
    const r = readReply(
      '```python\npyautogui.click(1, 2)\n```\nthen\n```python\npyautogui.write("x")\n```',
      'pyautogui',
    );
    expect(r.ok && r.parts.map((p) => (p.kind === 'code' ? p.code : p.token))).toEqual([
      'pyautogui.click(1, 2)',
      'pyautogui.write("x")',
    ]);
  });

  it('accepts unfenced pyautogui code and an unfenced computer_13 dict', () => {
    expect(readReply('pyautogui.click(5, 6)', 'pyautogui')).toMatchObject({
      ok: true,
      parts: [{ kind: 'code', code: 'pyautogui.click(5, 6)' }],
    });
    expect(readReply('{"action_type": "CLICK", "x": 1, "y": 2}', 'computer_13')).toMatchObject({
      ok: true,
      parts: [{ kind: 'code' }],
    });
  });

  it('refuses prose without an action, saying how to answer', () => {
    const r = readReply('I think I should click the OK button now, which is done.', 'pyautogui');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/```python code block.*WAIT, DONE or FAIL/);
  });
});
