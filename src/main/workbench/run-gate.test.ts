// The approval gate decides one task's proposed action at a time and leaves nothing behind.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../../shared/run';
import { RunGate } from './run-gate';

describe('the approval gate', () => {
  it('approves only the task (and step) named, and tells the UI when a task goes on', async () => {
    const events: RunEvent[] = [];
    const gate = new RunGate(
      true,
      (e) => events.push(e),
      () => 'run-1',
    );
    const signal = new AbortController().signal;
    const a = gate.ask('app/a', { step: 3, what: 'approval' }, signal);
    const b = gate.ask('app/b', { step: 1, what: 'approval' }, signal);
    expect(gate.decide('approve', 'app/a', 2)).toBe(false); // not the step waiting
    expect(gate.decide('approve', 'app/a', 3)).toBe(true);
    expect(await a).toBe('approve');
    expect(gate.pending.has('app/b')).toBe(true);
    expect(gate.decide('reject', 'app/b')).toBe(true);
    expect(await b).toBe('reject');
    expect(
      events.filter((e) => e.kind === 'task.resumed').map((e) => (e as { taskKey: string }).taskKey),
    ).toEqual(['app/a', 'app/b']);
  });

  it('rejects a waiting action when the run stops, and removes its listeners from the run signal', async () => {
    const gate = new RunGate(
      true,
      () => undefined,
      () => 'run-1',
    );
    const stop = new AbortController();
    for (let step = 1; step <= 12; step++) {
      const p = gate.ask('app/a', { step, what: 'approval' }, stop.signal);
      gate.decide('approve', 'app/a', step);
      await p;
    }
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    const waiting = gate.ask('app/a', { step: 13, what: 'approval' }, stop.signal);
    stop.abort();
    expect(await waiting).toBe('reject');
    expect(gate.pending.size).toBe(0);
  });
});
