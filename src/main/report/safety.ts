// The safety figures of a report (issue 25): the "completed and safe" rate as its own figure beside the success
// rate, and the safe share and unsafe count over the tasks with a safety verdict; overall and per bucket.
import { dimensions, type DimensionName, type ReportRow } from '../../shared/breakdown';
import { formatTable } from '../text/table';
import { percent, rateBar } from './format';

export interface SafetyFigures {
  bucket: string;
  /** Every task (attempt) of the set: the denominator of the success and the "completed and safe" rates. */
  tasks: number;
  /** Tasks with a safety verdict. */
  checked: number;
  safe: number;
  unsafe: number;
  unsure: number;
  /** Tasks that scored 1 and whose safety verdict is safe. */
  completedSafe: number;
  /** completedSafe / tasks: a task with no safety verdict, or not safe, does not count as completed and safe. */
  completedSafeRate: number;
  /** Tasks that scored 1 but are unsafe: counted by the success rate, not by the "completed and safe" rate. */
  completedUnsafe: number;
  /** safe / checked; null when no task was checked. */
  safeRate: number | null;
}

export interface ReportSafety extends SafetyFigures {
  /** The same per bucket of each dimension asked for. */
  by: Partial<Record<DimensionName, SafetyFigures[]>>;
}

function figuresOf(bucket: string, rows: readonly ReportRow[]): SafetyFigures {
  let checked = 0;
  let safe = 0;
  let unsafe = 0;
  let unsure = 0;
  let completedSafe = 0;
  let completedUnsafe = 0;
  for (const r of rows) {
    if (!r.safety) continue;
    checked++;
    const completed = (r.score ?? 0) >= 1;
    if (r.safety === 'safe') {
      safe++;
      if (completed) completedSafe++;
    } else if (r.safety === 'unsafe') {
      unsafe++;
      if (completed) completedUnsafe++;
    } else unsure++;
  }
  const tasks = rows.length;
  return {
    bucket,
    tasks,
    checked,
    safe,
    unsafe,
    unsure,
    completedSafe,
    completedSafeRate: tasks ? completedSafe / tasks : 0,
    completedUnsafe,
    safeRate: checked ? safe / checked : null,
  };
}

/** A run's safety figures; undefined when none of its tasks has a safety verdict (nothing to show). */
export function reportSafety(
  rows: readonly ReportRow[],
  dims: readonly DimensionName[] = [],
): ReportSafety | undefined {
  if (!rows.some((r) => r.safety)) return undefined;
  const by: ReportSafety['by'] = {};
  for (const dim of dims) {
    const groups = new Map<string, ReportRow[]>();
    for (const r of rows) {
      const b = dimensions[dim].bucketOf(r);
      const g = groups.get(b);
      if (g) g.push(r);
      else groups.set(b, [r]);
    }
    by[dim] = [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([b, g]) => figuresOf(b, g));
  }
  return { ...figuresOf('all', rows), by };
}

const safeShare = (f: SafetyFigures) => (f.safeRate === null ? '—' : percent(f.safeRate));

/** The lines shown right below the success rate: the "completed and safe" rate, then safe % and unsafe count. */
export function safetyLines(s: ReportSafety | undefined): string[] {
  if (!s) return [];
  const lines = [
    `Completed and safe ${percent(s.completedSafeRate)} ${rateBar(s.completedSafeRate)}  (${s.completedSafe} of ${s.tasks} scored 1 with a safe verdict` +
      `${s.completedUnsafe ? `; ${s.completedUnsafe} more scored 1 but were unsafe` : ''})`,
    `Safety: ${s.checked} of ${s.tasks} checked; safe ${safeShare(s)}, ${s.unsafe} unsafe${s.unsure ? `, ${s.unsure} unsure` : ''}`,
  ];
  return lines;
}

/** One table per dimension: completed-and-safe rate, safe share and unsafe count per bucket. */
export function safetyTables(s: ReportSafety | undefined): string[] {
  if (!s) return [];
  const out: string[] = [];
  for (const [dim, rows] of Object.entries(s.by) as [DimensionName, SafetyFigures[]][])
    out.push(
      '',
      `${dimensions[dim].title}: safety`,
      formatTable(
        [dim, 'tasks', 'checked', 'completed+safe', 'safe', 'unsafe', 'unsure'],
        rows.map((f) => [
          f.bucket,
          String(f.tasks),
          String(f.checked),
          percent(f.completedSafeRate),
          safeShare(f),
          String(f.unsafe),
          String(f.unsure),
        ]),
      ),
    );
  return out;
}
