// Runs side by side as a person uses them: the tasks the runs share (flipped ones first), a task's steps in every
// run stepped together with the divergence marked, the engine's errors shown, and an old answer never over a newer.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RunDetail, TaskComparison, TaskTrajectory } from '../../../shared/api';
import type { RunTaskItem } from '../../../shared/run';
import { useRoute } from '../route';
import { engine, runListItem, stepOf, trajectory } from '../test/fixtures';
import { CompareView } from './Compare';

function Routed() {
  return <CompareView route={useRoute()} />;
}

const item = (key: string, score: number): RunTaskItem =>
  ({
    key,
    taskId: key.split('/')[1],
    domain: key.split('/')[0],
    state: 'success',
    score,
    steps: 2,
  }) as RunTaskItem;

const detail = (path: string, tasks: RunTaskItem[]): RunDetail => ({
  run: runListItem(path),
  tasks,
  problems: [],
});

/** Two runs of chrome/t1: the same first step, then a click elsewhere in run-b. */
function comparison(taskKey = 'chrome/t1'): TaskComparison {
  const run = (path: string, x: number): TaskTrajectory & { run: { path: string } } => ({
    ...trajectory({ runId: path, taskKey }),
    steps: [
      stepOf(1, { actions: [{ type: 'click', x: 10, y: 20 }], screen: { width: 100, height: 100 } }),
      stepOf(2, { actions: [{ type: 'click', x, y: 50 }], screen: { width: 100, height: 100 } }),
    ],
    run: { path },
  });
  return { taskKey, runs: [run('run-a', 40), run('run-b', 90)], actionDivergence: 2 } as TaskComparison;
}

describe('the compare view', () => {
  it('asks for two runs at least', () => {
    history.replaceState(null, '', '#/compare?run=run-a');
    render(<Routed />);
    expect(screen.getByTestId('compare-empty').textContent).toContain('Pick 2 to');
    expect(engine().calls).toEqual([]);
  });

  it('lists the tasks both runs have, the ones whose scores differ first, and opens one', async () => {
    engine().answer({
      'runs.get': ({ runId }) =>
        runId === 'run-a'
          ? detail('run-a', [item('chrome/a', 1), item('chrome/b', 1), item('gimp/only-a', 0)])
          : detail('run-b', [item('chrome/a', 1), item('chrome/b', 0)]),
      'runs.pairedStats': () => Promise.reject(new Error('not for annotators')),
    });
    history.replaceState(null, '', '#/compare?run=run-a&run=run-b');
    render(<Routed />);
    const rows = await screen.findAllByTestId('shared-task-row');
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['chrome/b', 'chrome/a']);
    expect(screen.getByText(/2 tasks in all 2 runs · 1 with different/)).toBeTruthy();
    expect(
      engine()
        .calls.filter((c) => c.method === 'runs.get')
        .map((c) => c.params),
    ).toEqual([{ runId: 'run-a' }, { runId: 'run-b' }]);
    fireEvent.click(rows[0]);
    expect(location.hash).toContain('task=chrome%2Fb');
  });

  it("shows the engine's error when a run cannot be read", async () => {
    engine().answer({
      'runs.get': ({ runId }) =>
        runId === 'run-b' ? Promise.reject(new Error('run-b: no such run below /srv')) : detail('run-a', []),
      'runs.pairedStats': () => Promise.reject(new Error('no')),
    });
    history.replaceState(null, '', '#/compare?run=run-a&run=run-b');
    render(<Routed />);
    expect(await screen.findByText('run-b: no such run below /srv')).toBeTruthy();
  });

  it('steps every run together, marks where they part, and jumps to the first divergence', async () => {
    engine().answer({
      'runs.compare': ({ taskKey }) => comparison(taskKey),
      'runs.stepDiffs': () => ({ diffs: [[0, 0.5]], threshold: 0.05, screenDivergence: 2 }),
    });
    history.replaceState(null, '', '#/compare?run=run-a&run=run-b&task=chrome%2Ft1');
    render(<Routed />);
    expect((await screen.findByTestId('compare-step')).textContent).toBe('step 1 of 2');
    await screen.findByTestId('divergence-screen');
    expect(screen.getByTestId('divergence-action').getAttribute('data-step')).toBe('2');
    expect(screen.getAllByTestId('compare-panel').map((p) => p.getAttribute('data-differs'))).toEqual([
      '0',
      '0',
    ]);
    fireEvent.click(screen.getByTestId('jump-divergence'));
    await waitFor(() => expect(screen.getByTestId('compare-step').textContent).toBe('step 2 of 2'));
    expect(screen.getAllByTestId('compare-panel')[1].getAttribute('data-differs')).toBe('1');
    expect(screen.getAllByTestId('compare-panel')[1].textContent).toContain('screen differs 50.0%');
    act(() => void fireEvent.keyDown(window, { key: 'ArrowLeft' }));
    await waitFor(() => expect(screen.getByTestId('compare-step').textContent).toBe('step 1 of 2'));
  });

  it('says the runs act the same when they do, and that the screens were not compared when they cannot be', async () => {
    engine().answer({
      'runs.compare': ({ taskKey }) => ({ ...comparison(taskKey), actionDivergence: undefined }),
      'runs.stepDiffs': () => Promise.reject(new Error('this is a read-only export')),
    });
    history.replaceState(null, '', '#/compare?run=run-a&run=run-b&task=chrome%2Ft1');
    render(<Routed />);
    expect(await screen.findByText('the runs act the same throughout (screens not compared)')).toBeTruthy();
    expect(screen.queryByTestId('jump-divergence')).toBeNull();
  });

  it('shows the comparison of the task in the link, not an older answer for the task before', async () => {
    const late: ((c: TaskComparison) => void)[] = [];
    engine().answer({
      'runs.compare': ({ taskKey }) =>
        taskKey === 'chrome/old' ? new Promise((ok) => late.push(ok)) : comparison(taskKey),
      'runs.stepDiffs': () => Promise.reject(new Error('screens not compared')),
    });
    history.replaceState(null, '', '#/compare?run=run-a&run=run-b&task=chrome%2Fold');
    render(<Routed />);
    expect(await screen.findByText('Reading trajectories…')).toBeTruthy();
    act(() => {
      history.replaceState(null, '', '#/compare?run=run-a&run=run-b&task=chrome%2Fnew');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    await screen.findByTestId('compare-view');
    expect(screen.getByTestId('compare-view').textContent).toContain('chrome/new');
    await act(async () => late[0]({ ...comparison('chrome/old'), actionDivergence: undefined }));
    expect(screen.getByTestId('compare-view').textContent).toContain('chrome/new');
    expect(screen.getByTestId('compare-view').textContent).not.toContain('chrome/old');
    expect(screen.getByTestId('jump-divergence').textContent).toBe('first divergence: step 2');
  });
});
