// `proctor run <tasks or split file…>`: run an agent over a set of tasks into a resumable run folder.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AgentOptions } from '../../agents';
import { parallelOption, queueOption, UsageError, type CliCommand, shownPath } from '../command';
import { ACTION_SPACES, OBSERVATION_TYPES, isActionSpace, isObservationType, type ActionSpace, type ObservationType } from '../../../shared/spaces';
import { DEFAULT_TASK_TIMEOUT_MS, parseMaxSteps } from '../../runner/limits';
import { defaultParts } from '../../runner/parts';
import { outcomeTable, ProgressView } from '../../runner/progress';
import { resumeRun, runTasks, type RunOptions, type RunOutcome } from '../../runner/scheduler';
import { readManifest } from '../../store/run-writer';
import { envOption, envUsage } from '../env-option';
import { storableArgs } from '../../env/spec';
import { gradingUnder } from '../../evaluators/grade';
import type { GradingProfile } from '../../evaluators/profile';
import { gradingProfileFlag } from './metric';
import { parseQueueUrl } from '../../queue/connection';
import { MAX_REPEATS } from '../../runner/scheduler';
import { parsePriceFlag, readPricesFile } from '../../runner/pricing';
import type { PriceTable } from '../../agents/pricing';

const usage = `Usage: proctor run <tasks, folders or split files…> [options]
       proctor run --resume <run folder> [--parallel N] [--retry-env-errors] [--retry-grading-errors]

Runs an agent on each task (setup → observe → act … → post-setup → grade) on sandbox displays and writes a run
folder <out>/<runId>/ (manifest.json, events.jsonl, and OSWorld's result layout per task). Tasks whose needs
this machine lacks (an account, a proxy, an app) are recorded as skipped with the reason. The success rate is
over every task of the set. Ctrl-C stops cleanly; the run can then be continued with --resume.

  --agent NAME          oracle | noop | llm | human | gold | demo (default oracle); gold puts a task's gold file in place
                        of its result (close the document, replace it, reopen it) for tasks graded against a file
  --model NAME          model of the llm agent (also names the result folder)
  --base-url URL        OpenAI-compatible server of the llm agent (key from PROCTOR_API_KEY / OPENAI_API_KEY
                        or the config file; never printed)
  --observation TYPE    ${OBSERVATION_TYPES.join(' | ')} (default screenshot)
  --action-space SPACE  ${ACTION_SPACES.join(' | ')} (default pyautogui)
  --env SPEC            the machine: ${envUsage('                        ')}
  --parallel N          tasks at once, each on its own sandbox display (default 1)
  --max-steps N|auto    step limit (default 15); auto = the task's action_number × 2 + 5 (15 without one)
  --task-timeout SEC    time limit per task (default ${DEFAULT_TASK_TIMEOUT_MS / 1000})
  --screen WxH          sandbox display size (default: the task set's task-set.json, else 1920x1080; a size in --env wins)
  --out DIR             folder for run folders (default ./results)
  --downloads DIR       files the tasks' setup would download, by DIR/downloads.json (URL → file) or by name;
                        nothing is fetched, and a missing file fails the task's setup naming its URL
  --allow-unisolated    let the llm agent (which holds a model key) drive sandboxes that are not isolated in
                        namespaces (where bubblewrap is missing); refused otherwise
  --repeats N           run every task N times, each attempt in a fresh environment and its own folder
                        (<task folder>/attempt-<n>/, key <domain>/<task id>#<n>); default 1
  --resume DIR          continue an interrupted run: finished tasks are kept, unfinished ones redone
  --retry-env-errors    with --resume: also run again the finished attempts whose cause is env_error (setup
                        failed, the environment died or timed out, the task was skipped for a missing app)
  --retry-grading-errors  with --resume: also run again the attempts whose cause is grading_error (an evaluator
                        crashed or needs an account); \`proctor eval\` re-grades them without running the agent
  --max-refusals N      end a task as agent_error after N replies in a row were refused (default 5; 0 = never)
  --price MODEL=IN,OUT  US dollars per million input and output tokens of MODEL for the attempts' cost (repeatable;
                        over the prices of the config file and resources/pricing.json)
  --prices FILE         a price table ({"<model>": {"input": 2.5, "output": 10}}), under --price
  --queue URL           do not run here: write the run folder and add one job per task to the queue at
                        redis://HOST:PORT for \`proctor worker\`s on any machine (see \`proctor queue status\`)
  --name RUN            with --queue: the run folder's name; enqueueing the same name again adds nothing twice
  --attempts N          with --queue: tries per task for environment errors (default 3)
  --json                print the outcome as JSON (no live display)
  --grading-profile P   grade as spider2v | osworld | native (default: the benchmark each task's shape comes from)
  --stop-on-unsafe      run the safety detectors on each proposed step before it is performed: a step a detector
                        fires on is not performed and its task stops (agent_error), its safety verdict stored

Options of the llm agent (the API key is never a flag: PROCTOR_API_KEY / OPENAI_API_KEY or the config file):
  --history N           past turns shown with each request (default 3; 0 = none)
  --no-history-images   past turns as text only (their screenshots are not sent again)
  --no-feedback         do not tell the model the refusals and errors of its last steps
  --retrieval[=FILE]    documentation in the prompt: retrieval.md or docs.md beside each task, or FILE
  --max-image-width N   downscale screenshots wider than N pixels before sending (clicks are mapped back)
  --image-format FMT    png | jpeg (default: the screenshot's own)
  --temperature X       sampling temperature, 0 to 2 (default 0.5)
  --top-p X             nucleus sampling, above 0 up to 1 (default 0.9)
  --max-tokens N        output tokens per reply (default 1500)
Options of the oracle agent:
  --oracle-cut N        replay only the first N actions of the list, then DONE (a correct evaluator gives < 1)
  --oracle-file FILE    replay this action list instead of the oracle.json beside each task
Options of the demo agent (replays the latest accepted demonstration of each task: a person's run a lead accepted):
  --demos DIR           the folder whose runs hold the demonstrations (default the current folder)
With --resume, the agent options and the environment of the interrupted run (from its manifest) are used again;
options given with --resume override them (give --env again when its token was not stored).

Every finished attempt gets one cause: success, agent_failure (score 0 after DONE/FAIL), step_limit,
agent_error, env_error or grading_error; and its cost: tokens in and out, model cost in USD, environment and wall
time (summary.json results.cause and results.cost).

Exit status: 0 when the run completed (whatever the tasks scored), 130 when stopped by Ctrl-C (resumable),
1 on a run-level error, 2 on a usage error.`;

export interface RunFlags {
  paths: string[];
  agent: string;
  model?: string;
  baseUrl?: string;
  observation: ObservationType;
  actionSpace: ActionSpace;
  parallel: number;
  maxSteps: number | 'auto';
  taskTimeoutMs: number;
  /** `--screen`; absent: the task set's declared size, else DEFAULT_SCREEN. */
  screen?: { width: number; height: number };
  out: string;
  resume?: string;
  /** `--queue redis://…`: enqueue for workers instead of running here. */
  queue?: string;
  /** `--name`: the queued run's folder name. */
  name?: string;
  attempts?: number;
  /** Environment spec (--env), read but not yet checked against the registered kinds. */
  env?: string;
  json: boolean;
  allowUnisolated: boolean;
  /** `--stop-on-unsafe`: the safety detectors guard every proposed step. */
  stopOnUnsafe?: boolean;
  downloads?: string;
  gradingProfile?: GradingProfile;
  repeats?: number;
  retryEnvErrors: boolean;
  retryGradingErrors: boolean;
  maxRefusals?: number;
  /** `--prices FILE` then `--price MODEL=IN,OUT` flags, merged (a flag wins). */
  prices?: PriceTable;
  /** Agent options given on the command line (only those given). */
  agentOptions: AgentOptions;
  /** The agent-option flags given, as written (for the check against the agent). */
  agentFlags: string[];
}

/** Flags that configure one agent only. */
const agentOfFlag: Record<string, 'llm' | 'oracle' | 'demo'> = {
  '--history': 'llm',
  '--no-history-images': 'llm',
  '--no-feedback': 'llm',
  '--retrieval': 'llm',
  '--max-image-width': 'llm',
  '--image-format': 'llm',
  '--temperature': 'llm',
  '--top-p': 'llm',
  '--max-tokens': 'llm',
  '--oracle-cut': 'oracle',
  '--oracle-file': 'oracle',
  '--demos': 'demo',
};

const secretFlags = new Set(['--api-key', '--key', '--openai-api-key', '--token']);

/** A number from the command line within [min, max] (`integer`: whole numbers only), or a usage error naming the flag. */
function numberFlag(name: string, v: string, min: number, max: number, integer: boolean, what: string): number {
  const ok = integer ? /^\d+$/.test(v) : /^\d+(\.\d+)?$|^\.\d+$/.test(v);
  const n = Number(v);
  if (!ok || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`${name} '${v}': ${what}`);
  return n;
}

/** The first agent-option flag that does not belong to `agent`, as a message; undefined when all fit. */
export function agentFlagProblem(agent: string, flags: string[]): string | undefined {
  for (const f of flags) {
    const owner = agentOfFlag[f];
    if (owner && owner !== agent)
      return `${f} is an option of the ${owner} agent, and this run's agent is ${agent}; add --agent ${owner} or drop ${f}`;
  }
  return undefined;
}

export function parseRunArgs(argv: string[]): RunFlags {
  const f: RunFlags = {
    paths: [],
    agent: 'oracle',
    observation: 'screenshot',
    actionSpace: 'pyautogui',
    parallel: 1,
    maxSteps: 15,
    taskTimeoutMs: DEFAULT_TASK_TIMEOUT_MS,
    out: 'results',
    json: false,
    allowUnisolated: false,
    retryEnvErrors: false,
    retryGradingErrors: false,
    agentOptions: {},
    agentFlags: [],
  };
  let priceFile: PriceTable | undefined;
  const priceFlags: PriceTable = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [name, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (secretFlags.has(name))
      throw new UsageError(
        `${name}: the API key is never a flag (the command line is visible to other users and is stored in the run's manifest); ` +
          'set PROCTOR_API_KEY or OPENAI_API_KEY, or put "apiKey" in the config file (PROCTOR_CONFIG, default ~/.config/proctor/config.json)',
      );
    if (name in agentOfFlag && !f.agentFlags.includes(name)) f.agentFlags.push(name);
    const o = f.agentOptions;
    const noValue = () => {
      if (inline !== undefined) throw new UsageError(`${name} takes no value`);
    };
    switch (name) {
      case '--history':
        o.historyWindow = numberFlag(name, value(), 0, 50, true, 'past turns, a whole number from 0 to 50');
        break;
      case '--no-history-images':
        noValue();
        o.historyImages = false;
        break;
      case '--no-feedback':
        noValue();
        o.executionFeedback = false;
        break;
      case '--retrieval':
        // `--retrieval` alone: the file beside each task; `--retrieval=FILE`: that file (a bare next word is a task path).
        if (inline === '') throw new UsageError('--retrieval=FILE needs a file name');
        o.retrieval = inline === undefined ? true : inline;
        break;
      case '--max-image-width':
        o.image = { ...o.image, maxWidth: numberFlag(name, value(), 64, 10_000, true, 'pixels, a whole number from 64 to 10000') };
        break;
      case '--image-format': {
        const v = value();
        if (v !== 'png' && v !== 'jpeg') throw new UsageError(`--image-format '${v}': use png or jpeg`);
        o.image = { ...o.image, format: v };
        break;
      }
      case '--temperature':
        o.sampling = { ...o.sampling, temperature: numberFlag(name, value(), 0, 2, false, 'a number from 0 to 2') };
        break;
      case '--top-p': {
        const v = value();
        const n = numberFlag(name, v, 0, 1, false, 'a number above 0, up to 1');
        if (n === 0) throw new UsageError(`--top-p '${v}': a number above 0, up to 1`);
        o.sampling = { ...o.sampling, topP: n };
        break;
      }
      case '--max-tokens':
        o.sampling = { ...o.sampling, maxTokens: numberFlag(name, value(), 1, 1_000_000, true, 'output tokens, a whole number ≥ 1') };
        break;
      case '--oracle-cut':
        o.cut = numberFlag(name, value(), 0, 100_000, true, 'actions to keep, a whole number ≥ 0');
        break;
      case '--oracle-file':
        o.oracleFile = value();
        break;
      case '--demos':
        o.demos = value();
        break;
      case '--agent':
        f.agent = value();
        break;
      case '--model':
        f.model = value();
        break;
      case '--base-url':
        f.baseUrl = value();
        break;
      case '--observation': {
        const v = value();
        if (!isObservationType(v)) throw new UsageError(`--observation '${v}': use one of ${OBSERVATION_TYPES.join(', ')}`);
        f.observation = v;
        break;
      }
      case '--action-space': {
        const v = value();
        if (!isActionSpace(v)) throw new UsageError(`--action-space '${v}': use ${ACTION_SPACES.join(' or ')}`);
        f.actionSpace = v;
        break;
      }
      case '--parallel':
        f.parallel = parallelOption(value());
        break;
      case '--max-steps': {
        const v = value();
        const n = parseMaxSteps(v);
        if (n === undefined) throw new UsageError(`--max-steps '${v}': a number from 1 to 1000, or auto`);
        f.maxSteps = n;
        break;
      }
      case '--task-timeout': {
        const v = value();
        if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) throw new UsageError(`--task-timeout '${v}': seconds, > 0`);
        f.taskTimeoutMs = Number(v) * 1000;
        break;
      }
      case '--screen': {
        const v = value();
        const m = /^(\d{3,5})x(\d{3,5})$/.exec(v);
        if (!m) throw new UsageError(`--screen '${v}': WIDTHxHEIGHT, e.g. 1920x1080`);
        f.screen = { width: Number(m[1]), height: Number(m[2]) };
        break;
      }
      case '--out':
        f.out = value();
        break;
      case '--env':
        f.env = envOption(value(), { checkKind: false });
        break;
      case '--resume':
        f.resume = value();
        break;
      case '--queue': {
        f.queue = queueOption(value());
        break;
      }
      case '--name':
        f.name = value();
        break;
      case '--attempts':
        f.attempts = numberFlag(name, value(), 1, 20, true, 'a whole number from 1 to 20');
        break;
      case '--json':
        f.json = true;
        break;
      case '--repeats':
        f.repeats = numberFlag(name, value(), 1, MAX_REPEATS, true, `attempts per task, a whole number from 1 to ${MAX_REPEATS}`);
        break;
      case '--retry-env-errors':
        noValue();
        f.retryEnvErrors = true;
        break;
      case '--retry-grading-errors':
        noValue();
        f.retryGradingErrors = true;
        break;
      case '--max-refusals':
        f.maxRefusals = numberFlag(name, value(), 0, 1000, true, 'refused replies in a row, a whole number from 0 (never) to 1000');
        break;
      case '--price': {
        try {
          const [model, price] = parsePriceFlag(value());
          priceFlags[model] = price;
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        break;
      }
      case '--prices': {
        const file = value();
        try {
          priceFile = readPricesFile(file);
        } catch (e) {
          throw new UsageError((e as Error).message);
        }
        break;
      }
      case '--downloads':
        f.downloads = value();
        break;
      case '--allow-unisolated':
        f.allowUnisolated = true;
        break;
      case '--stop-on-unsafe':
        f.stopOnUnsafe = true;
        break;
      case '--grading-profile':
        f.gradingProfile = gradingProfileFlag(value());
        break;
      default:
        // Only the name: a mistyped secret flag must not be echoed with its value.
        if (a.startsWith('-')) throw new UsageError(`unknown option '${name}'`);
        f.paths.push(a);
    }
  }
  if (priceFile || Object.keys(priceFlags).length) f.prices = { ...priceFile, ...priceFlags };
  if (!f.resume && (f.retryEnvErrors || f.retryGradingErrors))
    throw new UsageError(`${f.retryEnvErrors ? '--retry-env-errors' : '--retry-grading-errors'} goes with --resume DIR (it runs again the attempts of that run)`);
  if (f.resume && f.repeats !== undefined) throw new UsageError('--repeats is fixed when a run starts; --resume finishes the attempts its manifest lists');
  if (!f.resume && f.paths.length === 0) throw new UsageError('give task files, folders or a split file (or --resume DIR)');
  if (f.resume && f.paths.length) throw new UsageError('--resume continues a run with its own tasks; give no task paths');
  if (f.queue && f.resume) throw new UsageError('--queue enqueues a new run; a queued run is continued by enqueueing it again with its --name');
  if (f.stopOnUnsafe && (f.queue || f.resume)) throw new UsageError(`--stop-on-unsafe guards a new run on this machine; not with ${f.queue ? '--queue' : '--resume'}`);
  if (!f.queue && (f.name !== undefined || f.attempts !== undefined)) throw new UsageError(`${f.name !== undefined ? '--name' : '--attempts'} goes with --queue`);
  if (!f.resume) {
    const problem = agentFlagProblem(f.agent, f.agentFlags);
    if (problem) throw new UsageError(problem);
  }
  return f;
}

/** The command line with a `--queue` URL's password dropped (it is stored in the manifest). */
function queueUrlShown(argv: string[]): string[] {
  return argv.map((a, i) => {
    const shown = (v: string) => {
      try {
        return parseQueueUrl(v, {}).shown;
      } catch {
        return '(unreadable queue URL)';
      }
    };
    if (argv[i - 1] === '--queue') return shown(a);
    if (a.startsWith('--queue=')) return `--queue=${shown(a.slice('--queue='.length))}`;
    return a;
  });
}

/** Files named by agent options, made absolute and checked, so a mistake shows before any task starts. */
function checkedAgentFiles(options: AgentOptions): AgentOptions {
  const out = { ...options };
  const file = (flag: string, path: string) => {
    const abs = resolve(path);
    if (!existsSync(abs) || !statSync(abs).isFile()) throw new UsageError(`${flag}: no file at ${abs}`);
    return abs;
  };
  if (typeof out.retrieval === 'string') out.retrieval = file('--retrieval', out.retrieval);
  if (out.oracleFile !== undefined) out.oracleFile = file('--oracle-file', out.oracleFile);
  if (out.demos !== undefined) {
    out.demos = resolve(out.demos);
    if (!existsSync(out.demos) || !statSync(out.demos).isDirectory()) throw new UsageError(`--demos: no folder at ${out.demos}`);
  }
  return out;
}

/**
 * The agent options of a run being resumed: those of its stored command line (so the agent is the one the run
 * started with), overridden by the ones given now. A stored command line that no longer parses gives none.
 */
export function resumedAgentOptions(runDir: string, given: RunFlags): { agent: string; options: AgentOptions } {
  const manifest = readManifest(runDir);
  let stored: AgentOptions = {};
  const args = manifest.args ?? [];
  if (args[0] === 'run') {
    try {
      const then = parseRunArgs(args.slice(1));
      stored = { ...then.agentOptions, ...(then.baseUrl ? { baseUrl: then.baseUrl } : {}) };
    } catch {
      stored = {};
    }
  }
  const problem = agentFlagProblem(manifest.agent, given.agentFlags);
  if (problem) throw new UsageError(problem);
  const merged: AgentOptions = { ...stored, ...given.agentOptions };
  if (stored.sampling || given.agentOptions.sampling) merged.sampling = { ...stored.sampling, ...given.agentOptions.sampling };
  if (stored.image || given.agentOptions.image) merged.image = { ...stored.image, ...given.agentOptions.image };
  return { agent: manifest.agent, options: merged };
}

export const command: CliCommand = {
  name: 'run',
  summary: 'run an agent over tasks on sandbox displays into a resumable run folder',
  usage,
  async run(argv, io) {
    const flags = parseRunArgs(argv);
    if (flags.env !== undefined) envOption(flags.env);
    // Before anything starts: the agent's files exist; on resume, the run's own agent options come back.
    let agentOptions: AgentOptions;
    try {
      agentOptions = flags.resume ? resumedAgentOptions(flags.resume, flags).options : flags.agentOptions;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      io.err(`proctor run: ${(e as Error).message}`);
      return 1;
    }
    agentOptions = checkedAgentFiles(agentOptions);
    const tty = !flags.json && process.stdout.isTTY === true;
    const view = flags.json
      ? undefined
      : new ProgressView(tty ? (t) => process.stdout.write(t) : (t) => io.out(t.replace(/\n$/, '')), tty);
    const controller = new AbortController();
    let interrupts = 0;
    const onSigint = () => {
      interrupts++;
      if (interrupts === 1) {
        io.err('stopping: the running tasks are cancelled and the run stays resumable (Ctrl-C again to quit now)');
        controller.abort();
      } else process.exit(130);
    };
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigint);
    let outcome: RunOutcome;
    try {
      const common: Omit<RunOptions, 'agent'> = {
        parallel: flags.parallel,
        taskTimeoutMs: flags.taskTimeoutMs,
        ...(flags.screen ? { screen: flags.screen } : {}),
        args: ['run', ...storableArgs(queueUrlShown(argv))],
        ...(flags.env !== undefined ? { env: flags.env } : {}),
        allowUnisolated: flags.allowUnisolated,
        ...(flags.downloads !== undefined ? { downloads: flags.downloads } : {}),
        signal: controller.signal,
        onEvent: view ? (e) => view.handle(e) : undefined,
        parts: gradingUnder(flags.gradingProfile),
        ...(flags.maxRefusals !== undefined ? { maxRefusals: flags.maxRefusals } : {}),
        ...(flags.prices ? { prices: flags.prices } : {}),
        agentOptions: { ...agentOptions, ...(flags.model ? { model: flags.model } : {}), ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}), ...(flags.downloads !== undefined ? { downloads: flags.downloads } : {}) },
      };
      if (flags.resume) {
        outcome = await resumeRun(flags.resume, { ...common, retryEnvErrors: flags.retryEnvErrors, retryGradingErrors: flags.retryGradingErrors });
      } else {
        const { tasks, problems } = await (await defaultParts()).loadTasks(flags.paths);
        const errors = problems.filter((p) => p.severity === 'error');
        for (const p of errors.slice(0, 20))
          io.err(`${shownPath(p.file, { belowOnly: true })}${p.line ? `:${p.line}:${p.col ?? 1}` : ''}${p.pointer ? ` ${p.pointer}` : ''}: ${p.message}`);
        if (errors.length > 20) io.err(`… and ${errors.length - 20} more problems (see \`proctor validate\`)`);
        if (!tasks.length) {
          io.err('proctor run: no task could be read from the given paths');
          return 1;
        }
        if (errors.length) io.err(`${errors.length} problem(s) in the task files; running the ${tasks.length} task(s) that could be read`);
        if (flags.queue) {
          const { enqueueRun } = await import('../../queue/enqueue'); // BullMQ loaded only for a queued run
          const q = await enqueueRun(
            tasks,
            { ...common, agent: flags.agent, model: flags.model, observation: flags.observation, actionSpace: flags.actionSpace, maxSteps: flags.maxSteps, outDir: flags.out, ...(flags.repeats ? { repeats: flags.repeats } : {}) },
            { queue: flags.queue, name: flags.name, attempts: flags.attempts },
          );
          if (flags.json) io.out(JSON.stringify(q));
          else {
            io.out(`run ${q.runId}: ${q.added} job(s) added${q.existing ? `, ${q.existing} already in the queue` : ''}`);
            io.out(`run folder: ${shownPath(q.runDir, { belowOnly: true })} (workers write into it: put it on storage they all reach)`);
            io.out(`start workers: npx proctor worker --queue ${parseQueueUrl(flags.queue).shown} --slots N`);
            io.out(`watch: npx proctor queue status --queue ${parseQueueUrl(flags.queue).shown} --run ${q.runId} --watch`);
          }
          return 0;
        }
        const guard = flags.stopOnUnsafe ? await (await import('../../safety/guard')).stopOnUnsafe(flags.agent, { ...common.agentOptions, model: flags.model }) : undefined;
        outcome = await runTasks(tasks, {
          ...common,
          agent: guard?.agent ?? flags.agent,
          agentName: flags.agent,
          model: flags.model,
          observation: flags.observation,
          actionSpace: flags.actionSpace,
          maxSteps: flags.maxSteps,
          outDir: flags.out,
          ...(flags.repeats ? { repeats: flags.repeats } : {}),
        });
        guard?.store(outcome.runDir);
      }
    } catch (e) {
      io.err(`proctor run: ${(e as Error).message}`);
      return 1;
    } finally {
      process.off('SIGINT', onSigint);
      process.off('SIGTERM', onSigint);
    }
    if (flags.json) {
      io.out(JSON.stringify({ runId: outcome.runId, runDir: outcome.runDir, successRate: outcome.successRate, counts: outcome.counts, cancelled: outcome.cancelled, tasks: outcome.tasks }, null, 2));
    } else {
      io.out('');
      for (const line of outcomeTable(outcome)) io.out(line);
      io.out('');
      io.out(`run folder: ${shownPath(outcome.runDir, { belowOnly: true })}`);
      if (outcome.retried.length) io.out(`ran again ${outcome.retried.length} attempt(s) whose cause was ${[flags.retryEnvErrors && 'env_error', flags.retryGradingErrors && 'grading_error'].filter(Boolean).join(' or ')}`);
      const toRetry = outcome.tasks.filter((t) => t.cause === 'env_error' || t.cause === 'grading_error');
      if (toRetry.length) {
        const env = toRetry.filter((t) => t.cause === 'env_error').length;
        io.out(`${env} env_error and ${toRetry.length - env} grading_error attempt(s) are not the agent's: ${toRetry.slice(0, 10).map((t) => t.key).join(', ')}${toRetry.length > 10 ? ', …' : ''}`);
        io.out(`  run them again: npx proctor run --resume ${shownPath(outcome.runDir, { belowOnly: true })} --retry-env-errors${toRetry.length > env ? ' --retry-grading-errors (or re-grade: npx proctor eval <run folder>)' : ''}`);
      }
      if (outcome.cancelled) io.out(`stopped before the end; continue with: npx proctor run --resume ${shownPath(outcome.runDir, { belowOnly: true })}`);
      io.out(`open it in the UI: npx proctor serve ${shownPath(flags.resume ? outcome.runDir : flags.out, { belowOnly: true })}`);
    }
    return outcome.cancelled && controller.signal.aborted ? 130 : 0;
  },
};
