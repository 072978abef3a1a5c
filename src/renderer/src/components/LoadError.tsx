// What a view shows when what a link names cannot be read (a run or task that is not there, a folder gone): the
// reason, and the way back to where the link's parents are, so a stale or mistyped link is never a dead end.
import { routeHref } from '../route';

export interface WayBack {
  label: string;
  view: string;
  rest?: string[];
  query?: Record<string, string | undefined>;
}

export function LoadError({ error, back }: { error: string; back: WayBack[] }) {
  return (
    <div className="pad load-error" data-testid="load-error">
      <div className="error">{error}</div>
      <p className="small">
        {back.map((b, i) => (
          <span key={b.label}>
            {i > 0 && ' · '}
            <a href={routeHref(b.view, b.rest, b.query)}>← {b.label}</a>
          </span>
        ))}
      </p>
    </div>
  );
}
