// The task's screen recording (`recording.mp4`) beside the replay: a <video> served in byte ranges, seeking to the
// selected entry's moment (`recordingAt`, from the harness's timestamps) whenever the selection changes.
import { useEffect, useRef, useState } from 'react';
import { fileUrl } from '../data/engine';

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

export function Recording({ path, at, stepLabel }: { path: string; at?: number; stepLabel: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [bad, setBad] = useState<string>();

  useEffect(() => {
    const v = ref.current;
    if (!v || at === undefined) return;
    const seek = () => {
      // Past the end (the recording stopped before the trajectory did): its last frame.
      const end = Number.isFinite(v.duration) ? v.duration : at;
      v.currentTime = Math.min(at, Math.max(0, end - 0.05));
    };
    if (v.readyState >= HTMLMediaElement.HAVE_METADATA) {
      seek();
      return;
    }
    v.addEventListener('loadedmetadata', seek, { once: true });
    return () => v.removeEventListener('loadedmetadata', seek);
  }, [at, path]);

  return (
    <figure className="recording" data-testid="recording">
      <figcaption>
        screen recording ·{' '}
        {at === undefined ? (
          <span className="muted">no time for {stepLabel}</span>
        ) : (
          <span data-testid="recording-at">
            {stepLabel} at {clock(at)}
          </span>
        )}
      </figcaption>
      <video
        ref={ref}
        src={fileUrl(path)}
        controls
        muted
        preload="metadata"
        data-testid="recording-video"
        onError={() => setBad(`cannot play ${path}`)}
        style={bad ? { display: 'none' } : undefined}
      />
      {bad && <div className="error small">{bad}</div>}
    </figure>
  );
}
