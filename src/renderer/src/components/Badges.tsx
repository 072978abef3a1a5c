// Small shared pieces: badges and problem lists.
import type { ReactNode } from 'react';
import type { Problem } from '../../../shared/task';

export function Badge({ kind, children }: { kind: string; children: ReactNode }) {
  return <span className={`badge badge-${kind.replace(/[^a-z0-9]/gi, '')}`}>{children}</span>;
}

/** Where a problem is: `file:line:col /json/pointer` (each part present when known). */
export function problemPlace(p: Problem): string {
  const line = p.line !== undefined ? `:${p.line}${p.col !== undefined ? `:${p.col}` : ''}` : '';
  const pointer = p.pointer !== undefined ? ` ${p.pointer || '/'}` : '';
  return `${p.file}${line}${pointer}`;
}

/** Problems, each naming its file and its line or JSON pointer. */
export function ProblemList({ problems, limit }: { problems: Problem[]; limit?: number }) {
  const shown = limit === undefined ? problems : problems.slice(0, limit);
  return (
    <ul className="problems" data-testid="problems">
      {shown.map((p, i) => (
        <li key={i} className={p.severity} data-testid="problem">
          <span className="mono">{problemPlace(p)}</span> {p.message}
        </li>
      ))}
      {shown.length < problems.length && (
        <li className="muted">… and {problems.length - shown.length} more</li>
      )}
    </ul>
  );
}
