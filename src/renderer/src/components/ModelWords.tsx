// The model's own words for one harness step: the reply the trajectory kept (`response`) and the turns of the
// conversation the run folder kept (messages.json, logs) with their tool calls. Untrusted text: rendered as text
// nodes only (React escapes it), never as HTML; long texts are cut.
import type { ModelTurn, StepRecord } from '../../../shared/run';

const MAX_TEXT = 20_000;
const cut = (t: string) =>
  t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}… (${t.length - MAX_TEXT} more characters)` : t;

function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  try {
    return JSON.stringify(input, null, 1) ?? String(input);
  } catch {
    return String(input);
  }
}

/** The turns of a step's entries, once each (every line of a model turn may carry the same words). */
export function turnsOf(entries: readonly StepRecord[]): ModelTurn[] {
  const seen = new Set<string>();
  const out: ModelTurn[] = [];
  for (const e of entries)
    for (const t of e.model ?? []) {
      const key = `${t.role}\n${t.text ?? ''}\n${inputText(t.toolCalls ?? [])}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(t);
    }
  return out;
}

/**
 * The words of the selected entry's step: the entry's reply first (as it was kept), then the conversation turns
 * of the whole step that say more than that reply.
 */
export function ModelWords({ entry, step }: { entry: StepRecord; step: readonly StepRecord[] }) {
  const turns = turnsOf(step).filter(
    (t) => !(t.role === 'assistant' && !t.toolCalls?.length && t.text === entry.response),
  );
  if (!entry.response && !turns.length) return <pre>(no reply recorded)</pre>;
  return (
    <div className="model-words" data-testid="model-words">
      {entry.response !== undefined && <pre data-testid="model-response">{cut(entry.response)}</pre>}
      {turns.map((t, i) => (
        <div key={i} className={`turn turn-${t.role}`} data-testid="model-turn" data-role={t.role}>
          <div className="turn-head small">
            <span className="turn-role">{t.role}</span>
            {t.source && <span className="muted"> · {t.source}</span>}
          </div>
          {t.text && <pre className="turn-text">{cut(t.text)}</pre>}
          {t.toolCalls?.map((c, j) => (
            <div key={j} className="tool-call" data-testid="tool-call">
              <span className="tool-badge tool-tool">{c.name}</span>
              <pre className="tool-input">{cut(inputText(c.input))}</pre>
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}
