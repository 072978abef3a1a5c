// The parts that change a run, as a person uses them: starting a run with the engine's agents, pausing and
// stopping a live run (and following a pause made elsewhere), exporting a task's video — each refusal shown.
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { engine } from '../test/fixtures';
import { ExportVideo } from './ExportVideo';
import { RunControls } from './RunControls';
import { StartRunForm } from './StartRunForm';

describe('the start-run form', () => {
  it("offers the engine's agents and task sets, refuses an empty task list, and opens the started run", async () => {
    engine().answer({
      'app.info': () =>
        ({
          root: '/srv',
          transport: 'http',
          version: '1',
          agents: [
            { name: 'oracle', about: '' },
            { name: 'human', about: 'a person acts' },
          ],
          taskSources: [{ path: 'demo/chrome', label: 'the bundled demo' }],
        }) as never,
      'runs.start': ({ tasks, agent }) =>
        tasks[0] === 'missing'
          ? Promise.reject(new Error('missing: no task file there'))
          : { runId: `r-${agent}` },
    });
    render(<StartRunForm />);
    await waitFor(() =>
      expect([...screen.getByLabelText<HTMLSelectElement>('agent').options].map((o) => o.value)).toEqual([
        'oracle',
        'human',
      ]),
    );
    expect(screen.getByTestId('task-sources').querySelector('option')?.getAttribute('value')).toBe(
      'demo/chrome',
    );
    fireEvent.click(screen.getByTestId('start-run-submit'));
    expect(screen.getByText(/name at least one task file.*or demo\/chrome/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('tasks to run'), { target: { value: 'missing' } });
    fireEvent.click(screen.getByTestId('start-run-submit'));
    expect(await screen.findByText('missing: no task file there')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('tasks to run'), { target: { value: 'demo/chrome' } });
    fireEvent.change(screen.getByLabelText('agent'), { target: { value: 'human' } });
    fireEvent.click(screen.getByTestId('start-run-submit'));
    await waitFor(() => expect(location.hash).toBe('#/runs/r-human'));
  });
});

describe('the run controls', () => {
  it('pauses, resumes and stops a run, follows a pause made elsewhere, and shows a refusal', async () => {
    let refuse = false;
    engine().answer({
      'runs.control': ({ action }) =>
        refuse ? Promise.reject(new Error(`cannot ${action}: the run has ended`)) : ({ ok: true } as never),
    });
    render(<RunControls runId="runs/r1" keys />);
    expect(screen.getByTestId('driving').textContent).toContain('running');
    fireEvent.click(screen.getByTestId('pause-run'));
    await waitFor(() => expect(screen.getByTestId('driving').textContent).toContain('paused'));
    act(() => engine().emit('run', { kind: 'run.paused', runId: 'r1', paused: false } as never));
    expect(screen.getByTestId('pause-run').textContent).toBe('Pause');
    refuse = true;
    act(() => void fireEvent.keyDown(window, { key: 'x' }));
    expect(await screen.findByText('cannot stop: the run has ended')).toBeTruthy();
    expect(engine().calls.map((c) => c.params)).toEqual([
      { runId: 'runs/r1', action: 'pause' },
      { runId: 'runs/r1', action: 'stop' },
    ]);
  });
});

describe('the video export', () => {
  it('makes the video and offers it for download, or says why it could not', async () => {
    let fail = true;
    engine().answer({
      'runs.exportVideo': () =>
        fail
          ? Promise.reject(new Error('ffmpeg is not installed'))
          : { path: 'run-1/chrome/t1/video.mp4', bytes: 3 * 1024 * 1024, frames: 420, seconds: 42 },
    });
    render(<ExportVideo runId="run-1" taskKey="chrome/t1" />);
    fireEvent.click(screen.getByText('export video'));
    expect((await screen.findByTestId('video-error')).textContent).toBe('ffmpeg is not installed');
    fail = false;
    fireEvent.click(screen.getByText('export video'));
    const link = await screen.findByTestId('video-download');
    expect(link.getAttribute('href')).toBe('/files/run-1/chrome/t1/video.mp4');
    expect(link.textContent).toBe('download chrome_t1.mp4 (3.0 MB, 42 s)');
  });
});
