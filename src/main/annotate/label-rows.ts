// Labels made elsewhere, as rows: `proctor labels import` reads JSONL or CSV rows {run, task, person, complete,
// step?, mark?, note?, comment?}; `proctor export labels` writes the same columns with provenance. Every refused
// row is named by file and line, and nothing is written unless every row is good.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Completion, HumanLabel, StepMark } from '../../shared/run';
import { appendVerdict, readRun } from '../store';
import type { LabelledItem } from './items';

export interface LabelRow {
  run: string;
  task: string;
  person: string;
  complete?: Completion;
  step?: number;
  mark?: StepMark;
  note?: string;
  comment?: string;
}

export interface RowProblem {
  file: string;
  line: number;
  message: string;
}

const completions: readonly string[] = ['yes', 'no', 'unsure'];
const marks: readonly string[] = ['right', 'wrong', 'unnecessary'];
const columns = ['run', 'task', 'person', 'complete', 'step', 'mark', 'note', 'comment'];

/** CSV records (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes) with their first line. */
export function parseCsv(text: string): { line: number; fields: string[] }[] {
  const out: { line: number; fields: string[] }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      any = true;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      any = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      if (any || field) out.push({ line: start, fields: [...fields, field] });
      fields = [];
      field = '';
      any = false;
      start = ++line;
    } else {
      field += c;
      any = true;
    }
  }
  if (any || field) out.push({ line: start, fields: [...fields, field] });
  return out;
}

/** Raw objects of a JSONL or CSV file, each with its line; a line that is no object is a problem. */
function rawRows(
  file: string,
  text: string,
  problems: RowProblem[],
): { line: number; value: Record<string, unknown> }[] {
  if (/\.csv$/i.test(file)) {
    const records = parseCsv(text);
    if (!records.length) return [];
    const header = records[0].fields.map((h) => h.trim().toLowerCase());
    const unknown = header.filter((h) => !columns.includes(h));
    if (unknown.length)
      problems.push({
        file,
        line: records[0].line,
        message: `unknown column(s) ${unknown.join(', ')}; known: ${columns.join(', ')}`,
      });
    return records.slice(1).map((r) => {
      if (r.fields.length !== header.length)
        problems.push({
          file,
          line: r.line,
          message: `${r.fields.length} field(s) where the header has ${header.length}`,
        });
      return { line: r.line, value: Object.fromEntries(header.map((h, i) => [h, r.fields[i] ?? ''])) };
    });
  }
  const out: { line: number; value: Record<string, unknown> }[] = [];
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      const v = JSON.parse(l) as unknown;
      if (typeof v !== 'object' || v === null || Array.isArray(v))
        problems.push({ file, line: i + 1, message: 'not a JSON object' });
      else out.push({ line: i + 1, value: v as Record<string, unknown> });
    } catch (e) {
      problems.push({ file, line: i + 1, message: `not JSON: ${(e as Error).message}` });
    }
  });
  return out;
}

/** One raw row checked: a LabelRow, or the reason it is refused. */
function checkRow(v: Record<string, unknown>): LabelRow | string {
  const text = (k: string) => (v[k] === undefined || v[k] === null || v[k] === '' ? undefined : v[k]);
  for (const k of Object.keys(v))
    if (!columns.includes(k)) return `unknown field '${k}'; known: ${columns.join(', ')}`;
  for (const k of ['run', 'task', 'person'])
    if (typeof text(k) !== 'string') return `'${k}' is missing or not text`;
  for (const k of ['complete', 'mark', 'note', 'comment'])
    if (text(k) !== undefined && typeof text(k) !== 'string') return `'${k}' must be text`;
  const complete = text('complete') as string | undefined;
  if (complete !== undefined && !completions.includes(complete))
    return `complete must be yes, no or unsure, not '${complete}'`;
  const mark = text('mark') as string | undefined;
  if (mark !== undefined && !marks.includes(mark))
    return `mark must be right, wrong or unnecessary, not '${mark}'`;
  const rawStep = text('step');
  let step: number | undefined;
  if (rawStep !== undefined) {
    step = typeof rawStep === 'number' ? rawStep : /^\d+$/.test(String(rawStep)) ? Number(rawStep) : NaN;
    if (!Number.isInteger(step) || step < 1)
      return `step must be a whole number from 1, not '${String(rawStep)}'`;
  }
  const row: LabelRow = { run: v.run as string, task: v.task as string, person: (v.person as string).trim() };
  if (!row.person || row.person.length > 200) return 'person must be a name of 1 to 200 characters';
  if (step !== undefined) {
    const m = (mark ?? (complete === 'yes' ? 'right' : complete === 'no' ? 'wrong' : undefined)) as
      StepMark | undefined;
    if (!m) return 'a step row needs mark (right, wrong, unnecessary) or complete yes / no';
    row.step = step;
    row.mark = m;
  } else if (!complete) return 'a run row needs complete (yes, no, unsure); give step for a step label';
  else row.complete = complete as Completion;
  if (text('note') !== undefined) row.note = v.note as string;
  if (text('comment') !== undefined) row.comment = v.comment as string;
  return row;
}

export interface ImportOutcome {
  imported: number;
  problems: RowProblem[];
}

/**
 * Imports a JSONL or CSV file of label rows; runs are relative to `base`. Every row is checked first (its run
 * folder readable, its task in that run); with any problem nothing is written.
 */
export function importLabelRows(
  file: string,
  base: string,
  importer: string,
  now = () => new Date().toISOString(),
): ImportOutcome {
  const problems: RowProblem[] = [];
  const text = readFileSync(file, 'utf8');
  const raw = rawRows(file, text, problems);
  const runs = new Map<string, Set<string> | string>();
  const good: { line: number; row: LabelRow; dir: string }[] = [];
  for (const { line, value } of raw) {
    const row = checkRow(value);
    if (typeof row === 'string') {
      problems.push({ file, line, message: row });
      continue;
    }
    const dir = resolve(base, row.run);
    if (!runs.has(dir)) {
      try {
        if (!existsSync(dir) || !statSync(dir).isDirectory())
          throw new Error(`no run folder ${row.run} below ${base}`);
        runs.set(dir, new Set(readRun(dir).tasks.map((t) => t.key)));
      } catch (e) {
        runs.set(dir, (e as Error).message);
      }
    }
    const tasks = runs.get(dir)!;
    if (typeof tasks === 'string') problems.push({ file, line, message: `run '${row.run}': ${tasks}` });
    else if (!tasks.has(row.task))
      problems.push({ file, line, message: `task '${row.task}' is not in run '${row.run}'` });
    else good.push({ line, row, dir });
  }
  if (problems.length) return { imported: 0, problems: problems.sort((a, b) => a.line - b.line) };
  for (const { line, row, dir } of good) {
    const label: HumanLabel = {
      kind: 'human',
      author: row.person,
      ...(row.complete ? { complete: row.complete } : {}),
      ...(row.step !== undefined
        ? {
            steps: [
              {
                step: row.step,
                correct: row.mark === 'right',
                mark: row.mark,
                ...(row.note ? { note: row.note } : {}),
              },
            ],
          }
        : {}),
      ...(row.comment ? { comment: row.comment } : {}),
      source: `import ${basename(file)}:${line} by ${importer}`,
      at: now(),
    };
    appendVerdict(dir, row.task, label);
  }
  return { imported: good.length, problems: [] };
}

/** One exported row: a label event with its provenance. */
export interface ExportRow {
  /** The run folder as given (relative to the root). */
  run: string;
  /** The run's id (from its manifest; the folder name for other harnesses' folders). */
  run_id: string;
  task: string;
  person: string;
  role: string;
  complete: string;
  step: string;
  mark: string;
  note: string;
  comment: string;
  seen: string;
  settles: string;
  source: string;
  /** With history: the `at`s of the person's earlier events this one replaces, joined by spaces. */
  supersedes: string;
  at: string;
}

export const exportColumns: (keyof ExportRow)[] = [
  'run',
  'run_id',
  'task',
  'person',
  'role',
  'complete',
  'step',
  'mark',
  'note',
  'comment',
  'seen',
  'settles',
  'source',
  'supersedes',
  'at',
];

/**
 * The label rows of the items, one per run label and one per step mark. By default each person's current labels
 * only: their latest run label (`complete`) and their latest mark of each step; comments without a label and a
 * lead's settlements are always kept. With `history`, every event, each with what it supersedes.
 */
export function exportRows(items: readonly LabelledItem[], opts: { history?: boolean } = {}): ExportRow[] {
  const rows: ExportRow[] = [];
  for (const i of items) {
    const current = opts.history ? undefined : currentParts(i.labels);
    i.labels.forEach((l, n) => {
      const base = {
        run: i.run,
        run_id: i.runId,
        task: i.taskKey,
        person: l.author,
        role: l.role ?? '',
        seen: l.seen ?? '',
        settles: l.settles?.reason ?? '',
        source: l.source ?? 'workbench',
        supersedes: opts.history ? (l.supersedes ?? []).join(' ') : '',
        at: l.at,
      };
      const keepRun = !current || l.settles || !l.complete || current.run.get(l.author) === n;
      if ((l.complete || l.comment || !l.steps?.length) && keepRun)
        rows.push({
          ...base,
          complete: l.complete ?? '',
          step: '',
          mark: '',
          note: '',
          comment: l.comment ?? '',
        });
      for (const s of l.steps ?? [])
        if (!current || current.steps.get(`${l.author}\u0000${s.step}`) === n)
          rows.push({
            ...base,
            complete: '',
            step: String(s.step),
            mark: s.mark ?? (s.correct ? 'right' : 'wrong'),
            note: s.note ?? '',
            comment: '',
          });
    });
  }
  return rows;
}

/** Index of each person's latest run label, and of their latest mark per step. */
function currentParts(labels: readonly HumanLabel[]): {
  run: Map<string, number>;
  steps: Map<string, number>;
} {
  const run = new Map<string, number>();
  const steps = new Map<string, number>();
  labels.forEach((l, n) => {
    if (l.settles) return;
    if (l.complete) run.set(l.author, n);
    for (const s of l.steps ?? []) steps.set(`${l.author}\u0000${s.step}`, n);
  });
  return { run, steps };
}

const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export function rowsAsCsv(rows: readonly ExportRow[]): string {
  return (
    [exportColumns.join(','), ...rows.map((r) => exportColumns.map((c) => csvField(r[c])).join(','))].join(
      '\n',
    ) + '\n'
  );
}

export function rowsAsJsonl(rows: readonly ExportRow[]): string {
  return (
    rows
      .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).filter(([, v]) => v !== ''))))
      .join('\n') + (rows.length ? '\n' : '')
  );
}
