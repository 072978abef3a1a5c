// `proctor demo`: the README's main command. Runs the bundled demo tasks on sandbox displays with the oracle
// agent (every task must score 1) and the noop agent (every task must score 0). No key, no network.
import { resolve } from 'node:path';
import { splitOptionValues, UsageError, type CliCommand, shownPath } from '../command';
import { envSpec, outSpec, parallelSpec } from '../options/common';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { demoTable, runDemo, type DemoAgent } from '../../demo/demo';
import { storableArgs } from '../../env/spec';

const options = optionTable({
  out: outSpec,
  parallel: parallelSpec,
  agent: {
    kind: 'string',
    value: 'WHICH',
    default: 'both',
    complete: ['oracle', 'noop', 'both'],
    help: 'oracle, noop or both (default both)',
    parse: (v: string): 'oracle' | 'noop' | 'both' => {
      if (v !== 'both' && v !== 'oracle' && v !== 'noop')
        throw new UsageError(`--agent must be oracle, noop or both, not '${v}'`);
      return v;
    },
  },
  env: envSpec,
});

const usage = usageText(
  `Usage: proctor demo [--out DIR] [--parallel N] [--agent oracle|noop|both] [--env SPEC]

Runs the bundled demo tasks (resources/demo: Chromium on a page Proctor serves itself, a terminal, a text
editor, SQLite) on sandbox displays with the oracle agent, which replays each task's known-good actions
(every task must score 1), and with the noop agent, which says DONE at once (every task must score 0).
Prints a table with a PASS / FAIL per task and exits 1 if any expectation fails. Needs no API key and no
network.`,
  options,
);

export const command: CliCommand = {
  name: 'demo',
  summary: 'run the bundled demo tasks with the oracle (must score 1) and noop (must score 0) agents',
  usage,
  options,
  async run(argv, io) {
    const { values } = parseOptions(options, argv, { positionals: false });
    const { out, parallel, env } = values;
    const agents: DemoAgent[] = values.agent === 'both' ? ['oracle', 'noop'] : [values.agent];
    const stop = new AbortController();
    const onSigint = () => {
      io.err('proctor demo: stopping (Ctrl-C again to force)…');
      stop.abort();
      process.off('SIGINT', onSigint);
    };
    process.on('SIGINT', onSigint);
    try {
      const outcome = await runDemo({
        outDir: resolve(out),
        parallel,
        agents,
        args: ['demo', ...storableArgs(splitOptionValues(argv))],
        env,
        signal: stop.signal,
        log: (line) => io.out(line),
      });
      for (const p of outcome.problems) io.err(`proctor demo: ${p}`);
      io.out('');
      io.out(demoTable(outcome.rows));
      io.out('');
      for (const row of outcome.rows.filter((r) => !r.pass)) {
        for (const f of row.failures) io.out(`FAIL ${row.key}: ${f}`);
      }
      const expectations = outcome.rows.length * agents.length;
      const failed = outcome.rows.reduce((n, r) => n + r.failures.length, 0);
      io.out(
        `${outcome.pass ? 'PASS' : 'FAIL'}: ${expectations - failed} of ${expectations} expectations met (${agents.map((a) => (a === 'oracle' ? 'oracle scores 1' : 'noop scores 0')).join(', ')}).`,
      );
      const dirs = Object.values(outcome.runDirs);
      for (const [agent, dir] of Object.entries(outcome.runDirs))
        io.out(`${agent} run: ${shownPath(dir, { belowOnly: true })}`);
      if (dirs.length)
        io.out(`Open the runs in the UI: npx proctor serve ${shownPath(resolve(out), { belowOnly: true })}`);
      return outcome.pass ? 0 : 1;
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
};
