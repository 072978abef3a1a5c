// What one trajectory entry did, as it ran: its typed actions as chips, an agent's shell command or tool call as
// what it is (a badge and a code line), the harness's error line, and — discreetly — what Proctor's own runner
// would refuse. A foreign entry (one with a trajectory `line`) is never shown as "refused": the harness ran it.
import type { StepRecord } from '../../../shared/run';
import { describeAction } from '../../../shared/describe-action';
import { colourOf } from './ActionOverlay';

/** An entry read from another harness's trajectory (native steps have no line). */
export const isForeign = (s: StepRecord) => s.line !== undefined;

const toolBadge = (t: NonNullable<StepRecord['toolAction']>) =>
  t.kind === 'shell'
    ? (t.name ?? 'BASH').toUpperCase()
    : t.kind === 'tool'
      ? (t.name ?? 'TOOL')
      : (t.name ?? 'TEXT');

/** WAIT / DONE / FAIL: the episode's own words, shown as badges rather than screen actions. */
const controlWords = new Set(['WAIT', 'DONE', 'FAIL']);

export function ToolAction({ tool }: { tool: NonNullable<StepRecord['toolAction']> }) {
  return (
    <span className="tool-action" data-testid="tool-action" data-kind={tool.kind}>
      <span className={`tool-badge tool-${tool.kind}`}>{toolBadge(tool)}</span>
      <code className="tool-text" title={tool.text}>
        {tool.text}
      </code>
    </span>
  );
}

export function WouldRefuse({ why }: { why: string }) {
  return (
    <span
      className="would-refuse small"
      data-testid="would-refuse"
      title={`The harness ran this. Proctor's own runner would not run it as written: ${why}`}
    >
      Proctor would refuse: {why}
    </span>
  );
}

/** The body of an entry's row in the step list and under the screenshot. */
export function EntryWhat({ s }: { s: StepRecord }) {
  const foreign = isForeign(s);
  return (
    <span className="step-actions">
      {s.actions.map((a, j) =>
        controlWords.has(a.type) ? (
          <span key={j} className={`control-word control-${a.type}`} data-testid="control-word">
            {a.type}
          </span>
        ) : (
          <span key={j} className="chip" style={{ borderColor: colourOf(j), color: colourOf(j) }}>
            {describeAction(a)}
          </span>
        ),
      )}
      {s.toolAction && <ToolAction tool={s.toolAction} />}
      {!s.actions.length && !s.toolAction && s.actionText && (
        <span
          className="chip"
          style={{ overflowWrap: 'anywhere' }}
          title={s.actionText}
          data-testid="action-text"
        >
          {s.actionText}
        </span>
      )}
      {s.error !== undefined && (
        <span className="entry-error small" data-testid="entry-error" title={s.error}>
          Error: {s.error}
        </span>
      )}
      {!s.actions.length && !s.toolAction && !s.actionText && s.error === undefined && (
        <span className="muted">{!foreign && s.feedback ? 'refused' : 'no action'}</span>
      )}
      {s.wouldRefuse && <WouldRefuse why={s.wouldRefuse} />}
    </span>
  );
}

/** The ⚠ beside an entry: a native refusal or error, a harness's error line; a foreign note stays a quiet ⓘ. */
export function EntryFlag({ s }: { s: StepRecord }) {
  if (isForeign(s)) {
    if (s.error !== undefined) return <span className="error small">⚠</span>;
    return s.feedback ? (
      <span className="muted small" title={s.feedback}>
        ⓘ
      </span>
    ) : null;
  }
  return s.feedback ? <span className="error small">⚠</span> : null;
}
