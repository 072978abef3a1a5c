// The list of runs as a person meets it: the runs with their progress and success, the empty folder, a live run
// read again when its events arrive, picking runs to compare, and opening one.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RunListItem } from '../../../shared/run';
import { parseRoute } from '../route';
import { engine, runListItem } from '../test/fixtures';
import { RunsView } from './RunsView';

function engineWithRuns(list: () => RunListItem[]) {
  engine().answer({
    'runs.list': list,
    'app.info': () => Promise.reject(new Error('not asked in this test')),
    'runs.stats': () => Promise.reject(new Error('not asked in this test')),
  });
}

describe('the run list', () => {
  it('says how to make a run when the folder has none', async () => {
    engineWithRuns(() => []);
    render(<RunsView route={parseRoute('#/runs')} />);
    expect(await screen.findByText(/No runs below the served folder yet/)).toBeTruthy();
  });

  it('lists the runs, reads them again on a live event, and opens the one clicked', async () => {
    let finished = 1;
    engineWithRuns(() => [
      runListItem('run-a', {
        agent: 'llm',
        model: 'gpt-4o',
        tasks: 3,
        finished,
        successRate: 0.5,
        live: true,
      }),
      runListItem('run-b', { tasks: 2, finished: 2, successRate: 1 }),
    ]);
    render(<RunsView route={parseRoute('#/runs')} />);
    const rows = await screen.findAllByTestId('run-row');
    expect(rows.map((r) => within(r).getAllByRole('cell')[1].textContent?.trim())).toEqual([
      'run-a',
      'run-b',
    ]);
    expect(rows[0].textContent).toContain('llm / gpt-4o');
    expect(within(rows[1]).getAllByRole('cell')[3].textContent?.trim()).toBe('not recorded');
    expect(rows[0].textContent).toContain('1/3');
    expect(rows[0].textContent).toContain('running');
    finished = 2;
    act(() => engine().emit('run', { kind: 'task.finished', runId: 'run-a', taskKey: 'chrome/t1' } as never));
    await waitFor(() => expect(screen.getAllByTestId('run-row')[0].textContent).toContain('2/3'), {
      timeout: 3000,
    });
    const compare = screen.getByTestId('compare-runs') as HTMLButtonElement;
    expect(compare.disabled).toBe(true);
    for (const pick of screen.getAllByTestId('run-pick')) fireEvent.click(pick);
    expect(compare.disabled).toBe(false);
    expect(compare.textContent).toContain('Compare 2 side by side');
    fireEvent.click(screen.getAllByTestId('run-row')[1]);
    expect(location.hash).toBe('#/runs/run-b');
  });

  it("shows the engine's error when the list cannot be read", async () => {
    engine().answer({
      'runs.list': () => Promise.reject(new Error('cannot read /srv/results: permission denied')),
      'app.info': () => Promise.reject(new Error('no')),
    });
    render(<RunsView route={parseRoute('#/runs')} />);
    expect(await screen.findByText('cannot read /srv/results: permission denied')).toBeTruthy();
  });

  it('answers a link to a run that is not there with the reason and the way back, and a missing task with its run', async () => {
    engine().answer({
      'runs.get': () => Promise.reject(new Error("no run 'gone-run' below the served folder")),
      'runs.task': () => Promise.reject(new Error("run-a has no task 'chrome/nope'")),
      'app.info': () => Promise.reject(new Error('no')),
    });
    const { unmount } = render(<RunsView route={parseRoute('#/runs/gone-run')} />);
    expect(await screen.findByText("no run 'gone-run' below the served folder")).toBeTruthy();
    const back = within(screen.getByTestId('load-error')).getByRole('link', { name: '← all runs' });
    expect(back.getAttribute('href')).toBe('#/runs');
    unmount();
    render(<RunsView route={parseRoute('#/runs/run-a?task=chrome%2Fnope')} />);
    expect(await screen.findByText("run-a has no task 'chrome/nope'")).toBeTruthy();
    const links = within(screen.getByTestId('load-error')).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['← run run-a', '#/runs/run-a'],
      ['← all runs', '#/runs'],
    ]);
  });
});
