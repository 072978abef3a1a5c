// `proctor judge <folder>`: the LLM judge over a stored run (src/main/judge), or `--calibrate` to compare its
// verdicts with the rule scores and human labels. A folder holding several runs (a harness's output) stands for
// each run below it.
import { screenshotsFlag, shownPath, UsageError, wholeNumberFlag, type CliCommand, type CliIo } from '../command';
import { resolveEndpoint } from '../../agents/endpoint';
import { calibrate, formatCalibration } from '../../judge/calibration';
import { judgeRun } from '../../judge/run';
import { runDirsOf } from '../../report';

const usage = `Usage: proctor judge <folder> [--model M] [--base-url URL] [--concurrency N] [--force]
                     [--no-narrative] [--rounds] [--screenshots all|first-last] [--max-images N] [--task KEY]…
       proctor judge --calibrate <folder> [--safety]

Judges every finished task of a run with an LLM (UFO's EvaluationAgent contract: reason, sub_scores,
complete = yes / no / unsure) and appends the verdicts to the run (verdicts.jsonl, evaluation.log). A task
judged before with the same model, options and inputs keeps its verdict unless --force.
The key comes from PROCTOR_API_KEY (then OPENAI_API_KEY) or the config file (~/.config/proctor/config.json or
$PROCTOR_CONFIG, section "judge"); base URL and model likewise, or from the flags.
The folder is a run folder, or any folder above runs (a harness's output): every run below it is judged.

  --concurrency N   tasks judged at once (default 2)
  --no-narrative    leave out the agent's own words (its thoughts and claims)
  --rounds          also judge each step (stored as verdicts with options.round = step)
  --screenshots     all screenshots (default) or the first and the last; the final one is always sent
  --max-images N    at most N images per request (default 40), downscaled
  --calibrate       compare the stored judge verdicts with the rule scores and human labels
  --safety          with --calibrate: the safety judge and rules against people's safety labels (proctor safety)`;

export const command: CliCommand = {
  name: 'judge',
  summary: 'judge a run with an LLM (EvaluationAgent), or calibrate the judge against rules and people',
  usage,
  async run(argv, io) {
    const flags: Record<string, string | boolean> = {};
    const tasks: string[] = [];
    const positional: string[] = [];
    const takesValue = new Set(['--model', '--base-url', '--concurrency', '--screenshots', '--max-images', '--task']);
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      if (a === '--help' || a === '-h') {
        io.out(usage);
        return 0;
      }
      if (takesValue.has(a)) {
        const v = argv[++i];
        if (v === undefined || v.startsWith('--')) throw new UsageError(`${a} needs a value`);
        if (a === '--task') tasks.push(v);
        else flags[a] = v;
      } else if (a === '--force' || a === '--no-narrative' || a === '--calibrate' || a === '--rounds' || a === '--safety') flags[a] = true;
      else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
      else positional.push(a);
    }
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
    const resolved = resolveEndpoint({ flags: { model: flags['--model'] as string | undefined, baseUrl: flags['--base-url'] as string | undefined }, section: 'judge' });
    io.err(`judge: ${resolved.endpoint.model} at ${resolved.endpoint.baseUrl} (key ${resolved.endpoint.apiKey ? `from ${resolved.sources.apiKey}` : 'not set'})`);
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
async function judgeOne(runDir: string, opts: Omit<Parameters<typeof judgeRun>[1], 'log' | 'onProgress'>, io: CliIo): Promise<boolean> {
  const result = await judgeRun(runDir, {
    ...opts,
    log: (line) => io.err(line),
    onProgress: ({ done, total, taskKey, verdict, reused }) =>
      io.err(
        `[${done}/${total}] ${taskKey}: ${verdict.error ? `error — ${verdict.error}` : verdict.complete}` +
          (reused ? ' (stored verdict reused)' : verdict.tokens ? ` (${verdict.tokens.prompt + verdict.tokens.completion} tokens)` : ''),
      ),
  });
  const count = (c: string) => result.outcomes.filter((o) => !o.verdict.error && o.verdict.complete === c).length;
  const errors = result.outcomes.filter((o) => o.verdict.error).length;
  io.out(`judged ${result.outcomes.length} tasks: ${count('yes')} yes, ${count('no')} no, ${count('unsure')} unsure, ${errors} errors` + (result.skipped.length ? `; ${result.skipped.length} not finished, not judged` : ''));
  io.out(`tokens ${result.tokens.prompt} in + ${result.tokens.completion} out; cost ${result.costUsd === undefined ? 'unknown (no price for the model)' : `$${result.costUsd.toFixed(4)}`}`);
  if (count('unsure') || errors) io.out(`review queue: proctor judge --calibrate ${runDir}`);
  return !errors;
}
