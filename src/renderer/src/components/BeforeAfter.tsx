// Before / after of one step at a readable size: the screen the agent acted on (its action drawn on it) beside the
// screen after, each half the window wide; click a picture (or press z) to enlarge it to the whole width, Esc to
// shrink it again. ←/→ keep stepping; b or Esc (when not enlarged) closes the view.
import { useEffect, useState } from 'react';
import type { StepRecord } from '../../../shared/run';
import { formatScreen } from '../../../shared/screen';
import { fileUrl } from '../data/engine';
import { ActionOverlay } from './ActionOverlay';

type Side = 'before' | 'after';

export interface BeforeAfterProps {
  stepLabel: string;
  /** The screen before the action: the step's observation (the action is drawn on it), else the previous step's screenshot. */
  before?: {
    src: string;
    step?: StepRecord;
    showMarks: boolean;
    start?: { x: number; y: number };
    caption: string;
  };
  after?: { src: string; caption: string };
  onClose: () => void;
}

export function BeforeAfter({ stepLabel, before, after, onClose }: BeforeAfterProps) {
  const [zoom, setZoom] = useState<Side>();
  useEffect(() => {
    // Capture: Esc shrinks an enlarged picture before the replay's own Esc (close) sees it; z cycles the zoom.
    const onKey = (e: KeyboardEvent) => {
      if (
        e.target instanceof HTMLInputElement ||
        e.target instanceof HTMLTextAreaElement ||
        e.target instanceof HTMLSelectElement
      )
        return;
      if (e.key === 'Escape' && zoom) setZoom(undefined);
      else if (e.key === 'z')
        setZoom((z) => (z === undefined ? 'before' : z === 'before' ? 'after' : undefined));
      else return;
      e.preventDefault();
      e.stopImmediatePropagation();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [zoom]);
  const toggle = (side: Side) => setZoom((z) => (z === side ? undefined : side));
  return (
    <div
      className={`before-after${zoom ? ' zoomed' : ''}`}
      role="dialog"
      aria-label={`before and after, ${stepLabel}`}
      data-testid="before-after"
    >
      <div className="before-after-head">
        <strong>{stepLabel}: before / after</strong>
        <span className="muted small">
          click a picture or press z to enlarge · ←/→ step · b or Esc closes
        </span>
        <button onClick={onClose} data-testid="before-after-close">
          close (b)
        </button>
      </div>
      <div className="before-after-panes">
        {(!zoom || zoom === 'before') && (
          <Pane
            side="before"
            zoomed={zoom === 'before'}
            onToggle={() => toggle('before')}
            caption={before?.caption ?? 'before'}
            src={before?.src}
          >
            {(screen) =>
              before?.step && (
                <ActionOverlay
                  actions={before.step.actions}
                  screen={before.step.screen ?? screen}
                  marks={before.step.marks}
                  showMarks={before.showMarks}
                  start={before.start}
                />
              )
            }
          </Pane>
        )}
        {(!zoom || zoom === 'after') && (
          <Pane
            side="after"
            zoomed={zoom === 'after'}
            onToggle={() => toggle('after')}
            caption={after?.caption ?? 'after'}
            src={after?.src}
          />
        )}
      </div>
    </div>
  );
}

function Pane(props: {
  side: Side;
  zoomed: boolean;
  onToggle: () => void;
  caption: string;
  src?: string;
  children?: (natural: { width: number; height: number }) => React.ReactNode;
}) {
  const { side, zoomed, onToggle, caption, src, children } = props;
  const [natural, setNatural] = useState<{ width: number; height: number }>();
  const [bad, setBad] = useState<string>();
  useEffect(() => setBad(undefined), [src]);
  return (
    <figure className="before-after-pane" data-side={side}>
      <figcaption>
        {caption}
        {natural && <span className="muted small"> · {formatScreen(natural)}</span>}
        {src && (
          <button
            className="zoom-button"
            onClick={onToggle}
            data-testid={`zoom-${side}`}
            aria-pressed={zoomed}
            title={zoomed ? 'back to side by side (Esc)' : 'enlarge to the whole width (z)'}
          >
            {zoomed ? 'side by side' : 'enlarge'}
          </button>
        )}
      </figcaption>
      {src ? (
        <div className="before-after-frame">
          <div
            className="shot-frame"
            style={{ width: zoomed && natural ? `max(100%, ${natural.width}px)` : '100%' }}
          >
            <img
              src={fileUrl(src)}
              alt={caption}
              data-testid={`${side}-image`}
              onClick={onToggle}
              style={{
                width: '100%',
                maxWidth: 'none',
                cursor: zoomed ? 'zoom-out' : 'zoom-in',
                ...(bad ? { display: 'none' } : {}),
              }}
              onLoad={(e) => {
                const img = e.currentTarget;
                if (img.naturalWidth > 10000 || img.naturalHeight > 10000)
                  setBad(`image too large (${img.naturalWidth}×${img.naturalHeight}); not shown`);
                setNatural({ width: img.naturalWidth, height: img.naturalHeight });
              }}
              onError={() => setBad(`cannot load ${src}`)}
            />
            {natural && !bad && children?.(natural)}
            {bad && <div className="error">{bad}</div>}
          </div>
        </div>
      ) : (
        <div className="muted">no screenshot</div>
      )}
    </figure>
  );
}
