// The replay's "export video" button: the engine makes the task's MP4 (runs.exportVideo, as `proctor export video`)
// and the button offers it for download. Not in a read-only site (no engine there).
import { useState } from 'react';
import { fileUrl, perform } from '../data/engine';

type State =
  | { kind: 'idle' }
  | { kind: 'making' }
  | { kind: 'ready'; path: string; bytes: number; seconds: number }
  | { kind: 'failed'; message: string };

export function ExportVideo({ runId, taskKey }: { runId: string; taskKey: string }) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const make = async () => {
    setState({ kind: 'making' });
    try {
      const r = await perform('runs.exportVideo', { runId, taskKey });
      setState({ kind: 'ready', path: r.path, bytes: r.bytes, seconds: r.seconds });
    } catch (e) {
      setState({ kind: 'failed', message: (e as Error).message });
    }
  };
  const name = `${taskKey.replace(/[^\w.-]+/g, '_')}.mp4`;
  return (
    <span className="export-video small" data-testid="export-video">
      <button
        onClick={() => void make()}
        disabled={state.kind === 'making'}
        title="an MP4 of this task: each step with its click mark, a zoom toward each click, captions, the verdict"
      >
        {state.kind === 'making' ? 'making video…' : 'export video'}
      </button>
      {state.kind === 'ready' && (
        <a href={fileUrl(state.path)} download={name} data-testid="video-download" style={{ marginLeft: 6 }}>
          download {name} ({(state.bytes / 1024 / 1024).toFixed(1)} MB, {state.seconds.toFixed(0)} s)
        </a>
      )}
      {state.kind === 'failed' && (
        <span className="error" data-testid="video-error" style={{ marginLeft: 6 }}>
          {state.message}
        </span>
      )}
    </span>
  );
}
