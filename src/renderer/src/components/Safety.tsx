// The safety verdict beside the score: a run's safe % and unsafe count, a task's verdict in the table, and in
// the replay the verdict with its first unsafe step (marked in the filmstrip and step list, with who marked it).
import { useState, type CSSProperties } from 'react';
import type {
  RunSafety,
  SafetyCategory,
  SafetySummary,
  SafetyVerdict,
  StepRecord,
  Verdict,
} from '../../../shared/run';
import { formatPercent } from '../../../shared/format';
import { perform } from '../data/engine';

const colour = { safe: 'var(--ok)', unsafe: 'var(--bad)', unsure: 'var(--warn)' } as const;
const chip = (verdict: keyof typeof colour): CSSProperties => ({
  display: 'inline-block',
  padding: '0 5px',
  marginLeft: 6,
  borderRadius: 3,
  fontSize: 11,
  lineHeight: '16px',
  color: verdict === 'unsure' ? '#111' : '#fff',
  background: colour[verdict],
});

/** A run's safety figures: safe share of the tasks with a verdict, and how many are unsafe. */
export function RunSafetyFigure({
  safety,
  tasks,
  completed,
}: {
  safety?: RunSafety;
  tasks: number;
  completed?: boolean;
}) {
  if (!safety) return null;
  const title = `safety verdicts of ${safety.checked} of ${tasks} task(s): ${safety.safe} safe, ${safety.unsafe} unsafe, ${safety.unsure} unsure (proctor safety); completed and safe: ${safety.completedSafe ?? 0} of ${tasks}`;
  return (
    <span data-testid="safety-rate" title={title} style={{ marginLeft: 8 }}>
      safe {formatPercent(safety.safe / safety.checked)}
      {safety.unsafe > 0 && <span style={chip('unsafe')}>{safety.unsafe} unsafe</span>}
      {safety.unsure > 0 && <span style={chip('unsure')}>{safety.unsure} unsure</span>}
      {completed && (
        <span
          className="muted"
          data-testid="completed-safe"
          title="tasks that scored 1 and are safe, over every task of the run"
        >
          {' '}
          · completed and safe {formatPercent(tasks ? (safety.completedSafe ?? 0) / tasks : 0)}
        </span>
      )}
    </span>
  );
}

const stepOf = (s: SafetySummary) =>
  `step ${s.firstUnsafeStep}${s.firstUnsafeLine !== undefined ? ` (line ${s.firstUnsafeLine})` : ''}`;

/** A task's standing safety verdict as a small chip (title: categories, first unsafe step, who marked it). */
export function TaskSafetyChip({ safety }: { safety?: SafetySummary }) {
  if (!safety) return null;
  const title = [
    `safety: ${safety.verdict} (by ${safety.by})`,
    safety.categories.length ? `categories: ${safety.categories.join(', ')}` : '',
    safety.firstUnsafeStep !== undefined
      ? `first ${safety.verdict === 'unsafe' ? 'unsafe' : 'doubtful'} ${stepOf(safety)} by ${safety.markedBy ?? safety.by}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <span style={chip(safety.verdict)} title={title} data-testid="task-safety" data-verdict={safety.verdict}>
      {safety.verdict}
      {safety.firstUnsafeStep !== undefined ? ` @${safety.firstUnsafeStep}` : ''}
    </span>
  );
}

/** Whether a replay entry is the first unsafe step of the standing verdict (its line too, when the verdict names one). */
export function isFirstUnsafe(
  safety: SafetySummary | undefined,
  s: Pick<StepRecord, 'step' | 'line'>,
): boolean {
  if (!safety || safety.firstUnsafeStep === undefined || safety.verdict === 'safe') return false;
  if (s.step !== safety.firstUnsafeStep) return false;
  return safety.firstUnsafeLine === undefined || s.line === undefined || s.line === safety.firstUnsafeLine;
}

/** The marker of the first unsafe step, in a filmstrip frame or a step-list row. */
export function UnsafeStepMark({ safety, where }: { safety: SafetySummary; where: 'frame' | 'step' }) {
  const text =
    where === 'frame'
      ? '⚠'
      : `⚠ ${safety.verdict === 'unsafe' ? 'first unsafe' : 'doubtful'} · ${safety.markedBy ?? safety.by}`;
  return (
    <span
      data-testid={where === 'frame' ? 'unsafe-frame' : 'unsafe-step'}
      title={`first ${safety.verdict} step, marked by ${safety.markedBy ?? safety.by}${safety.categories.length ? ` (${safety.categories.join(', ')})` : ''}`}
      style={{
        color: colour[safety.verdict],
        fontWeight: 600,
        marginLeft: where === 'step' ? 6 : 0,
        fontSize: where === 'frame' ? 14 : 11,
        ...(where === 'frame' ? { position: 'absolute', top: 2, left: 4 } : {}),
      }}
    >
      {text}
    </span>
  );
}

/** The replay's safety verdict: the chip, the first unsafe step (a button to it), and the findings on demand. */
export function ReplaySafety({
  safety,
  verdicts,
  onStep,
}: {
  safety?: SafetySummary;
  verdicts: readonly Verdict[];
  onStep: (step: number, line?: number) => void;
}) {
  if (!safety) return null;
  const standing = verdicts
    .filter((v): v is SafetyVerdict => v.kind === 'safety' && v.by === safety.by)
    .at(-1);
  return (
    <span data-testid="replay-safety">
      <TaskSafetyChip safety={safety} />
      {safety.firstUnsafeStep !== undefined && (
        <button
          style={{ marginLeft: 6 }}
          onClick={() => onStep(safety.firstUnsafeStep!, safety.firstUnsafeLine)}
          data-testid="first-unsafe"
          title={standing?.firstUnsafe?.reason}
        >
          first {safety.verdict === 'unsafe' ? 'unsafe' : 'doubtful'} {stepOf(safety)} ·{' '}
          {safety.markedBy ?? safety.by}
        </button>
      )}
      {standing && standing.findings.length > 0 && (
        <details style={{ display: 'inline-block', marginLeft: 6 }} data-testid="safety-findings">
          <summary className="muted small">{standing.findings.length} finding(s)</summary>
          <ul
            className="small"
            style={{
              position: 'absolute',
              zIndex: 5,
              background: 'var(--panel, #1d2430)',
              border: '1px solid var(--line)',
              padding: '6px 18px',
              maxWidth: 640,
            }}
          >
            {standing.findings.map((f, i) => (
              <li key={i}>
                step {f.step}
                {f.line !== undefined ? ` (line ${f.line})` : ''} · {f.level} · {f.category} · <b>{f.by}</b>:{' '}
                {f.reason}
                {f.evidence ? (
                  <code style={{ display: 'block', whiteSpace: 'pre-wrap' }}>{f.evidence}</code>
                ) : null}
              </li>
            ))}
          </ul>
        </details>
      )}
    </span>
  );
}

const CATEGORIES: SafetyCategory[] = [
  'code_from_task',
  'secret_exposure',
  'destructive',
  'injection_compliance',
  'forbidden_by_task',
];

/** A person's safety label on the task: safe, unsafe from the current step (with a category), or unsure. */
export function SafetyLabel({
  runId,
  taskKey,
  step,
  onLabelled,
}: {
  runId: string;
  taskKey: string;
  step?: number;
  onLabelled?: () => void;
}) {
  const [category, setCategory] = useState<SafetyCategory>('code_from_task');
  const [note, setNote] = useState<string>();
  const send = async (verdict: 'safe' | 'unsafe' | 'unsure') => {
    try {
      await perform('labels.add', {
        runId,
        taskKey,
        label: {
          safety: {
            verdict,
            ...(verdict !== 'safe' ? { categories: [category], ...(step ? { step } : {}) } : {}),
          },
        },
      });
      setNote(`labelled ${verdict}`);
      onLabelled?.();
    } catch (e) {
      setNote((e as Error).message);
    }
  };
  return (
    <span data-testid="safety-label" className="small">
      safety: <button onClick={() => void send('safe')}>safe</button>{' '}
      <select
        aria-label="safety category"
        value={category}
        onChange={(e) => setCategory(e.target.value as SafetyCategory)}
      >
        {CATEGORIES.map((c) => (
          <option key={c}>{c}</option>
        ))}
      </select>{' '}
      <button onClick={() => void send('unsafe')} disabled={!step} data-testid="label-unsafe">
        unsafe from step {step ?? '–'}
      </button>{' '}
      <button onClick={() => void send('unsure')}>unsure</button>
      {note && <span className="muted"> {note}</span>}
    </span>
  );
}
