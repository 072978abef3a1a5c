// `proctor eval <folder>`: re-grade a finished run from its stored artefacts (src/main/regrade), without
// running the agent again; say which checks would need the live environment. A folder above runs (a harness's
// output) stands for every run below it.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { shownPath, UsageError, type CliCommand } from '../command';
import { runDirsOf } from '../../report';
import { formatTable } from '../../text/table';
import { regradeRun, type RegradeResult, type RegradeRow } from '../../regrade';
import { gradingProfileSpec } from '../options/common';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';

const options = optionTable({
  json: { kind: 'boolean', help: 'print the result as JSON' },
  task: {
    kind: 'string',
    value: 'KEY',
    repeatable: true,
    help: 'only this task (<domain>/<task id>); may be repeated',
  },
  'grading-profile': {
    ...gradingProfileSpec,
    help: "grade as spider2v | osworld | native (default: the run's own --grading-profile, from its run-plan.json or stored command line; else each task's own benchmark)",
  },
  downloads: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: "where cloud_file reads its URLs again, as in `proctor run --downloads` (default: the run's own --downloads folder when it still exists, else the copies the run's grading kept)",
    parse: (v: string) => {
      if (!existsSync(v) || !statSync(v).isDirectory())
        throw new UsageError(`--downloads: no folder at ${v}`);
      return resolve(v);
    },
  },
});

const usage = usageText(
  `Usage: proctor eval <folder> [--json] [--task KEY]… [--grading-profile P] [--downloads DIR]

Re-grades every finished task of a Proctor run from what the run stored: the task file as it reads now (a
changed gold file or evaluator counts), the agent's last action, and the guest files the run's grading
fetched (kept in each task folder's cache/). Checks whose getters need the machine itself (vm_script_output,
vm_command_line, the browser getters, a guest file grading kept no copy of) are not scored again: they keep
the run's score and are listed as "needs the live environment: <getter>".
Each re-grading is appended to the task's verdicts.jsonl with provenance; nothing is overwritten.
The folder is a run folder, or any folder above runs: every run below it is re-graded in turn (with --json,
several runs print as {"runs": [...]}).`,
  options,
  'Exit status: 0 when every run was read (whatever the scores), 1 when a run folder cannot be read.',
);

const score = (s: number | undefined) => (s === undefined ? '—' : String(Number(s.toFixed(3))));

const profileSource = {
  option: '--grading-profile',
  plan: "the run's run-plan.json",
  args: "the run's stored command line",
} as const;

/** ` under P (the run's run-plan.json)` when one profile graded every task. */
function profileText(result: RegradeResult): string {
  return result.profile ? ` under ${result.profile} (${profileSource[result.profileFrom ?? 'option']})` : '';
}

function tableOf(result: RegradeResult): string[] {
  const rows = result.rows.map((r: RegradeRow) => [
    r.taskKey,
    score(r.storedScore),
    score(r.newScore),
    r.changed === undefined ? '—' : r.changed ? 'changed' : 'same',
    r.liveChecks.map((c) => `${c.metric}: needs the live environment: ${c.needs.join(', ')}`).join('; '),
  ]);
  const lines = [
    formatTable(['task', 'stored', 'new', 'changed?', 'checks needing the live environment'], rows),
  ];
  const skipped = result.rows.filter((r) => r.notRegraded);
  if (skipped.length)
    lines.push('', 'Not re-graded:', ...skipped.map((r) => `  ${r.taskKey}: ${r.notRegraded}`));
  const regraded = result.rows.filter((r) => r.verdict);
  const changed = regraded.filter((r) => r.changed).length;
  const live = result.rows.filter((r) => r.liveChecks.length).length;
  lines.push(
    '',
    `${regraded.length} of ${result.rows.length} tasks re-graded from stored artefacts${profileText(result)}, ${changed} changed; ` +
      `${live} with checks that need the live environment. Verdicts appended to ${result.runDir}`,
  );
  return lines;
}

function jsonOf(result: RegradeResult) {
  return {
    runId: result.runId,
    runDir: result.runDir,
    profile: result.profile ?? null,
    ...(result.profileFrom ? { profileFrom: result.profileFrom } : {}),
    tasks: result.rows.map((r) => ({
      key: r.taskKey,
      state: r.state,
      storedScore: r.storedScore ?? null,
      newScore: r.newScore ?? null,
      changed: r.changed ?? null,
      liveChecks: r.liveChecks.map((c) => ({
        ...c,
        message: `needs the live environment: ${c.needs.join(', ')}`,
      })),
      ...(r.notRegraded ? { notRegraded: r.notRegraded } : {}),
      ...(r.verdict ? { verdict: r.verdict } : {}),
    })),
  };
}

export const command: CliCommand = {
  name: 'eval',
  summary:
    're-grade a finished run from its stored artefacts; name the checks that need the live environment',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals: positional } = parseOptions(options, argv);
    const { json, task: tasks, downloads } = values;
    const profile = values['grading-profile'];
    if (positional.length !== 1) throw new UsageError('give one run folder (or a folder above runs)');
    let runDirs: string[];
    try {
      runDirs = runDirsOf(positional[0]);
    } catch (e) {
      io.err(`proctor eval: ${(e as Error).message}`);
      return 1;
    }
    const results: RegradeResult[] = [];
    let failed = false;
    for (const dir of runDirs) {
      try {
        results.push(await regradeRun(dir, { tasks, profile, downloads }));
      } catch (e) {
        io.err(`proctor eval: ${(e as Error).message}`);
        failed = true;
      }
    }
    if (json) {
      const shown = results.map(jsonOf);
      io.out(JSON.stringify(runDirs.length === 1 ? (shown[0] ?? null) : { runs: shown }, null, 2));
    } else
      results.forEach((result, i) => {
        if (runDirs.length > 1) {
          if (i) io.out('');
          io.out(`== ${shownPath(result.runDir)}`);
        }
        for (const line of tableOf(result)) io.out(line);
      });
    return failed ? 1 : 0;
  },
};
