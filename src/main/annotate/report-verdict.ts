// What `proctor report` takes from people: each row's settled verdict (lead's, else agreed people's, else the
// judge's, else the rule's), which sets whether the task passed, with its source kept on the row.
import type { HumanLabel, RunTaskItem } from '../../shared/run';
import type { ReportRow } from '../../shared/breakdown';
import { humanLabels, readVerdicts, settledVerdict } from './labels';

/**
 * Sets `row.verdict` and, when the verdict rests on people or the judge, `row.score` (yes = 1, no = 0; the rule's
 * own score is kept as it is, partial credit included). Labels that cannot be read leave the rule's score.
 */
export function settleReportRow(row: ReportRow, runDir: string, item: RunTaskItem): void {
  let labels: HumanLabel[];
  try {
    labels = humanLabels(readVerdicts(runDir, item.key));
  } catch {
    labels = [];
  }
  const settled = settledVerdict(labels, item.judge, item.score);
  if (!settled.source) return;
  row.verdict = { source: settled.source, by: settled.by };
  if (settled.source !== 'rule' && settled.complete !== 'unsure')
    row.score = settled.complete === 'yes' ? 1 : 0;
}

/** How many rows rest on each source, for the report's text. */
export function verdictSources(rows: readonly ReportRow[]): string {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.verdict) counts.set(r.verdict.source, (counts.get(r.verdict.source) ?? 0) + 1);
  return (['lead', 'people', 'judge', 'rule'] as const)
    .filter((s) => counts.get(s))
    .map((s) => `${counts.get(s)} ${s}`)
    .join(', ');
}
