// Facts about a run or task as other harnesses' folders give them: the state shown (how the harness's episode
// ended — finished / error / aborted — apart from the score), the run's settings from its folder layout as chips,
// and a time with where it came from (the harness's own timestamps, a folder name, or file mtime as a last resort).
import type { RunSettings, RunTaskItem, TimeSource } from '../../../shared/run';
import { formatScreen, type ScreenSize } from '../../../shared/screen';

/** A foreign task's outcome (finished whatever the score), else Proctor's own state. */
export const shownState = (t: Pick<RunTaskItem, 'state' | 'outcome'>): string => t.outcome ?? t.state;

const sourceText: Record<TimeSource, string> = {
  harness: 'harness',
  'folder name': 'folder name',
  mtime: 'file mtime',
};
const sourceTitle: Record<TimeSource, string> = {
  harness: "from the harness's own timestamps",
  'folder name': 'from the folder name the harness (or a person) gave the run',
  mtime: 'from file modification times, a last resort: copying the folder changes them',
};

export function StartedAt({ at, source }: { at: string; source?: TimeSource }) {
  return (
    <span className="started-at" title={source ? `started ${at} — ${sourceTitle[source]}` : `started ${at}`}>
      {at.replace('T', ' ').slice(0, 19)}
      {source && (
        <span
          className={`time-source source-${source.replace(' ', '-')}`}
          data-testid="time-source"
          data-source={source}
        >
          {sourceText[source]}
        </span>
      )}
    </span>
  );
}

export function SettingsChips({ settings }: { settings: RunSettings }) {
  const parts: [string, string][] = [];
  if (settings.actionSpace) parts.push(['action space', settings.actionSpace]);
  if (settings.observation) parts.push(['observation', settings.observation]);
  return (
    <span className="settings" data-testid="run-settings">
      {parts.map(([what, v]) => (
        <span key={what} className="setting-chip" title={what} data-setting={what}>
          {v}
        </span>
      ))}
      {(settings.flags ?? []).map((f) => (
        <span key={`f-${f}`} className="setting-chip flag" title={flagTitle(f)} data-testid="run-flag">
          {f}
        </span>
      ))}
    </span>
  );
}

/** The screen size the run's tasks used (from its manifest). */
export function ScreenChip({ screen }: { screen: ScreenSize }) {
  return (
    <span
      className="setting-chip"
      title="screen size the run's tasks used"
      data-setting="screen"
      data-testid="run-screen"
    >
      {formatScreen(screen)}
    </span>
  );
}

function flagTitle(flag: string): string {
  const known: Record<string, string> = {
    ef: 'execution feedback',
    rag: 'retrieval (RAG)',
    verbose: 'verbose instructions',
  };
  return known[flag] ? `flag: ${known[flag]}` : 'flag from the folder name';
}
