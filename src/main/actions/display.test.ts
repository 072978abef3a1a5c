// Drawing other harnesses' actions: what ran is drawn, Proctor's own verdict is kept apart.
import { describe, expect, it } from 'vitest';
import { computerUseActions, displayAction, PointerState } from './display';
import { LIMITS, parsePyautogui } from './index';

describe('displayAction', () => {
  it('draws a click() at the position a moveTo on an earlier line left the pointer', () => {
    const pointer = new PointerState();
    expect(displayAction('import pyautogui; pyautogui.moveTo(546, 524)', pointer).actions).toEqual([
      { type: 'moveTo', x: 546, y: 524 },
    ]);
    const click = displayAction('pyautogui.click()', pointer);
    expect(click.actions).toEqual([{ type: 'click', x: 546, y: 524 }]);
    expect(click.wouldRefuse).toBeUndefined();
    // moveRel moves the carried pointer; a scroll without coordinates happens there.
    displayAction('pyautogui.moveRel(10, -4)', pointer);
    expect(displayAction('pyautogui.scroll(-3)', pointer).actions).toEqual([
      { type: 'scroll', dx: 0, dy: -3, x: 556, y: 520 },
    ]);
  });

  it('leaves a click without coordinates undrawn where no line placed the pointer yet', () => {
    expect(displayAction('pyautogui.click()', new PointerState()).actions).toEqual([{ type: 'click' }]);
  });

  it('draws a scroll over the cap and keeps the valid click beside it, noting that Proctor would refuse the line', () => {
    const over = -(LIMITS.scrollClicks + 4000);
    const d = displayAction(`pyautogui.scroll(${over})\npyautogui.click(700, 400)`, new PointerState());
    expect(d.actions).toEqual([
      { type: 'scroll', dx: 0, dy: over },
      { type: 'click', x: 700, y: 400 },
    ]);
    expect(d.wouldRefuse).toMatch(/clicks.*between/);
    expect(d.toolAction).toBeUndefined();
  });

  it("accepts pyautogui's usual scrolls (-800) in Proctor's own runner", () => {
    expect(parsePyautogui('pyautogui.scroll(-800)').ok).toBe(true);
    expect(displayAction('pyautogui.scroll(-800)', new PointerState()).wouldRefuse).toBeUndefined();
  });

  it('shows a shell command as a shell command, not as a refused action', () => {
    const d = displayAction(
      'BASH cd ~/Downloads && chmod +x support-tool.sh && ./support-tool.sh',
      new PointerState(),
    );
    expect(d.toolAction).toEqual({
      kind: 'shell',
      name: 'bash',
      text: 'cd ~/Downloads && chmod +x support-tool.sh && ./support-tool.sh',
    });
    expect(d.actions).toEqual([]);
    expect(d.wouldRefuse).toMatch(/shell/);
  });

  it('reads a tool call stored as JSON text as the call, and code that starts with a capital as code', () => {
    const d = displayAction(
      '{"name": "computer", "input": {"action": "left_click", "coordinate": [4, 5]}}',
      new PointerState(),
    );
    expect(d.actions).toEqual([{ type: 'click', x: 4, y: 5 }]);
    expect(d.toolAction?.name).toBe('computer');
    expect(displayAction('AB = 5', new PointerState()).toolAction).toEqual({
      kind: 'text',
      name: 'python',
      text: 'AB = 5',
    });
  });

  it('reads WAIT, DONE and FAIL as the special actions', () => {
    for (const t of ['WAIT', 'DONE', 'FAIL'] as const)
      expect(displayAction(t, new PointerState())).toEqual({ actions: [{ type: t }] });
  });

  it('resolves the Set-of-Mark prelude Spider2-V stores before the call', () => {
    const d = displayAction('index_27 = (995, 597)\npyautogui.click(index_27)', new PointerState());
    expect(d.actions).toEqual([{ type: 'click', x: 995, y: 597 }]);
    expect(d.wouldRefuse).toBeUndefined();
  });

  it('draws the readable lines of code the parser does not take whole, and names the rest', () => {
    const d = displayAction('x = 5\npyautogui.click(10, 20)\nfor i in range(3): pass', new PointerState());
    expect(d.actions).toEqual([{ type: 'click', x: 10, y: 20 }]);
    expect(d.undrawn).toContain('x = 5');
    expect(d.toolAction).toEqual({ kind: 'text', name: 'python', text: d.undrawn });
    expect(d.wouldRefuse).toBeDefined();
  });

  it('draws a long text, many clicks and a long sleep as they ran', () => {
    const text = 'a'.repeat(LIMITS.textChars + 5);
    const d = displayAction(
      `pyautogui.write('${text}')\npyautogui.click(5, 6, clicks=20)\ntime.sleep(90)`,
      new PointerState(),
    );
    expect(d.actions).toEqual([
      { type: 'write', text },
      { type: 'click', x: 5, y: 6, clicks: 20 },
      { type: 'sleep', seconds: 90 },
    ]);
    expect(d.wouldRefuse).toBeDefined();
  });

  it('draws computer-use tool calls and shows them as tool calls', () => {
    const pointer = new PointerState();
    const d = displayAction(
      { name: 'computer', input: { action: 'mouse_move', coordinate: [30, 40] } },
      pointer,
    );
    expect(d.toolAction).toMatchObject({ kind: 'tool', name: 'computer' });
    expect(displayAction({ action: 'left_click' }, pointer).actions).toEqual([
      { type: 'click', x: 30, y: 40 },
    ]);
    expect(displayAction({ name: 'bash', input: { command: 'ls' } }, pointer).toolAction).toMatchObject({
      kind: 'shell',
      name: 'bash',
    });
    expect(computerUseActions({ action: 'key', text: 'ctrl+s' })).toEqual([
      { type: 'hotkey', keys: ['ctrl', 's'] },
    ]);
    expect(
      computerUseActions({
        action: 'scroll',
        coordinate: [1, 2],
        scroll_direction: 'down',
        scroll_amount: 5,
      }),
    ).toEqual([{ type: 'scroll', dx: 0, dy: -5, x: 1, y: 2 }]);
  });

  it('reads computer_13 dicts with the strict parser, and says why when it would refuse one', () => {
    expect(displayAction({ action_type: 'CLICK', x: 3, y: 4 }, new PointerState()).actions).toEqual([
      { type: 'click', x: 3, y: 4 },
    ]);
    const bad = displayAction({ action_type: 'TELEPORT' }, new PointerState());
    expect(bad.wouldRefuse).toBeDefined();
    expect(bad.toolAction?.kind).toBe('text');
  });
});
