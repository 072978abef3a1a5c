// The queue of a run enqueued for workers, as the run table shows it: progress and counts, read again every few
// seconds through the store, and why the queue could not be read.
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueueStatus } from '../../../shared/queue';
import { engine } from '../test/fixtures';
import { QueuePanel } from './QueuePanel';

const status = (done: number): QueueStatus => ({
  queue: 'redis://127.0.0.1/proctor',
  waiting: 4 - done,
  active: 1,
  delayed: 0,
  done,
  failed: 1,
  retried: 2,
  total: 6,
  workersOnline: ['w1'],
  perWorker: [{ name: 'w1', active: 1, done }],
  running: [{ taskKey: 'chrome/t3', step: 7, attempt: 2 }],
  failures: [{ taskKey: 'chrome/t9', reason: 'the VM did not boot' }],
  perMinute: 1.5,
});

beforeEach(() => vi.useFakeTimers({ shouldAdvanceTime: true }));
afterEach(() => vi.useRealTimers());

describe('the queue panel', () => {
  it('shows the queue of a queued run and reads it again every few seconds', async () => {
    let done = 1;
    engine().answer({ 'runs.queue': () => ({ queue: 'redis://127.0.0.1/proctor', status: status(done) }) });
    render(<QueuePanel runId="run-1" />);
    const counts = await screen.findByTestId('queue-counts');
    expect(counts.textContent).toContain(
      '2 of 6 finished · waiting 3 · active 1 · done 1 · failed 1 · retried 2',
    );
    expect(counts.textContent).toContain('1.5 tasks/min');
    expect(screen.getByText(/running: chrome\/t3 step 7 \(attempt 2\)/)).toBeTruthy();
    expect(screen.getByText(/failed: chrome\/t9: the VM did not boot/)).toBeTruthy();
    done = 3;
    await act(async () => void (await vi.advanceTimersByTimeAsync(3100)));
    expect(screen.getByTestId('queue-counts').textContent).toContain('4 of 6 finished');
    expect(engine().calls.filter((c) => c.method === 'runs.queue')).toHaveLength(2);
  });

  it('shows nothing for a run without a queue, and why a queue cannot be read', async () => {
    engine().answer({
      'runs.queue': ({ runId }) =>
        runId === 'plain' ? null : { queue: 'redis://q', error: 'connection refused' },
    });
    const { rerender, container } = render(<QueuePanel runId="plain" />);
    await act(async () => void (await vi.advanceTimersByTimeAsync(10)));
    expect(container.textContent).toBe('');
    rerender(<QueuePanel runId="queued" />);
    expect((await screen.findByTestId('queue-panel')).textContent).toContain('connection refused');
  });
});
