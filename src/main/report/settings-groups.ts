// Runs found below a harness's output folder, grouped by their settings (action space, observation, model and
// flags as the folder layout gives them): per group the runs, tasks, how they ended and the mean score.
import type { RunSettings } from '../../shared/run';
import type { ReportRun } from './rows';
import { percent } from './format';

export interface SettingsGroup {
  /** `pyautogui / som / o4-mini-2025-04-16 [ef]`; runs without layout settings by format and model. */
  label: string;
  settings?: RunSettings;
  runs: string[];
  tasks: number;
  /** Tasks with a score (result.txt or the run's own grading). */
  scored: number;
  /** Mean score over every task of the group (a task without a score counts 0, as the rates do). */
  meanScore?: number;
  /** Mean over the scored tasks only (OSWorld's own scripts divide so). */
  meanOfScored?: number;
}

export function settingsLabel(run: Pick<ReportRun, 'settings' | 'format' | 'model' | 'agent'>): string {
  const s = run.settings;
  if (s && (s.actionSpace || s.observation || s.model)) {
    const flags = s.flags?.length ? ` [${s.flags.join(', ')}]` : '';
    return `${[s.actionSpace ?? '?', s.observation ?? '?', s.model ?? '?'].join(' / ')}${flags}`;
  }
  const who = run.model ?? run.agent;
  return `${run.format}${who ? ` / ${who}` : ''} (no settings in the folder layout)`;
}

/** Groups in order of first appearance; `labels[i]` names run i. */
export function groupBySettings(runs: readonly ReportRun[], labels: readonly string[]): SettingsGroup[] {
  const groups = new Map<string, SettingsGroup & { sum: number }>();
  runs.forEach((run, i) => {
    const label = settingsLabel(run);
    const g = groups.get(label) ?? {
      label,
      ...(run.settings ? { settings: run.settings } : {}),
      runs: [],
      tasks: 0,
      scored: 0,
      sum: 0,
    };
    g.runs.push(labels[i]);
    for (const row of run.rows) {
      g.tasks++;
      if (typeof row.score === 'number') {
        g.scored++;
        g.sum += row.score;
      }
    }
    groups.set(label, g);
  });
  return [...groups.values()].map(({ sum, ...g }) => ({
    ...g,
    ...(g.tasks ? { meanScore: sum / g.tasks } : {}),
    ...(g.scored ? { meanOfScored: sum / g.scored } : {}),
  }));
}

const score = (v: number | undefined) => (v === undefined ? '—' : v.toFixed(3));

/** A text table of the groups, then the runs of each. */
export function formatSettingsGroups(groups: readonly SettingsGroup[]): string[] {
  const out = [`By run settings (${groups.length} setting${groups.length === 1 ? '' : 's'}):`];
  const width = Math.max(...groups.map((g) => g.label.length), 8);
  out.push(`  ${'settings'.padEnd(width)}  runs  tasks  scored  mean score  mean of scored`);
  for (const g of groups)
    out.push(
      `  ${g.label.padEnd(width)}  ${String(g.runs.length).padStart(4)}  ${String(g.tasks).padStart(5)}  ${String(g.scored).padStart(6)}  ${score(g.meanScore).padStart(10)}  ${score(g.meanOfScored).padStart(14)}` +
        (g.meanScore !== undefined ? `  (${percent(g.meanScore)})` : ''),
    );
  for (const g of groups) out.push(`  ${g.label}: ${g.runs.join(', ')}`);
  return out;
}
