// Grades a task's rule-based evaluator: fetch with getters, compare with metrics, combine with conj.
import { basename, posix } from 'node:path';
import type { MetricRecord, RuleVerdict } from '../../shared/run';
import type { Check, Conj, GetterSpec, SetupStep, Task } from '../../shared/task';
import { NeedsAccountError } from '../errors';
import { accountServiceOf, getters, metrics } from './catalog';
import { combineScores } from './conj';
import type { GradingContext } from './getter';
import type { Metric, MetricOutcome } from './metric';
import { withSharedReads } from './metrics/inputs';
import { watchSave } from './save-wait';
import { getterVariants, profileOf, variantOf, variants, type GradingProfile } from './profile';
import { withPyFloats } from './python/task-floats';

export interface GradeOptions extends GradingContext {
  /** The agent's last action: `DONE`, `FAIL`, `WAIT`, or undefined (step limit, no action). */
  lastAction?: string;
  /** Runs the task's postconfig (setup steps) on the environment before grading. */
  runPostSetup?: (steps: SetupStep[]) => Promise<unknown>;
  /** Grade under this profile instead of the one the task's shape implies (`--grading-profile`). */
  profile?: GradingProfile;
  /** Run the robust variant beside a faithful one and flag disagreements (default true). */
  secondOpinion?: boolean;
}

/**
 * The task's postconfig failed, so it was not graded: the environment did not reach the state the metric reads
 * (an environment failure, never a score). The runner records the task as env_error with this message.
 */
export class PostconfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PostconfigError';
  }
}

/** What gradePlan needs besides the environment: the profile and whether to ask for a second opinion. */
interface PlanContext extends GradingContext {
  profile: GradingProfile;
  secondOpinion: boolean;
}

/** One check ready to run: a metric with its getters, or a combination of checks (native composite). */
export type Plan =
  | {
      kind: 'metric';
      metric: string;
      result?: GetterSpec;
      expected?: GetterSpec;
      options: Record<string, unknown>;
      pointer: string;
    }
  | { kind: 'combine'; metric: string; operator: Conj; parts: Plan[]; pointer: string };

function isSpec(v: unknown): v is GetterSpec {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    typeof (v as { type?: unknown }).type === 'string'
  );
}

/**
 * The plan of a check. Spider2-V / OSWorld checks already name getters. Native checks (`args` = the
 * evaluation's `arguments`) are read thus: `local_*` → a task file (local_file), `vm_*` → a guest file
 * (vm_file), each on the `expected` side when its name says `expected`, else on the `result` side;
 * `result` / `expected` given as a getter spec `{type, …}` are used as they are; a plain `expected`
 * value becomes the rule `{expected: value}`; everything else is an option. `compare_script_logs`
 * uploads and runs `eval_script` next to `vm_eval_logs` and reads that log; `evaluate_multiple_notebooks`
 * plans each comparison and combines them with `operator`.
 */
export function planOf(check: Check): Plan {
  const args = check.args;
  if (!args)
    return {
      kind: 'metric',
      metric: check.metric,
      result: check.result,
      expected: isSpec(check.expected) ? check.expected : undefined,
      options: check.options ?? {},
      pointer: check.pointer,
    };
  if (check.metric === 'evaluate_multiple_notebooks') {
    const comparisons = Array.isArray(args.comparisons) ? args.comparisons : [];
    const parts = comparisons.map((c, i): Plan => {
      const entry = (typeof c === 'object' && c !== null ? c : {}) as { func?: unknown; arguments?: unknown };
      const pointer = `${check.pointer}/arguments/comparisons/${i}`;
      return planOf({
        metric: String(entry.func ?? ''),
        options: {},
        args: (entry.arguments ?? {}) as Record<string, unknown>,
        pointer,
      });
    });
    return {
      kind: 'combine',
      metric: check.metric,
      operator: args.operator === 'or' ? 'or' : 'and',
      parts,
      pointer: check.pointer,
    };
  }
  if (check.metric === 'compare_script_logs') {
    const script = String(args.eval_script ?? '');
    const log = typeof args.vm_eval_logs === 'string' ? args.vm_eval_logs : undefined;
    const dest = posix.join(log ? posix.dirname(log) : '/tmp', basename(script) || 'eval.sh');
    const options = Object.fromEntries(
      Object.entries(args).filter(([k]) => !['eval_script', 'vm_eval_logs', 'rules'].includes(k)),
    );
    return {
      kind: 'metric',
      metric: check.metric,
      result: { type: 'vm_script_output', src: script, dest, ...(log ? { log } : {}) },
      expected: { type: 'rule', rules: args.rules ?? {} },
      options,
      pointer: check.pointer,
    };
  }
  let result: GetterSpec | undefined;
  let expected: GetterSpec | undefined;
  const options: Record<string, unknown> = { ...(check.options ?? {}) };
  for (const [key, value] of Object.entries(args)) {
    if ((key === 'result' || key === 'expected') && isSpec(value)) {
      if (key === 'result') result = value;
      else expected = value;
    } else if (key === 'expected') {
      expected = { type: 'rule', rules: { expected: value } };
    } else if (key.startsWith('local_') && typeof value === 'string') {
      const spec: GetterSpec = { type: 'local_file', path: value };
      if (key.includes('result')) result = spec;
      else expected = spec;
    } else if (key.startsWith('vm_') && typeof value === 'string') {
      const spec: GetterSpec = { type: 'vm_file', path: value, dest: posix.basename(value) };
      if (key.includes('expected')) expected = spec;
      else result = spec;
    } else options[key] = value;
  }
  return { kind: 'metric', metric: check.metric, result, expected, options, pointer: check.pointer };
}

/** File getters: their `undefined` means "the file does not exist". */
const fileGetters = new Set(['vm_file', 'local_file', 'cache_file', 'dbt_profiles']);

function describe(spec: GetterSpec): string {
  const where = spec.path ?? spec.src ?? spec.url ?? spec.command;
  return `${spec.type}${where !== undefined ? ` ${typeof where === 'string' ? where : JSON.stringify(where)}` : ''}`;
}

/** Runs a getter; unknown names that belong to a cloud service need an account. */
async function runGetter(spec: GetterSpec, ctx: PlanContext): Promise<unknown> {
  const getter = getterVariants.get(spec.type)?.[ctx.profile] ?? getters.get(spec.type);
  if (!getter) {
    const service = accountServiceOf(spec.type);
    if (service) throw new NeedsAccountError(service, `getter ${spec.type}`);
    throw new Error(getters.unknownMessage(spec.type));
  }
  return getter(spec, ctx);
}

/** Keeps records readable: long strings are cut (the full output stays in the cache folder if a file). */
function forRecord(v: unknown): unknown {
  if (typeof v === 'string' && v.length > 20_000) return v.slice(0, 20_000) + `… (${v.length} characters)`;
  return v;
}

interface Graded {
  outcome: MetricOutcome;
  records: MetricRecord[];
  errors: string[];
  accounts: string[];
}

async function gradePlan(plan: Plan, ctx: PlanContext): Promise<Graded> {
  if (plan.kind === 'combine') {
    const parts = [];
    for (const p of plan.parts) parts.push(await gradePlan(p, ctx));
    const records = parts.flatMap((p) =>
      p.records.map((r) => ({ ...r, metric: `${plan.metric} › ${r.metric}` })),
    );
    const graded = await gradeMetric(
      plan.metric,
      parts.map((p) => p.outcome),
      undefined,
      { operator: plan.operator },
      ctx,
      plan.pointer,
      {},
    );
    return {
      outcome: graded.outcome,
      records: [...records, ...graded.records],
      errors: parts.flatMap((p) => p.errors).concat(graded.errors),
      accounts: parts.flatMap((p) => p.accounts).concat(graded.accounts),
    };
  }
  const base: MetricRecord = {
    metric: plan.metric,
    score: 0,
    getters: { result: plan.result, expected: plan.expected },
    pointer: plan.pointer,
  };
  const stop = (reason: string, error: string, accounts: string[] = []): Graded => ({
    outcome: { score: 0, reason },
    records: [{ ...base, reason, error }],
    errors: [error],
    accounts,
  });
  if (!metrics.has(plan.metric)) {
    const service = accountServiceOf(plan.metric);
    if (service) return stop(`needs account: ${service}`, `needs account: ${service}`, [service]);
    const msg = `${plan.pointer}: ${metrics.unknownMessage(plan.metric)}`;
    return stop(msg, msg);
  }
  let result: unknown;
  let expected: unknown;
  try {
    if (plan.result) result = await runGetter(plan.result, ctx);
    if (plan.expected) expected = await runGetter(plan.expected, ctx);
  } catch (e) {
    if (e instanceof NeedsAccountError) return stop(e.message, e.message, [e.service]);
    const msg = `${plan.pointer}: getter failed: ${(e as Error).message}`;
    return stop(msg, msg);
  }
  if (plan.result && (result === undefined || result === null)) {
    const what = fileGetters.has(plan.result.type)
      ? `result file does not exist (${describe(plan.result)})`
      : `result getter gave nothing (${describe(plan.result)})`;
    return {
      ...stop(what, what),
      records: [{ ...base, reason: what, error: what, expected: forRecord(expected) }],
    };
  }
  if (plan.expected && fileGetters.has(plan.expected.type) && (expected === undefined || expected === null)) {
    const what = `expected file is missing from the task (${describe(plan.expected)})`;
    return {
      ...stop(what, what),
      records: [{ ...base, reason: what, error: what, result: forRecord(result) }],
    };
  }
  return gradeMetric(plan.metric, result, expected, plan.options, ctx, plan.pointer, base);
}

async function gradeMetric(
  name: string,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  ctx: PlanContext,
  pointer: string,
  base: Partial<MetricRecord>,
): Promise<Graded> {
  const record: MetricRecord = {
    ...base,
    metric: name,
    score: 0,
    result: forRecord(result),
    expected: forRecord(expected),
    pointer,
  };
  try {
    return await withSharedReads(() => gradeBoth(name, result, expected, options, ctx, record));
  } catch (e) {
    const accounts = e instanceof NeedsAccountError ? [e.service] : [];
    const msg =
      e instanceof NeedsAccountError
        ? e.message
        : `${pointer}: metric ${name} failed: ${(e as Error).message}`;
    return {
      outcome: { score: 0, reason: msg },
      records: [{ ...record, reason: msg, error: msg }],
      errors: [msg],
      accounts,
    };
  }
}

/** The faithful metric of the profile and, when it has a variant there, the robust one beside it. */
async function gradeBoth(
  name: string,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  ctx: PlanContext,
  record: MetricRecord,
): Promise<Graded> {
  const robust = metrics.require(name);
  const faithful = variantOf(name, ctx.profile);
  // The second opinion starts at once: both only read their inputs, so their file reads overlap.
  const second =
    faithful && ctx.secondOpinion ? secondOpinionOf(robust, result, expected, options, ctx) : undefined;
  const outcome = clamp(await (faithful ?? robust)(result, expected, options, ctx));
  const graded: Graded = {
    outcome,
    records: [{ ...record, score: outcome.score, reason: outcome.reason }],
    errors: [],
    accounts: [],
  };
  if (second) await addSecondOpinion(graded.records[0], await second, name, result, expected, options);
  return graded;
}

function clamp(o: MetricOutcome): MetricOutcome {
  return { score: Number.isFinite(o.score) ? Math.max(0, Math.min(1, o.score)) : 0, reason: o.reason };
}

const shown = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

/** The robust metric's outcome on the same inputs; undefined when it throws (it then gives no opinion). */
async function secondOpinionOf(
  robust: Metric,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  ctx: PlanContext,
): Promise<MetricOutcome | undefined> {
  try {
    return clamp(await robust(result, expected, options, ctx));
  } catch {
    return undefined;
  }
}

/**
 * The second opinion: when the robust metric scores otherwise than the faithful one, the record carries both
 * and a brittle-evaluator flag naming the difference (the variant's `diagnose`).
 */
async function addSecondOpinion(
  record: MetricRecord,
  second: MetricOutcome | undefined,
  name: string,
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<void> {
  if (!second || second.score === record.score) return;
  record.secondOpinion = second;
  let what: string | undefined;
  try {
    what = await variants.get(name)?.diagnose?.(result, expected, options);
  } catch {
    what = undefined;
  }
  record.brittle = `${what ?? name}: faithful ${shown(record.score)}, robust ${shown(second.score)}`;
}

/**
 * Grades a task after its episode. Infeasible tasks score 1 only when the last action is FAIL; FAIL on a
 * feasible task scores 0 without running anything. Otherwise the postconfig runs (through
 * `runPostSetup`; when it fails, PostconfigError is thrown and nothing is graded), every check is graded and the scores combine with the task's `conj`. The verdict
 * records each metric's score, reason, getter outputs (values or host file paths) and getter specs.
 * Metrics run under the task's grading profile (or `options.profile`), recorded in the verdict; where the
 * profile has a faithful variant, the robust metric's second opinion runs beside it and disagreements are
 * listed in `brittle`.
 */
export async function gradeTask(task: Task, options: GradeOptions): Promise<RuleVerdict> {
  const profile = profileOf(task, options.profile);
  const ctx: GradeOptions & PlanContext = {
    ...options,
    profile,
    secondOpinion: options.secondOpinion !== false,
  };
  const verdict = await gradeUnder(task, ctx);
  const brittle = verdict.metrics
    .filter((m) => m.brittle)
    .map((m) => `${m.metric}${m.pointer ? ` (${m.pointer})` : ''}: ${m.brittle}`);
  return { ...verdict, profile, ...(brittle.length ? { brittle } : {}) };
}

async function gradeUnder(task: Task, ctx: GradeOptions & PlanContext): Promise<RuleVerdict> {
  const at = () => new Date().toISOString();
  const last = ctx.lastAction?.toUpperCase();
  if (task.infeasible) {
    const score = last === 'FAIL' ? 1 : 0;
    const reason = score
      ? 'infeasible task and the agent answered FAIL'
      : `infeasible task but the agent's last action was ${last ?? 'none'}, not FAIL`;
    return { kind: 'rule', score, metrics: [{ metric: 'infeasible', score, reason }], reason, at: at() };
  }
  if (last === 'FAIL') {
    const reason = 'the agent answered FAIL on a feasible task';
    return { kind: 'rule', score: 0, metrics: [], reason, at: at() };
  }
  const notes: string[] = [];
  if (task.postSetup.length) {
    if (!ctx.runPostSetup)
      notes.push(`postconfig (${task.postSetup.length} steps) was not run: no runner given`);
    else {
      try {
        const saved = await watchSave(ctx.env, task);
        await ctx.runPostSetup(task.postSetup);
        const unsaved = await saved();
        if (unsaved) notes.push(unsaved);
      } catch (e) {
        if (e instanceof NeedsAccountError) {
          const error = `postconfig: ${e.message}`;
          return {
            kind: 'rule',
            score: 0,
            metrics: [],
            error,
            reason: error,
            needsAccount: [e.service],
            at: at(),
          };
        }
        throw new PostconfigError(`postconfig failed: ${(e as Error).message}`, { cause: e });
      }
    }
  }
  if (task.checks.length === 0) {
    const error = `${task.file}: the task has no evaluator checks`;
    return { kind: 'rule', score: 0, metrics: [], error, reason: error, at: at() };
  }
  const outcomes: MetricOutcome[] = [];
  const records: MetricRecord[] = [];
  const errors: string[] = [];
  const accounts = new Set<string>();
  for (const check of task.checks) {
    ctx.signal?.throwIfAborted();
    const graded = await gradePlan(planOf(withPyFloats(check)), ctx);
    outcomes.push(graded.outcome);
    records.push(...graded.records);
    errors.push(...graded.errors);
    graded.accounts.forEach((a) => accounts.add(a));
  }
  const score = combineScores(
    outcomes.map((o) => o.score),
    task.conj,
  );
  const failing = outcomes.map((o, i) => ({ o, check: task.checks[i] })).filter(({ o }) => o.score < 1);
  const reason = [
    outcomes.length === 1
      ? outcomes[0].reason
      : `${task.conj} of ${outcomes.length} checks = ${score.toFixed(3)}${failing.length ? `; below 1: ${failing.map(({ o, check }) => `${check.metric} (${o.reason})`).join('; ')}` : ''}`,
    ...notes,
  ].join('; ');
  return {
    kind: 'rule',
    score,
    conj: task.checks.length > 1 ? task.conj : undefined,
    metrics: records,
    ...(errors.length ? { error: errors.join('; ') } : {}),
    ...(accounts.size ? { needsAccount: [...accounts] } : {}),
    reason,
    at: at(),
  };
}

/** The runner's grading part under a profile override (`--grading-profile`): pass as `parts` of a run. */
export function gradingUnder(profile: GradingProfile | undefined): {
  grade?: (task: Task, ctx: GradeOptions) => Promise<RuleVerdict>;
} {
  return profile ? { grade: (task, ctx) => gradeTask(task, { ...ctx, profile }) } : {};
}
