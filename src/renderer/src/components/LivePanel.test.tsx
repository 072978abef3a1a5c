// What a live task waits for, as the person at the workbench meets it: the engine's waiting list on opening, then
// the live events (which win over an answer that predates them); approving, editing and acting send the decision,
// and the engine's refusal is shown.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Awaiting } from '../../../shared/run';
import { engine } from '../test/fixtures';
import { LivePanel, usePending } from './LivePanel';

function Live() {
  const awaiting = usePending('run-1', 'chrome/t1');
  return awaiting ? (
    <LivePanel runId="run-1" taskKey="chrome/t1" awaiting={awaiting} />
  ) : (
    <p>nothing waits</p>
  );
}

const approval = (step: number): Awaiting => ({
  step,
  what: 'approval',
  response: `I will click at step ${step}.`,
  actions: [{ type: 'click', x: 5, y: 5 }],
  code: 'pyautogui.click(5, 5)',
  observation: `run-1/chrome/t1/step_${step}.png`,
  screen: { width: 100, height: 100 },
});

describe('the live panel', () => {
  it('shows the action waiting for approval, sends the decision by button and key, and follows the events', async () => {
    engine().answer({
      'runs.pending': () => [
        { taskKey: 'chrome/other', awaiting: approval(9) },
        { taskKey: 'chrome/t1', awaiting: approval(2) },
      ],
      'runs.control': () => ({ ok: true }),
    });
    render(<Live />);
    expect((await screen.findByText('Step 2 waits for your approval')).tagName).toBe('H3');
    expect(screen.getByText('I will click at step 2.')).toBeTruthy();
    expect(screen.getByTestId('approval-image').getAttribute('src')).toBe(
      '/files/run-1/chrome/t1/step_2.png',
    );
    fireEvent.click(screen.getByTestId('approve'));
    await waitFor(() =>
      expect(
        engine()
          .calls.filter((c) => c.method === 'runs.control')
          .map((c) => c.params),
      ).toEqual([{ runId: 'run-1', action: 'approve', taskKey: 'chrome/t1', step: 2 }]),
    );
    act(() => engine().emit('run', { kind: 'task.resumed', runId: 'run-1', taskKey: 'chrome/t1', step: 2 }));
    expect(screen.getByText('nothing waits')).toBeTruthy();
    act(() =>
      engine().emit('run', {
        kind: 'task.awaiting',
        runId: 'run-1',
        taskKey: 'chrome/t1',
        awaiting: approval(3),
      }),
    );
    expect(screen.getByText('Step 3 waits for your approval')).toBeTruthy();
    // e opens the action's code to edit; the edit is performed instead.
    act(() => void fireEvent.keyDown(window, { key: 'e' }));
    fireEvent.change(screen.getByLabelText('edited action'), { target: { value: 'pyautogui.click(7, 7)' } });
    fireEvent.click(screen.getByTestId('perform-edit'));
    await waitFor(() =>
      expect(
        engine()
          .calls.filter((c) => c.method === 'runs.control')
          .at(-1)?.params,
      ).toEqual({
        runId: 'run-1',
        action: 'edit',
        taskKey: 'chrome/t1',
        step: 3,
        code: 'pyautogui.click(7, 7)',
      }),
    );
  });

  it('keeps what a live event said over a waiting list that answers after it', async () => {
    let answer: (list: { taskKey: string; awaiting: Awaiting }[]) => void = () => undefined;
    engine().answer({ 'runs.pending': () => new Promise((ok) => (answer = ok)) });
    render(<Live />);
    expect(screen.getByText('nothing waits')).toBeTruthy();
    act(() =>
      engine().emit('run', {
        kind: 'task.awaiting',
        runId: 'run-1',
        taskKey: 'chrome/t1',
        awaiting: approval(4),
      }),
    );
    expect(screen.getByText('Step 4 waits for your approval')).toBeTruthy();
    await act(async () => answer([{ taskKey: 'chrome/t1', awaiting: approval(3) }]));
    expect(screen.getByText('Step 4 waits for your approval')).toBeTruthy();
  });

  it("sends a person's action on their turn, and shows the engine's refusal", async () => {
    engine().answer({
      'runs.pending': () => [{ taskKey: 'chrome/t1', awaiting: { step: 1, what: 'human' } }],
      'runs.act': ({ text }) =>
        text === 'DONE' ? { ok: true } : Promise.reject(new Error(`cannot parse "${text}" as pyautogui`)),
    });
    render(<Live />);
    const input = await screen.findByLabelText('human action');
    expect(screen.getByText('Your turn: step 1')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'pyautogui.clack()' } });
    fireEvent.click(screen.getByText('Act'));
    expect(await screen.findByText('cannot parse "pyautogui.clack()" as pyautogui')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'DONE' } });
    fireEvent.click(screen.getByText('Act'));
    expect(await screen.findByText('sent: DONE')).toBeTruthy();
    expect((input as HTMLInputElement).value).toBe('');
  });
});
