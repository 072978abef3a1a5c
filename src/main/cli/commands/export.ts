// `proctor export labels <run-dir>… [--format jsonl|csv] [--out FILE] [--history]`: people's labels of the runs, one
// row per run label and per step mark, with its provenance (author, role, what they saw, settlement, source, time).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type CliCommand } from '../command';
import { labelledItems } from '../../annotate/items';
import { exportRows, rowsAsCsv, rowsAsJsonl } from '../../annotate/label-rows';
import { writeFileAtomic } from '../../store';

const usage = `Usage: proctor export labels <run-dir>… [--format jsonl|csv] [--out FILE] [--root DIR] [--history]

Writes each person's current labels of the runs (default: every run below --root DIR, default the current
folder): their latest run label and their latest mark of each step, with a lead's settlements and comments.
Columns: run (the folder), run_id, task, person, role, complete, step, mark, note, comment, seen (blind | open),
settles (a lead's reason), source (workbench, or the imported file and line), supersedes and at.
--history  every label event instead, each with the at of the person's earlier events it supersedes.
JSONL by default; --out FILE, else standard output.`;

export const command: CliCommand = {
  name: 'export',
  summary: 'export people\'s labels with provenance as JSONL or CSV',
  usage,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { format: { type: 'string' }, out: { type: 'string' }, root: { type: 'string' }, history: { type: 'boolean' } },
      allowPositionals: true,
    });
    const [what, ...runDirs] = positionals;
    if (what !== 'labels') throw new UsageError(what ? `cannot export '${what}'; known: labels` : 'say what to export: labels');
    const format = values.format ?? (values.out?.toLowerCase().endsWith('.csv') ? 'csv' : 'jsonl');
    if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format must be jsonl or csv, not '${format}'`);
    let text: string;
    try {
      const rows = exportRows(labelledItems(runDirs, resolve(values.root ?? '.')), { history: values.history });
      text = format === 'csv' ? rowsAsCsv(rows) : rowsAsJsonl(rows);
    } catch (e) {
      io.err(`proctor export: ${(e as Error).message}`);
      return 1;
    }
    if (values.out) await writeFileAtomic(values.out, text);
    else io.out(text.replace(/\n$/, ''));
    return 0;
  },
};
