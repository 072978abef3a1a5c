// `proctor selftest <task…>`: checks each task's grading with three runs (oracle → 1, noop → 0, the oracle
// cut short → < 1) and calls it sound, too lenient, too strict or broken setup.
import { resolve } from 'node:path';
import { splitOptionValues, UsageError, type CliCommand, shownPath } from '../command';
import { envSpec, gradingProfileSpec, jsonSpec, outSpec, parallelSpec } from '../options/common';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { selfTest, selfTestTable } from '../../demo/selftest';
import { goldSelfTest, goldSelfTestSummary, goldSelfTestTable } from '../../demo/gold-selftest';
import { loadTasks } from '../../tasks/reader';
import { storableArgs } from '../../env/spec';
import { gradingUnder } from '../../evaluators/grade';

const options = optionTable({
  out: { ...outSpec, help: 'where the evidence folder goes (default ./results)' },
  parallel: parallelSpec,
  env: envSpec,
  oracle: {
    kind: 'string',
    value: 'KIND',
    default: 'script',
    complete: ['script', 'gold'],
    help: "script (oracle.json beside each task; default) or gold (the task's own gold file)",
    parse: (v: string): 'script' | 'gold' => {
      if (v !== 'script' && v !== 'gold') throw new UsageError(`--oracle must be script or gold, not '${v}'`);
      return v;
    },
  },
  downloads: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'files download steps and cloud_file golds would fetch, from this folder (never the network)',
    parse: (v: string) => resolve(v),
  },
  json: { ...jsonSpec, help: "print selftest.json's verdicts instead of the table" },
  'grading-profile': gradingProfileSpec,
});

const usage = usageText(
  `Usage: proctor selftest <task files, folders or split files…> [--oracle script|gold] [--out DIR] [--parallel N] [--env SPEC] [--json]

The red-team check of a task's evaluator. Each task runs three times on a sandbox display:
  oracle      replays oracle.json beside the task        a sound evaluator gives 1
  noop        says DONE at once                          a sound evaluator gives 0
  cut short   the oracle's first half of actions, DONE   a sound evaluator gives less than 1
Verdicts: sound; too lenient (credit without the work); too strict (the correct run is not recognised);
broken setup (a run never reached grading: setup, environment or agent error). The three run folders and
selftest.json are kept in <out>/selftest-<time>/. Exit 1 unless every task is sound.

With --oracle gold (for a benchmark's own tasks, which have no oracle.json) each task runs twice:
  noop        does nothing                               a sound evaluator gives 0
  gold        closes the document, puts the task's gold file            a sound evaluator gives 1
              (local_file / cloud_file) in place of the result (vm_file),
              reopens it in the application; the postconfig saves it
and the table shows setup ok / noop / gold with the time of each. A gold that scores 1 untouched but not after
the application saved it is reported as lost in the round trip, with what the metric found missing; a gold the
postconfig never saved (its file unchanged) as not saved by the application; a task whose postconfig failed
as broken setup (its metric never ran, so its 0 means nothing).`,
  options,
);

export const command: CliCommand = {
  name: 'selftest',
  summary: "check tasks' evaluators: oracle must score 1, noop 0, a cut-short oracle less than 1",
  usage,
  options,
  async run(argv, io) {
    const { values, positionals: paths } = parseOptions(options, argv);
    const { out, parallel, json, env, oracle, downloads } = values;
    const profile = values['grading-profile'];
    if (!paths.length) throw new UsageError('give at least one task file or folder');
    const { tasks, problems } = await loadTasks(paths.map((p) => resolve(p)));
    const errors = problems.filter((p) => p.severity === 'error');
    for (const p of errors)
      io.err(`${shownPath(p.file, { belowOnly: true })}${p.pointer ? `:${p.pointer}` : ''}: ${p.message}`);
    if (!tasks.length) {
      io.err('proctor selftest: no task to test');
      return 1;
    }
    const byKey = new Map<string, string>();
    for (const t of tasks) {
      const key = `${t.domain}/${t.id}`;
      const other = byKey.get(key);
      if (other !== undefined) {
        io.err(
          `proctor selftest: ${shownPath(other, { belowOnly: true })} and ${shownPath(t.file, { belowOnly: true })} are the same task (${key}); give each task once, or give a copy its own id`,
        );
        return 2;
      }
      byKey.set(key, t.file);
    }
    const stop = new AbortController();
    const onSigint = () => {
      stop.abort();
      process.off('SIGINT', onSigint);
    };
    process.on('SIGINT', onSigint);
    try {
      if (oracle === 'gold') {
        const outcome = await goldSelfTest(tasks, {
          outDir: resolve(out),
          parallel,
          args: ['selftest', ...storableArgs(splitOptionValues(argv))],
          env,
          downloads,
          signal: stop.signal,
          parts: gradingUnder(profile),
          log: json ? undefined : (line) => io.out(line),
        });
        if (json)
          io.out(JSON.stringify({ dir: outcome.dir, oracle: 'gold', tasks: outcome.reports }, null, 2));
        else {
          io.out('');
          io.out(goldSelfTestTable(outcome.reports));
          io.out('');
          for (const line of goldSelfTestSummary(outcome.reports)) io.out(line);
          io.out(
            `Evidence: ${shownPath(outcome.dir, { belowOnly: true })} (selftest.json and one run folder per trial); open the runs: npx proctor serve ${shownPath(outcome.dir, { belowOnly: true })}`,
          );
        }
        return errors.length === 0 && outcome.reports.every((r) => r.verdict === 'sound') ? 0 : 1;
      }
      const outcome = await selfTest(tasks, {
        outDir: resolve(out),
        parallel,
        args: ['selftest', ...storableArgs(splitOptionValues(argv))],
        env,
        signal: stop.signal,
        parts: gradingUnder(profile),
        log: json ? undefined : (line) => io.out(line),
      });
      if (json) io.out(JSON.stringify({ dir: outcome.dir, tasks: outcome.reports }, null, 2));
      else {
        io.out('');
        io.out(selfTestTable(outcome.reports));
        io.out('');
        const sound = outcome.reports.filter((r) => r.verdict === 'sound').length;
        io.out(
          `${sound} of ${outcome.reports.length} task(s) sound. Evidence: ${shownPath(outcome.dir, { belowOnly: true })} (selftest.json and one run folder per trial)`,
        );
        io.out(`Open the runs in the UI: npx proctor serve ${shownPath(outcome.dir, { belowOnly: true })}`);
      }
      return errors.length === 0 && outcome.reports.every((r) => r.verdict === 'sound') ? 0 : 1;
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
};
