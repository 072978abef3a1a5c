// The replay of one task as a person walks it: the steps, the score, the stage, keys and clicks that move through it.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { clearStore } from '../data/store';
import { navigate, useRoute } from '../route';
import { engine, runListItem, trajectory } from '../test/fixtures';
import { Replay } from './Replay';

function Routed() {
  const route = useRoute();
  return <Replay runId="run-1" taskKey="chrome/t1" route={route} />;
}

/** The caption over the stage's screenshot (the step shown). */
const stageTitle = () => document.querySelector('.stage .shot figcaption')?.textContent;

beforeEach(() => {
  clearStore();
  engine().answer({
    'runs.task': ({ runId, taskKey }) => ({ ...trajectory(), runId, taskKey }),
    'runs.list': () => [runListItem('run-1')],
  });
  navigate('runs', ['run-1'], { task: 'chrome/t1', step: '1' }, true);
});

describe('the replay', () => {
  it('shows the task, its score, its steps and the first step on the stage', async () => {
    render(<Routed />);
    expect(await screen.findByTestId('replay')).toBeTruthy();
    expect(screen.getByText('Search for hello.')).toBeTruthy();
    expect(screen.getByTestId('replay-score').textContent).toBe('score 1');
    expect(screen.getAllByTestId('frame')).toHaveLength(3);
    expect(stageTitle()).toBe('step 1');
    expect(screen.getByTestId('click-mark')).toBeTruthy();
    expect(engine().calls.filter((c) => c.method === 'runs.task')).toEqual([
      { method: 'runs.task', params: { runId: 'run-1', taskKey: 'chrome/t1' } },
    ]);
  });

  it('walks the steps with the arrow keys, Home and End, and names the step in the link', async () => {
    render(<Routed />);
    await screen.findByTestId('replay');
    act(() => void fireEvent.keyDown(window, { key: 'ArrowRight' }));
    expect(stageTitle()).toBe('step 2');
    expect(location.hash).toContain('step=2');
    expect(screen.getByTestId('typed-mark').textContent).toBe('⌨ “hello”');
    act(() => void fireEvent.keyDown(window, { key: 'End' }));
    expect(screen.getByTestId('stage-error').textContent).toBe('Error: the window closed');
    act(() => void fireEvent.keyDown(window, { key: 'ArrowLeft' }));
    expect(stageTitle()).toBe('step 2');
    act(() => void fireEvent.keyDown(window, { key: 'Home' }));
    expect(stageTitle()).toBe('step 1');
  });

  it('switches the Set-of-Mark view with s and its box, and opens a step from the filmstrip', async () => {
    render(<Routed />);
    await screen.findByTestId('replay');
    const som = screen.getByTestId('som-toggle') as HTMLInputElement;
    expect(som.checked).toBe(false);
    act(() => void fireEvent.keyDown(window, { key: 's' }));
    expect(som.checked).toBe(true);
    fireEvent.click(som);
    expect(som.checked).toBe(false);
    fireEvent.click(screen.getAllByTestId('frame')[2]);
    expect(stageTitle()).toBe('step 3');
    expect(screen.getByText('no screenshot')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Feedback ⚠' })).toBeTruthy();
  });

  it('keeps the chosen tab in the link and shows its body', async () => {
    render(<Routed />);
    await screen.findByTestId('replay');
    expect(screen.getByTestId('tab-response').textContent).toContain('I click the search box.');
    fireEvent.click(screen.getByRole('tab', { name: 'Tokens & timing' }));
    expect(location.hash).toContain('tab=timing');
    expect(screen.getByTestId('tab-timing').textContent).toContain('prompt tokens');
  });

  it("reads the task again when a live event names it, and shows the engine's error", async () => {
    render(<Routed />);
    await screen.findByTestId('replay');
    engine().answer({
      'runs.task': () => Promise.reject(new Error('run-1/chrome/t1/traj.jsonl: line 2 is not JSON')),
    });
    act(() => engine().emit('run', { kind: 'step', runId: 'run-1', taskKey: 'chrome/t1' } as never));
    await waitFor(
      () => expect(screen.getByText('run-1/chrome/t1/traj.jsonl: line 2 is not JSON')).toBeTruthy(),
      { timeout: 3000 },
    );
  });
});
