// Pause, resume and stop a live run wherever it is shown (run table, replay), with keys (p pause/resume, x stop),
// and a visible sign that an agent is driving a display: a red dot and "running", or "paused".
import { useEffect, useState } from 'react';
import { onRunEvent, perform } from '../data/engine';

export function RunControls({
  runId,
  paused: initiallyPaused = false,
  keys = false,
}: {
  runId: string;
  paused?: boolean;
  keys?: boolean;
}) {
  const [paused, setPaused] = useState(initiallyPaused);
  const [stopping, setStopping] = useState(false);
  const [status, setStatus] = useState<string>();
  useEffect(() => setPaused(initiallyPaused), [initiallyPaused]);
  // Another window (or the engine) may pause it too: follow the run's own events.
  useEffect(
    () => onRunEvent((e) => e.kind === 'run.paused' && runId.endsWith(e.runId) && setPaused(e.paused)),
    [runId],
  );
  const send = async (action: 'pause' | 'resume' | 'stop') => {
    try {
      await perform('runs.control', { runId, action });
      if (action === 'pause' || action === 'resume') setPaused(action === 'pause');
      if (action === 'stop') setStopping(true);
      setStatus(undefined);
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  useEffect(() => {
    if (!keys) return;
    const onKey = (e: KeyboardEvent) => {
      if (
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement
      )
        return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (e.key === 'p') void send(paused ? 'resume' : 'pause');
      else if (e.key === 'x') void send('stop');
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });
  const state = stopping ? 'stopping' : paused ? 'paused' : 'running';
  return (
    <span className="run-buttons" data-testid="run-controls">
      <span
        className={`driving driving-${state}`}
        data-testid="driving"
        title={state === 'running' ? 'an agent is driving a display for this run' : undefined}
      >
        <span className={state === 'running' ? 'live-dot' : 'paused-dot'} />{' '}
        {state === 'running' ? 'running · an agent drives the display' : state}
      </span>
      <button
        onClick={() => send(paused ? 'resume' : 'pause')}
        disabled={stopping}
        title={keys ? 'key p' : undefined}
        data-testid="pause-run"
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
      <button
        onClick={() => send('stop')}
        disabled={stopping}
        data-testid="stop-run"
        title={keys ? 'key x' : undefined}
      >
        Stop
      </button>
      {status && <span className="muted small">{status}</span>}
    </span>
  );
}
