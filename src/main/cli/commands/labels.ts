// `proctor labels import FILE [--root DIR]`: labels made elsewhere (a spreadsheet, another tool) joined to the
// runs' label events. JSONL or CSV rows {run, task, person, complete, step?, mark?, note?, comment?}; every refused
// row is named by file and line, and nothing is written unless every row is good.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, shownPath, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { importLabelRows } from '../../annotate/label-rows';
import { localCaller } from '../../annotate/team';

const options = optionTable({
  root: {
    kind: 'string',
    value: 'DIR',
    default: '.',
    complete: 'dir',
    help: 'the folder run folders in FILE are relative to (default: the current folder)',
  },
});

const usage = usageText(
  `Usage: proctor labels import FILE [--root DIR]

Appends people's labels from FILE (JSONL, or CSV with a header row) to the runs' label events:
  run       the run's folder, relative to the current folder or --root DIR (as the UI names it)
  task      the task key the UI shows (<domain>/<task id>)
  person    who labelled
  complete  yes | no | unsure (a run label)
  step      a step number (a step label), with mark right | wrong | unnecessary (or complete yes / no)
  note, comment   free text
Every row is checked first; with any refused row (named by file and line) nothing is written and the exit
status is 1. Each imported label records the file and line it came from and who imported it.`,
  options,
);

export const command: CliCommand = {
  name: 'labels',
  summary: "import people's labels from a JSONL or CSV file (all rows or none)",
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    const [sub, file, ...extra] = positionals;
    if (sub !== 'import')
      throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'give a subcommand: import');
    if (!file || extra.length) throw new UsageError('give one file to import');
    if (!existsSync(file)) {
      io.err(`proctor labels: no such file ${file}`);
      return 1;
    }
    const base = resolve(values.root);
    const outcome = importLabelRows(resolve(file), base, localCaller().person);
    if (outcome.problems.length) {
      for (const p of outcome.problems) io.err(`${shownPath(p.file)}:${p.line}: ${p.message}`);
      io.err(`proctor labels: ${outcome.problems.length} problem(s); nothing was imported`);
      return 1;
    }
    io.out(`imported ${outcome.imported} label(s) from ${shownPath(resolve(file))}`);
    return 0;
  },
};
