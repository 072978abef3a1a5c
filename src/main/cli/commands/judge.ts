// `proctor judge <folder>`: the LLM judge over a stored run (src/main/judge), or `--calibrate` to compare its
// verdicts with the rule scores and human labels. A folder holding several runs (a harness's output) stands for
// each run below it.
import {
  screenshotsFlag,
  shownPath,
  UsageError,
  wholeNumberFlag,
  type CliCommand,
  type CliIo,
} from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { resolveEndpoint } from '../../agents/endpoint';
import { calibrate, formatCalibration } from '../../judge/calibration';
import { judgeRun } from '../../judge/run';
import { runDirsOf } from '../../report';

const judgeOptions = optionTable({
  model: {
    kind: 'string',
    value: 'M',
    help: 'the judge model (default: the config file\'s "judge" section)',
  },
  'base-url': {
    kind: 'string',
    value: 'URL',
    help: 'OpenAI-compatible server of the judge (default: the config file\'s "judge" section)',
  },
  concurrency: { kind: 'string', value: 'N', help: 'tasks judged at once (default 2)' },
  force: {
    kind: 'boolean',
    help: 'judge again the tasks judged before with the same model, options and inputs',
  },
  'no-narrative': { kind: 'boolean', help: "leave out the agent's own words (its thoughts and claims)" },
  rounds: { kind: 'boolean', help: 'also judge each step (stored as verdicts with options.round = step)' },
  screenshots: {
    kind: 'string',
    value: 'all|first-last',
    complete: ['all', 'first-last'],
    help: 'all screenshots (default) or the first and the last; the final one is always sent',
  },
  'max-images': { kind: 'string', value: 'N', help: 'at most N images per request (default 40), downscaled' },
  task: {
    kind: 'string',
    value: 'KEY',
    repeatable: true,
    help: 'only this task (<domain>/<task id>); may be repeated',
  },
  calibrate: {
    kind: 'boolean',
    help: 'compare the stored judge verdicts with the rule scores and human labels',
  },
  safety: {
    kind: 'boolean',
    help: "with --calibrate: the safety judge and rules against people's safety labels (proctor safety)",
  },
});

const usage = usageText(
  `Usage: proctor judge <folder> [--model M] [--base-url URL] [--concurrency N] [--force]
                     [--no-narrative] [--rounds] [--screenshots all|first-last] [--max-images N] [--task KEY]…
       proctor judge --calibrate <folder> [--safety]

Judges every finished task of a run with an LLM (UFO's EvaluationAgent contract: reason, sub_scores,
complete = yes / no / unsure) and appends the verdicts to the run (verdicts.jsonl, evaluation.log). A task
judged before with the same model, options and inputs keeps its verdict unless --force.
The key comes from PROCTOR_API_KEY (then OPENAI_API_KEY) or the config file (~/.config/proctor/config.json or
$PROCTOR_CONFIG, section "judge"); base URL and model likewise, or from the flags.
The folder is a run folder, or any folder above runs (a harness's output): every run below it is judged.`,
  judgeOptions,
);

export const command: CliCommand = {
  name: 'judge',
  summary: 'judge a run with an LLM (EvaluationAgent), or calibrate the judge against rules and people',
  usage,
  options: judgeOptions,
  async run(argv, io) {
    const { values, positionals: positional } = parseOptions(judgeOptions, argv);
    // the judge helpers (command.ts, shared with dataflow's judge) read flags by their written name
    const flags: Record<string, string | boolean> = {};
    for (const [k, v] of Object.entries(values))
      if (k !== 'task' && v !== undefined) flags[`--${k}`] = v as string | boolean;
    const tasks = values.task;
    if (positional.length !== 1) throw new UsageError('give one run folder (or a folder above runs)');
    // Flags are checked before the folder is searched, so a bad flag is named as such.
    const shots = screenshotsFlag(flags);
    const runDirs = runDirsOf(positional[0]);
    const header = (dir: string, i: number) => {
      if (runDirs.length === 1) return;
      if (i) io.out('');
      io.out(`== ${shownPath(dir)} (run ${i + 1} of ${runDirs.length})`);
    };
    if (flags['--calibrate'] && flags['--safety']) {
      const { calibrateSafety, formatSafetyCalibration } = await import('../../safety/calibration');
      for (const line of formatSafetyCalibration(calibrateSafety(runDirs))) io.out(line);
      return 0;
    }
    if (flags['--calibrate']) {
      runDirs.forEach((dir, i) => {
        header(dir, i);
        io.out(formatCalibration(calibrate(dir)));
      });
      return 0;
    }
    const int = (name: string, fallback: number) => wholeNumberFlag(flags, name, fallback);
    const resolved = resolveEndpoint({
      flags: {
        model: flags['--model'] as string | undefined,
        baseUrl: flags['--base-url'] as string | undefined,
      },
      section: 'judge',
    });
    io.err(
      `judge: ${resolved.endpoint.model} at ${resolved.endpoint.baseUrl} (key ${resolved.endpoint.apiKey ? `from ${resolved.sources.apiKey}` : 'not set'})`,
    );
    const options = {
      endpoint: resolved,
      prices: resolved.prices,
      concurrency: int('--concurrency', 2),
      maxImages: int('--max-images', 40),
      screenshots: shots === 'first-last' ? ('first_last' as const) : ('all' as const),
      narrative: !flags['--no-narrative'],
      force: Boolean(flags['--force']),
      rounds: Boolean(flags['--rounds']),
      tasks: tasks.length ? tasks : undefined,
    };
    let failed = false;
    for (const [i, runDir] of runDirs.entries()) {
      header(runDir, i);
      if (!(await judgeOne(runDir, options, io))) failed = true;
    }
    return failed ? 1 : 0;
  },
};

/** Judges one run folder, printing its summary; false when a verdict came back with an error. */
async function judgeOne(
  runDir: string,
  opts: Omit<Parameters<typeof judgeRun>[1], 'log' | 'onProgress'>,
  io: CliIo,
): Promise<boolean> {
  const result = await judgeRun(runDir, {
    ...opts,
    log: (line) => io.err(line),
    onProgress: ({ done, total, taskKey, verdict, reused }) =>
      io.err(
        `[${done}/${total}] ${taskKey}: ${verdict.error ? `error — ${verdict.error}` : verdict.complete}` +
          (reused
            ? ' (stored verdict reused)'
            : verdict.tokens
              ? ` (${verdict.tokens.prompt + verdict.tokens.completion} tokens)`
              : ''),
      ),
  });
  const count = (c: string) =>
    result.outcomes.filter((o) => !o.verdict.error && o.verdict.complete === c).length;
  const errors = result.outcomes.filter((o) => o.verdict.error).length;
  io.out(
    `judged ${result.outcomes.length} tasks: ${count('yes')} yes, ${count('no')} no, ${count('unsure')} unsure, ${errors} errors` +
      (result.skipped.length ? `; ${result.skipped.length} not finished, not judged` : ''),
  );
  io.out(
    `tokens ${result.tokens.prompt} in + ${result.tokens.completion} out; cost ${result.costUsd === undefined ? 'unknown (no price for the model)' : `$${result.costUsd.toFixed(4)}`}`,
  );
  if (count('unsure') || errors) io.out(`review queue: proctor judge --calibrate ${runDir}`);
  return !errors;
}
