// Draws a step's actions on its screenshot: click points, drag paths, scrolls, typed text and key chords.
// The SVG uses the screen's pixel space as its viewBox, so marks land where the actions' coordinates say,
// whatever size the image is shown at.
import type { Action } from '../../../shared/run';

export const actionColours = [
  '#ff4d4f',
  '#40a9ff',
  '#73d13d',
  '#ffc53d',
  '#b37feb',
  '#36cfc9',
  '#ff85c0',
  '#ffa940',
];
export const colourOf = (i: number) => actionColours[i % actionColours.length];

interface Point {
  x: number;
  y: number;
}

interface Mark {
  id: number;
  x: number;
  y: number;
  w: number;
  h: number;
  label?: string;
}

export function ActionOverlay({
  actions,
  screen,
  marks,
  showMarks,
  start,
}: {
  actions: Action[];
  screen: { width: number; height: number };
  marks?: Mark[];
  showMarks: boolean;
  /** Pointer position before the step, where known. */
  start?: Point;
}) {
  let pointer: Point | undefined = start;
  const r = Math.max(6, screen.width / 160);
  const font = Math.max(14, screen.width / 90);
  const shapes = actions.map((a, i) => {
    const c = colourOf(i);
    const key = `a${i}`;
    switch (a.type) {
      case 'click':
      case 'mouseDown':
      case 'mouseUp': {
        const p = a.x !== undefined && a.y !== undefined ? { x: a.x, y: a.y } : pointer;
        if (!p) return null;
        pointer = p;
        const clicks = a.type === 'click' ? (a.clicks ?? 1) : 1;
        return (
          <g key={key} data-testid="click-mark" data-x={p.x} data-y={p.y} data-action-index={i}>
            <circle cx={p.x} cy={p.y} r={r * 2.2} fill="none" stroke={c} strokeWidth={r / 2.5} />
            <circle cx={p.x} cy={p.y} r={r / 2} fill={c} />
            {clicks > 1 && (
              <text x={p.x + r * 2.6} y={p.y - r * 2} fill={c} fontSize={font} fontWeight={700}>
                ×{clicks}
              </text>
            )}
          </g>
        );
      }
      case 'moveTo':
      case 'dragTo':
      case 'moveRel':
      case 'dragRel': {
        const from = pointer;
        const to =
          a.type === 'moveTo' || a.type === 'dragTo'
            ? { x: a.x, y: a.y }
            : from
              ? { x: from.x + a.dx, y: from.y + a.dy }
              : undefined;
        if (!to) return null;
        pointer = to;
        const drag = a.type === 'dragTo' || a.type === 'dragRel';
        return (
          <g key={key} data-testid={drag ? 'drag-mark' : 'move-mark'} data-x={to.x} data-y={to.y}>
            {from && (
              <line
                x1={from.x}
                y1={from.y}
                x2={to.x}
                y2={to.y}
                stroke={c}
                strokeWidth={r / 2}
                strokeDasharray={drag ? undefined : `${r} ${r}`}
                markerEnd="url(#arrow)"
              />
            )}
            <circle cx={to.x} cy={to.y} r={r} fill="none" stroke={c} strokeWidth={r / 3} />
          </g>
        );
      }
      case 'scroll': {
        const p =
          a.x !== undefined && a.y !== undefined
            ? { x: a.x, y: a.y }
            : (pointer ?? { x: screen.width / 2, y: screen.height / 2 });
        const len = r * 6;
        const dy = Math.sign(a.dy) * -len;
        const dx = Math.sign(a.dx) * len;
        return (
          <g key={key} data-testid="scroll-mark">
            <line
              x1={p.x}
              y1={p.y}
              x2={p.x + dx}
              y2={p.y + dy}
              stroke={c}
              strokeWidth={r / 2}
              markerEnd="url(#arrow)"
            />
            <text x={p.x + r * 1.5} y={p.y} fill={c} fontSize={font}>
              scroll {a.dy || a.dx}
            </text>
          </g>
        );
      }
      default:
        return null;
    }
  });
  return (
    <svg
      className="overlay"
      viewBox={`0 0 ${screen.width} ${screen.height}`}
      preserveAspectRatio="none"
      data-testid="overlay"
    >
      <defs>
        <marker
          id="arrow"
          viewBox="0 0 10 10"
          refX="8"
          refY="5"
          markerWidth="4"
          markerHeight="4"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke" />
        </marker>
      </defs>
      {showMarks &&
        marks?.map((m) => (
          <g key={`m${m.id}`} data-testid="som-mark">
            <rect x={m.x} y={m.y} width={m.w} height={m.h} fill="none" stroke="#ff00aa" strokeWidth={2} />
            <rect
              x={m.x}
              y={m.y - font}
              width={font * (String(m.id).length * 0.7 + 0.4)}
              height={font}
              fill="#ff00aa"
            />
            <text x={m.x + 2} y={m.y - 3} fill="#fff" fontSize={font * 0.85} fontWeight={700}>
              {m.id}
            </text>
          </g>
        ))}
      {shapes}
    </svg>
  );
}
