// What a live task of a workbench-started run waits for: approve or reject the agent's proposed action, or —
// for the human agent — click on the live screenshot and type, to act and record it as the trajectory.
import { useEffect, useRef, useState } from 'react';
import type { Awaiting } from '../../../shared/run';
import { describeAction } from '../../../shared/describe-action';
import { fileUrl, onRunEvent, perform } from '../data/engine';
import { useCall } from '../data/use-call';
import { ActionOverlay, colourOf } from './ActionOverlay';

/**
 * What the task waits for: the engine's list of waiting tasks (asked on mount, through the store), then the live
 * events, which win over that answer (it may predate them). The answer kept from an earlier visit is not shown
 * while it is asked again (it may be long past); a newer one stays on screen while it is read again.
 */
export function usePending(runId: string, taskKey: string): Awaiting | undefined {
  const { data: list, loading } = useCall('runs.pending', { runId });
  const kept = useRef(list);
  const [heard, setHeard] = useState<{ key: string; awaiting?: Awaiting }>();
  const key = `${runId}\n${taskKey}`;
  useEffect(
    () =>
      onRunEvent((e) => {
        if (e.kind === 'task.awaiting' && e.taskKey === taskKey) setHeard({ key, awaiting: e.awaiting });
        if (e.kind === 'task.resumed' && e.taskKey === taskKey) setHeard({ key });
      }),
    [key, taskKey],
  );
  if (heard?.key === key) return heard.awaiting;
  if (loading && list === kept.current) return undefined;
  return list?.find((p) => p.taskKey === taskKey)?.awaiting;
}

export function LivePanel({
  runId,
  taskKey,
  awaiting,
}: {
  runId: string;
  taskKey: string;
  awaiting: Awaiting;
}) {
  const [text, setText] = useState('');
  const [status, setStatus] = useState<string>();
  const img = useRef<HTMLImageElement>(null);
  const act = async (entry: string) => {
    try {
      await perform('runs.act', { runId, taskKey, text: entry });
      setText('');
      setStatus(`sent: ${entry}`);
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  const [editing, setEditing] = useState(false);
  const [code, setCode] = useState('');
  const decide = async (action: 'approve' | 'reject' | 'edit' | 'stop') => {
    try {
      if (action === 'stop') await perform('runs.control', { runId, action: 'stop' });
      else
        await perform('runs.control', {
          runId,
          action,
          taskKey,
          step: awaiting.step,
          ...(action === 'edit' ? { code } : {}),
        });
      if (action === 'edit') setEditing(false);
      setStatus(action === 'stop' ? 'stopping the run…' : undefined);
    } catch (e) {
      setStatus((e as Error).message);
    }
  };
  // Keys while an action waits: a approve, e edit, r reject, x stop the run (not while typing).
  useEffect(() => {
    if (awaiting.what !== 'approval') return;
    const onKey = (e: KeyboardEvent) => {
      if (
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement
      )
        return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 'a') void decide('approve');
      else if (key === 'r') void decide('reject');
      else if (key === 'x') void decide('stop');
      else if (key === 'e') {
        setCode(awaiting.code ?? '');
        setEditing(true);
      } else return;
      e.preventDefault();
      e.stopPropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  });
  return (
    <div className="live-panel" data-testid="live-panel">
      {awaiting.what === 'approval' ? (
        <>
          <h3>Step {awaiting.step} waits for your approval</h3>
          <div className="step-actions">
            {(awaiting.actions ?? []).map((a, i) => (
              <span key={i} className="chip" style={{ borderColor: colourOf(i), color: colourOf(i) }}>
                {describeAction(a)}
              </span>
            ))}
          </div>
          {awaiting.observation && (
            <div className="shot-frame approval-screen" data-testid="approval-screen">
              <img
                src={fileUrl(awaiting.observation)}
                alt={`the screen at step ${awaiting.step}, before the action`}
                data-testid="approval-image"
              />
              {awaiting.screen && (
                <ActionOverlay actions={awaiting.actions ?? []} screen={awaiting.screen} showMarks={false} />
              )}
            </div>
          )}
          <pre className="small">{awaiting.response}</pre>
          {editing && (
            <form
              className="toolbar"
              onSubmit={(e) => {
                e.preventDefault();
                void decide('edit');
              }}
            >
              <textarea
                aria-label="edited action"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                rows={3}
                cols={60}
                autoFocus
              />
              <button type="submit" data-testid="perform-edit">
                Perform this instead
              </button>
              <button type="button" onClick={() => setEditing(false)}>
                Cancel
              </button>
            </form>
          )}
          <div className="buttons">
            <button data-testid="approve" onClick={() => decide('approve')} title="key a">
              Approve and perform (a)
            </button>
            <button
              data-testid="edit"
              onClick={() => {
                setCode(awaiting.code ?? '');
                setEditing(true);
              }}
              title="key e"
            >
              Edit (e)
            </button>
            <button data-testid="reject" onClick={() => decide('reject')} title="key r">
              Reject (r)
            </button>
            <button data-testid="stop-run" onClick={() => decide('stop')} title="key x">
              Stop the run (x)
            </button>
          </div>
        </>
      ) : (
        <>
          <h3>Your turn: step {awaiting.step}</h3>
          <p className="muted small">
            Click on the screen to click there, or type pyautogui code (e.g. pyautogui.write('hi'); statements
            separated by ;), or DONE / FAIL.
          </p>
          {awaiting.observation && (
            <img
              ref={img}
              className="live-screen"
              src={fileUrl(awaiting.observation)}
              alt="live screen"
              data-testid="live-screen"
              onClick={(e) => {
                const el = img.current;
                if (!el || !awaiting.screen) return;
                const box = el.getBoundingClientRect();
                const x = Math.round(((e.clientX - box.left) / box.width) * awaiting.screen.width);
                const y = Math.round(((e.clientY - box.top) / box.height) * awaiting.screen.height);
                void act(`pyautogui.click(${x}, ${y})`);
              }}
            />
          )}
          <form
            className="toolbar"
            onSubmit={(e) => {
              e.preventDefault();
              if (text.trim()) void act(text);
            }}
          >
            <input
              aria-label="human action"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="pyautogui code, DONE or FAIL"
            />
            <button type="submit">Act</button>
          </form>
        </>
      )}
      {status && <div className="muted small">{status}</div>}
    </div>
  );
}
