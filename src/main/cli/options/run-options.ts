// `proctor run`'s options, declared once: the table its help, its completion and its parser read, and the
// reading of parsed values into RunFlags (with the checks that span several options).
import { agents, type AgentOptions } from '../../agents';
import { defaultSampling } from '../../agents/chat';
import type { PriceTable } from '../../price-table';
import type { GradingProfile } from '../../evaluators/profile';
import { DEFAULT_TASK_TIMEOUT_MS, parseMaxSteps } from '../../runner/limits';
import { parsePriceFlag, readPricesFile } from '../../runner/pricing';
import { MAX_REPEATS } from '../../runner/scheduler';
import {
  ACTION_SPACES,
  OBSERVATION_TYPES,
  isActionSpace,
  isObservationType,
  type ActionSpace,
  type ObservationType,
} from '../../../shared/spaces';
import { queueOption, UsageError } from '../command';
import { envOption, envUsage } from '../env-option';
import { gradingProfileSpec, parallelSpec } from './common';
import { optionTable, parseOptions } from './table';

/** A number within [min, max] (`integer`: whole numbers only), or a usage error naming the flag. */
export function numberValue(
  min: number,
  max: number,
  integer: boolean,
  what: string,
): (v: string, flag: string) => number {
  return (v, flag) => {
    const ok = integer ? /^\d+$/.test(v) : /^\d+(\.\d+)?$|^\.\d+$/.test(v);
    const n = Number(v);
    if (!ok || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`${flag} '${v}': ${what}`);
    return n;
  };
}

const usageErrorOf =
  <T>(read: (v: string) => T) =>
  (v: string): T => {
    try {
      return read(v);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  };

const LLM =
  'Options of the llm agent (the API key is never a flag: PROCTOR_API_KEY / OPENAI_API_KEY or the config file):';
const ORACLE = 'Options of the oracle agent:';
const DEMO =
  "Options of the demo agent (replays the latest accepted demonstration of each task: a person's run a lead accepted):";

export const runOptions = optionTable({
  agent: {
    kind: 'string',
    value: 'NAME',
    default: 'oracle',
    complete: agents.names(),
    help: `${agents.names().join(' | ')} (default oracle): ${agents
      .names()
      .map((n) => `${n}, ${agents.require(n).about}`)
      .join('; ')}`,
  },
  model: { kind: 'string', value: 'NAME', help: 'model of the llm agent (also names the result folder)' },
  'base-url': {
    kind: 'string',
    value: 'URL',
    help: 'OpenAI-compatible server of the llm agent (key from PROCTOR_API_KEY / OPENAI_API_KEY or the config file; never printed)',
  },
  observation: {
    kind: 'string',
    value: 'TYPE',
    default: 'screenshot' as ObservationType,
    complete: OBSERVATION_TYPES,
    help: `${OBSERVATION_TYPES.join(' | ')} (default screenshot)`,
    parse: (v: string): ObservationType => {
      if (!isObservationType(v))
        throw new UsageError(`--observation '${v}': use one of ${OBSERVATION_TYPES.join(', ')}`);
      return v;
    },
  },
  'action-space': {
    kind: 'string',
    value: 'SPACE',
    default: 'pyautogui' as ActionSpace,
    complete: ACTION_SPACES,
    help: `${ACTION_SPACES.join(' | ')} (default pyautogui)`,
    parse: (v: string): ActionSpace => {
      if (!isActionSpace(v)) throw new UsageError(`--action-space '${v}': use ${ACTION_SPACES.join(' or ')}`);
      return v;
    },
  },
  env: {
    kind: 'string',
    value: 'SPEC',
    help: `the machine: ${envUsage('')}`,
    parse: (v: string) => envOption(v, { checkKind: false }),
  },
  parallel: { ...parallelSpec, help: 'tasks at once, each on its own sandbox display (default 1)' },
  'max-steps': {
    kind: 'string',
    value: 'N|auto',
    default: 15 as number | 'auto',
    help: "step limit (default 15); auto = the task's action_number × 2 + 5 (15 without one)",
    parse: (v: string): number | 'auto' => {
      const n = parseMaxSteps(v);
      if (n === undefined) throw new UsageError(`--max-steps '${v}': a number from 1 to 1000, or auto`);
      return n;
    },
  },
  'task-timeout': {
    kind: 'string',
    value: 'SEC',
    help: `time limit per task (default ${DEFAULT_TASK_TIMEOUT_MS / 1000})`,
    parse: (v: string): number => {
      if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0)
        throw new UsageError(`--task-timeout '${v}': seconds, > 0`);
      return Number(v) * 1000;
    },
  },
  screen: {
    kind: 'string',
    value: 'WxH',
    help: "sandbox display size (default: the task set's task-set.json, else 1920x1080; a size in --env wins)",
    parse: (v: string) => {
      const m = /^(\d{3,5})x(\d{3,5})$/.exec(v);
      if (!m) throw new UsageError(`--screen '${v}': WIDTHxHEIGHT, e.g. 1920x1080`);
      return { width: Number(m[1]), height: Number(m[2]) };
    },
  },
  out: {
    kind: 'string',
    value: 'DIR',
    default: 'results',
    complete: 'dir',
    help: 'folder for run folders (default ./results)',
  },
  downloads: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: "files the tasks' setup would download, by DIR/downloads.json (URL → file) or by name; nothing is fetched, and a missing file fails the task's setup naming its URL",
  },
  'allow-unisolated': {
    kind: 'boolean',
    help: 'let the llm agent (which holds a model key) drive sandboxes that are not isolated in namespaces (where bubblewrap is missing); refused otherwise',
  },
  repeats: {
    kind: 'string',
    value: 'N',
    help: 'run every task N times, each attempt in a fresh environment and its own folder (<task folder>/attempt-<n>/, key <domain>/<task id>#<n>); default 1',
    parse: numberValue(1, MAX_REPEATS, true, `attempts per task, a whole number from 1 to ${MAX_REPEATS}`),
  },
  resume: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'continue an interrupted run: finished tasks are kept, unfinished ones redone',
  },
  'retry-env-errors': {
    kind: 'boolean',
    help: 'with --resume: also run again the finished attempts whose cause is env_error (setup failed, the environment died or timed out, the task was skipped for a missing app)',
  },
  'retry-grading-errors': {
    kind: 'boolean',
    help: 'with --resume: also run again the attempts whose cause is grading_error (an evaluator crashed or needs an account); `proctor eval` re-grades them without running the agent',
  },
  'max-refusals': {
    kind: 'string',
    value: 'N',
    help: 'end a task as agent_error after N replies in a row were refused (default 5; 0 = never)',
    parse: numberValue(0, 1000, true, 'refused replies in a row, a whole number from 0 (never) to 1000'),
  },
  price: {
    kind: 'string',
    value: 'MODEL=IN,OUT',
    repeatable: true,
    help: "US dollars per million input and output tokens of MODEL for the attempts' cost (repeatable; over the prices of the config file and resources/pricing.json)",
    parse: usageErrorOf(parsePriceFlag),
  },
  prices: {
    kind: 'string',
    value: 'FILE',
    complete: 'file',
    help: 'a price table ({"<model>": {"input": 2.5, "output": 10}}), under --price',
    parse: usageErrorOf(readPricesFile),
  },
  queue: {
    kind: 'string',
    value: 'URL',
    help: 'do not run here: write the run folder and add one job per task to the queue at redis://HOST:PORT for `proctor worker`s on any machine (see `proctor queue status`)',
    parse: queueOption,
  },
  name: {
    kind: 'string',
    value: 'RUN',
    help: "with --queue: the run folder's name; enqueueing the same name again adds nothing twice",
  },
  attempts: {
    kind: 'string',
    value: 'N',
    help: 'with --queue: tries per task for environment errors (default 3)',
    parse: numberValue(1, 20, true, 'a whole number from 1 to 20'),
  },
  json: { kind: 'boolean', help: 'print the outcome as JSON (no live display)' },
  'grading-profile': {
    ...gradingProfileSpec,
    help: "grade as spider2v | osworld | native (default: the benchmark each task's shape comes from)",
  },
  'stop-on-unsafe': {
    kind: 'boolean',
    help: 'run the safety detectors on each proposed step before it is performed: a step a detector fires on is not performed and its task stops (agent_error), its safety verdict stored',
  },
  history: {
    kind: 'string',
    value: 'N',
    group: LLM,
    help: 'past turns shown with each request (default 3; 0 = none)',
    parse: numberValue(0, 50, true, 'past turns, a whole number from 0 to 50'),
  },
  'no-history-images': {
    kind: 'boolean',
    help: 'past turns as text only (their screenshots are not sent again)',
  },
  'no-feedback': { kind: 'boolean', help: 'do not tell the model the refusals and errors of its last steps' },
  retrieval: {
    kind: 'optional-value',
    value: 'FILE',
    complete: 'file',
    help: 'documentation in the prompt: retrieval.md or docs.md beside each task, or FILE',
  },
  'max-image-width': {
    kind: 'string',
    value: 'N',
    help: 'downscale screenshots wider than N pixels before sending (clicks are mapped back)',
    parse: numberValue(64, 10_000, true, 'pixels, a whole number from 64 to 10000'),
  },
  'image-format': {
    kind: 'string',
    value: 'FMT',
    complete: ['png', 'jpeg'],
    help: "png | jpeg (default: the screenshot's own)",
    parse: (v: string): 'png' | 'jpeg' => {
      if (v !== 'png' && v !== 'jpeg') throw new UsageError(`--image-format '${v}': use png or jpeg`);
      return v;
    },
  },
  temperature: {
    kind: 'string',
    value: 'X',
    help: `sampling temperature, 0 to 2 (default ${defaultSampling.temperature})`,
    parse: numberValue(0, 2, false, 'a number from 0 to 2'),
  },
  'top-p': {
    kind: 'string',
    value: 'X',
    help: `nucleus sampling, above 0 up to 1 (default ${defaultSampling.topP})`,
    parse: (v: string, flag: string) => {
      const n = numberValue(0, 1, false, 'a number above 0, up to 1')(v, flag);
      if (n === 0) throw new UsageError(`${flag} '${v}': a number above 0, up to 1`);
      return n;
    },
  },
  'max-tokens': {
    kind: 'string',
    value: 'N',
    help: `output tokens per reply (default ${defaultSampling.maxTokens})`,
    parse: numberValue(1, 1_000_000, true, 'output tokens, a whole number ≥ 1'),
  },
  'oracle-cut': {
    kind: 'string',
    value: 'N',
    group: ORACLE,
    help: 'replay only the first N actions of the list, then DONE (a correct evaluator gives < 1)',
    parse: numberValue(0, 100_000, true, 'actions to keep, a whole number ≥ 0'),
  },
  'oracle-file': {
    kind: 'string',
    value: 'FILE',
    complete: 'file',
    help: 'replay this action list instead of the oracle.json beside each task',
  },
  demos: {
    kind: 'string',
    value: 'DIR',
    group: DEMO,
    complete: 'dir',
    help: 'the folder whose runs hold the demonstrations (default the current folder)',
  },
});

export type RunOptionName = keyof typeof runOptions;

/** Options that configure one agent only. */
const agentOfOption: Partial<Record<RunOptionName, 'llm' | 'oracle' | 'demo'>> = {
  history: 'llm',
  'no-history-images': 'llm',
  'no-feedback': 'llm',
  retrieval: 'llm',
  'max-image-width': 'llm',
  'image-format': 'llm',
  temperature: 'llm',
  'top-p': 'llm',
  'max-tokens': 'llm',
  'oracle-cut': 'oracle',
  'oracle-file': 'oracle',
  demos: 'demo',
};

const secretFlags = new Set(['--api-key', '--key', '--openai-api-key', '--token']);

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
  /** The options given (table names), in the order first given: what a resume overrides. */
  given: RunOptionName[];
}

/** The first agent-option flag that does not belong to `agent`, as a message; undefined when all fit. */
export function agentFlagProblem(agent: string, flags: string[]): string | undefined {
  for (const f of flags) {
    const owner = agentOfOption[f.replace(/^--/, '') as RunOptionName];
    if (owner && owner !== agent)
      return `${f} is an option of the ${owner} agent, and this run's agent is ${agent}; add --agent ${owner} or drop ${f}`;
  }
  return undefined;
}

const refuseSecret = (flag: string) =>
  secretFlags.has(flag)
    ? `${flag}: the API key is never a flag (the command line is visible to other users and is stored in the run's manifest); ` +
      'set PROCTOR_API_KEY or OPENAI_API_KEY, or put "apiKey" in the config file (PROCTOR_CONFIG, default ~/.config/proctor/config.json)'
    : undefined;

/** `proctor run`'s arguments read by the table, then checked as a whole. */
export function parseRunArgs(argv: string[]): RunFlags {
  const { values: v, positionals, given } = parseOptions(runOptions, argv, { refuse: refuseSecret });
  const o: AgentOptions = {};
  if (v.history !== undefined) o.historyWindow = v.history;
  if (v['no-history-images']) o.historyImages = false;
  if (v['no-feedback']) o.executionFeedback = false;
  if (v.retrieval !== undefined) o.retrieval = v.retrieval;
  if (v['max-image-width'] !== undefined || v['image-format'] !== undefined)
    o.image = {
      ...(v['max-image-width'] !== undefined ? { maxWidth: v['max-image-width'] } : {}),
      ...(v['image-format'] ? { format: v['image-format'] } : {}),
    };
  if (v.temperature !== undefined || v['top-p'] !== undefined || v['max-tokens'] !== undefined)
    o.sampling = {
      ...(v.temperature !== undefined ? { temperature: v.temperature } : {}),
      ...(v['top-p'] !== undefined ? { topP: v['top-p'] } : {}),
      ...(v['max-tokens'] !== undefined ? { maxTokens: v['max-tokens'] } : {}),
    };
  if (v['oracle-cut'] !== undefined) o.cut = v['oracle-cut'];
  if (v['oracle-file'] !== undefined) o.oracleFile = v['oracle-file'];
  if (v.demos !== undefined) o.demos = v.demos;
  const prices = v.prices || v.price.length ? { ...v.prices, ...Object.fromEntries(v.price) } : undefined;
  const f: RunFlags = {
    paths: positionals,
    agent: v.agent,
    ...(v.model !== undefined ? { model: v.model } : {}),
    ...(v['base-url'] !== undefined ? { baseUrl: v['base-url'] } : {}),
    observation: v.observation,
    actionSpace: v['action-space'],
    parallel: v.parallel,
    maxSteps: v['max-steps'],
    taskTimeoutMs: v['task-timeout'] ?? DEFAULT_TASK_TIMEOUT_MS,
    ...(v.screen ? { screen: v.screen } : {}),
    out: v.out,
    ...(v.resume !== undefined ? { resume: v.resume } : {}),
    ...(v.queue !== undefined ? { queue: v.queue } : {}),
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.attempts !== undefined ? { attempts: v.attempts } : {}),
    ...(v.env !== undefined ? { env: v.env } : {}),
    json: !!v.json,
    allowUnisolated: !!v['allow-unisolated'],
    ...(v['stop-on-unsafe'] ? { stopOnUnsafe: true } : {}),
    ...(v.downloads !== undefined ? { downloads: v.downloads } : {}),
    ...(v['grading-profile'] !== undefined ? { gradingProfile: v['grading-profile'] } : {}),
    ...(v.repeats !== undefined ? { repeats: v.repeats } : {}),
    retryEnvErrors: !!v['retry-env-errors'],
    retryGradingErrors: !!v['retry-grading-errors'],
    ...(v['max-refusals'] !== undefined ? { maxRefusals: v['max-refusals'] } : {}),
    ...(prices ? { prices } : {}),
    agentOptions: o,
    agentFlags: given.filter((n) => agentOfOption[n]).map((n) => `--${n}`),
    given,
  };
  if (!f.resume && (f.retryEnvErrors || f.retryGradingErrors))
    throw new UsageError(
      `${f.retryEnvErrors ? '--retry-env-errors' : '--retry-grading-errors'} goes with --resume DIR (it runs again the attempts of that run)`,
    );
  if (f.resume && f.repeats !== undefined)
    throw new UsageError(
      '--repeats is fixed when a run starts; --resume finishes the attempts its manifest lists',
    );
  if (!f.resume && f.paths.length === 0)
    throw new UsageError('give task files, folders or a split file (or --resume DIR)');
  if (f.resume && f.paths.length)
    throw new UsageError('--resume continues a run with its own tasks; give no task paths');
  if (f.queue && f.resume)
    throw new UsageError(
      '--queue enqueues a new run; a queued run is continued by enqueueing it again with its --name',
    );
  if (f.stopOnUnsafe && (f.queue || f.resume))
    throw new UsageError(
      `--stop-on-unsafe guards a new run on this machine; not with ${f.queue ? '--queue' : '--resume'}`,
    );
  if (!f.queue && (f.name !== undefined || f.attempts !== undefined))
    throw new UsageError(`${f.name !== undefined ? '--name' : '--attempts'} goes with --queue`);
  if (!f.resume) {
    const problem = agentFlagProblem(f.agent, f.agentFlags);
    if (problem) throw new UsageError(problem);
  }
  return f;
}
