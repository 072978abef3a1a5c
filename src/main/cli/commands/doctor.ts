// `proctor doctor <tasks…>`: what this machine lacks to run each task, and how many it can run, before a long run.
import { resolve } from 'node:path';
import { UsageError, shownPath, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { diagnoseTasks, formatDoctor } from '../../tasks/doctor';
import { loadTasks } from '../../tasks/reader';

const options = optionTable({
  downloads: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'the folder standing for the network (as run --downloads); without it, downloads count as lacking',
    parse: (v: string) => resolve(v),
  },
  verbose: {
    kind: 'boolean',
    help: "each lack's whole detail (where it was looked for, what to do) under its task",
  },
  json: {
    kind: 'boolean',
    help: '{"tasks": [{key, file, runnable, lacks: [{kind, detail, pointer?}]}], "summary": {tasks, runnable, lacking}}',
  },
});

const usage = usageText(
  `Usage: proctor doctor <task files, folders or split files…> [--downloads DIR] [--verbose] [--json]

Says per task what this machine lacks to run it — an application (related_apps not installed), an account
(snowflake, google, …), a proxy, a download (a download step or cloud_file with no file in the downloads folder),
an asset (a file of the task not where setup or grading reads it), a metric or getter Proctor lacks — and how
many tasks are runnable here. Nothing is run or fetched. Exit 1 when some task cannot run here.`,
  options,
);

export const command: CliCommand = {
  name: 'doctor',
  summary: 'what this machine lacks to run each task (app, account, download, asset), and how many can run',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals: paths } = parseOptions(options, argv);
    const { downloads } = values;
    const json = !!values.json;
    const verbose = !!values.verbose;
    if (!paths.length) throw new UsageError('give at least one task file, folder or split file');
    const { tasks, problems } = await loadTasks(paths.map((p) => resolve(p)));
    const errors = problems.filter((p) => p.severity === 'error');
    for (const p of errors)
      io.err(`${shownPath(p.file, { belowOnly: true })}${p.pointer ? `:${p.pointer}` : ''}: ${p.message}`);
    const report = await diagnoseTasks(tasks, { downloads });
    if (json)
      io.out(
        JSON.stringify(
          {
            ...report,
            tasks: report.tasks.map((t) => ({ ...t, file: shownPath(t.file, { belowOnly: true }) })),
            unreadable: errors.length,
          },
          null,
          2,
        ),
      );
    else {
      for (const line of formatDoctor(report, { verbose, shown: (f) => shownPath(f, { belowOnly: true }) }))
        io.out(line);
      if (errors.length)
        io.out(
          `${errors.length} problem${errors.length === 1 ? '' : 's'} reading the tasks (above): those tasks are not counted`,
        );
    }
    return report.summary.runnable === report.summary.tasks && errors.length === 0 ? 0 : 1;
  },
};
