// What one line of a UFO `response.log` says, in either of UFO's key styles:
//   legacy (UFO 1.x):  Step, RoundStep, Agent, AgentName, Application, Subtask / "Current Sub-Task", Observation,
//                      Thought, ControlLabel, ControlText, Function, Args, Action (a call string), Status, Results,
//                      CleanScreenshot, time_cost
//   current (UFO²):    session_step (AppAgent lines; HostAgent lines have round_step / agent_step only), round_step,
//                      agent_type, agent_name, application / application_process_name, subtask / current_subtask,
//                      observation, thought, status, results, action: [{function, arguments, target: {kind, name, id,
//                      type, rect}, result: {status, error, result}, action_string}], action_representation,
//                      clean_screenshot_path, execution_times
// Pure functions over parsed JSON lines; the folder reading is ufo-reader.ts.
import type { StepRecord } from '../../shared/run';
import { formatCost } from '../../shared/format';

export type UfoLine = Record<string, unknown>;

const MAX_TEXT = 100_000;

export const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** The first of `keys` that holds a non-empty string. */
function text(line: UfoLine, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const s = str(line[k]);
    if (s) return s;
  }
  return undefined;
}

const isObject = (v: unknown): v is UfoLine => !!v && typeof v === 'object' && !Array.isArray(v);

/** A copy of a log line safe to send to the UI: embedded images and very long strings are cut. */
export function withoutImages(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    if (/^data:image\//.test(value)) return `[image omitted: ${value.length} characters of base64]`;
    return value.length > MAX_TEXT
      ? `${value.slice(0, MAX_TEXT)}[… ${value.length - MAX_TEXT} more characters]`
      : value;
  }
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => withoutImages(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutImages(v, depth + 1)]));
}

export const ufoApplication = (l: UfoLine) =>
  text(l, 'Application', 'application', 'application_process_name');
export const ufoRequest = (l: UfoLine) => text(l, 'Request', 'request');
export const ufoStatus = (l: UfoLine) => text(l, 'Status', 'status');
const ufoSubtask = (l: UfoLine) =>
  text(l, 'Subtask', 'subtask', 'Current Sub-Task', 'CurrentSubtask', 'current_subtask');

/** An error line of UFO's processor (`{step, status: "ERROR", response, error}`). */
export const isUfoError = (l: UfoLine) =>
  str(l.status) === 'ERROR' || (l.error !== undefined && l.error !== null);

/** UFO's own step number of a line (session step), when the line carries one. */
function ownStepNo(l: UfoLine): number | undefined {
  for (const k of ['session_step', 'Step', 'step']) {
    const n = l[k];
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0) return n;
  }
  return undefined;
}

/**
 * UFO's step number per line. Current HostAgent lines carry no session step: theirs is one after the line before
 * (or one before the line after, for leading lines), which is the number of the action_step<N>.png they took.
 */
export function ufoStepNumbers(lines: UfoLine[]): (number | undefined)[] {
  const out = lines.map(ownStepNo);
  for (let i = 0; i < out.length; i++)
    if (out[i] === undefined && i > 0 && out[i - 1] !== undefined) out[i] = out[i - 1]! + 1;
  for (let i = out.length - 1; i >= 0; i--)
    if (out[i] === undefined && i + 1 < out.length && out[i + 1] !== undefined && out[i + 1]! > 0)
      out[i] = out[i + 1]! - 1;
  return out;
}

/** A screenshot file the line names (`CleanScreenshot`, `clean_screenshot_path`, …), as a bare file name. */
export function ufoShotName(l: UfoLine, kind: 'clean' | 'annotated'): string | undefined {
  const keys =
    kind === 'clean'
      ? ['clean_screenshot_path', 'CleanScreenshot', 'screenshot_clean']
      : ['annotated_screenshot_path', 'AnnotatedScreenshot', 'screenshot_annotated'];
  const path = text(l, ...keys);
  const name = path?.split(/[\\/]/).pop();
  return name && /^[\w.-]+\.(png|jpe?g)$/i.test(name) ? name : undefined;
}

function argsText(args: unknown): string {
  if (args === undefined || args === null) return '';
  if (typeof args === 'string') return args;
  if (Array.isArray(args)) return args.map((a) => JSON.stringify(a)).join(', ');
  if (typeof args === 'object')
    return Object.entries(args)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(', ');
  return String(args);
}

/** One action of a step: the call, the control (or window) it acted on, and how it went. */
export interface UfoAction {
  call?: string;
  target?: string;
  targetLabel?: string;
  status?: string;
  error?: string;
}

const actionText = (a: UfoAction): string | undefined => {
  const control = a.target ? `${a.targetLabel ? `[${a.targetLabel}] ` : ''}"${a.target}"` : '';
  // A line naming a control without a call selected it (a legacy HostAgent line selects the application).
  return a.call ? `${a.call}${control ? ` on ${control}` : ''}` : control ? `select ${control}` : undefined;
};

/** A legacy line, or one item of a newer action list ({function, arguments, target, result, action_string}). */
function actionOf(a: UfoLine): UfoAction {
  const fn = text(a, 'Function', 'function');
  const call =
    text(a, 'action_string') ??
    (fn ? `${fn}(${argsText(a.Args ?? a.arguments ?? a.args)})` : text(a, 'Action'));
  const target = isObject(a.target) ? a.target : undefined;
  const label = target?.id ?? a.ControlLabel ?? a.control_label;
  const result = isObject(a.result) ? a.result : undefined;
  return {
    call,
    target: (target && text(target, 'name')) ?? text(a, 'ControlText', 'control_text'),
    targetLabel: label !== undefined && label !== null && label !== '' ? String(label) : undefined,
    status: result ? text(result, 'status') : undefined,
    error: result ? text(result, 'error') : undefined,
  };
}

/** `[Action] click_input(…)` / `[Target] kind=control, name=Save, id=12` lines of an action_representation. */
function fromRepresentation(rep: unknown): UfoAction[] {
  const blocks = Array.isArray(rep)
    ? rep.filter((r): r is string => typeof r === 'string')
    : typeof rep === 'string'
      ? [rep]
      : [];
  return blocks
    .map((b) => {
      const call = /^\[Action\]\s*(.+)$/m.exec(b)?.[1]?.trim();
      const targetLine = /^\[Target\]\s*(.+)$/m.exec(b)?.[1] ?? '';
      return {
        call,
        target: /(?:^|,\s*)name=([^,]+)/.exec(targetLine)?.[1]?.trim(),
        targetLabel: /(?:^|,\s*)id=([^,]+)/.exec(targetLine)?.[1]?.trim(),
        status: /^\[Status\]\s*(.+)$/m.exec(b)?.[1]?.trim(),
        error: /^\[Error\]\s*(.+)$/m.exec(b)?.[1]?.trim(),
      };
    })
    .filter((a) => a.call || a.target);
}

/** The actions a line performed, in either key style. */
export function ufoActions(line: UfoLine): UfoAction[] {
  if (!str(line.Function) && Array.isArray(line.Action ?? line.action)) {
    const list = ((line.Action ?? line.action) as unknown[])
      .filter(isObject)
      .map(actionOf)
      .filter((a) => a.call || a.target);
    if (list.length) return list;
  }
  if (isObject(line.action)) {
    const one = actionOf(line.action);
    if (one.call || one.target) return [one];
  }
  const legacy = actionOf(line);
  if (legacy.call || legacy.target) return [legacy];
  const rep = fromRepresentation(line.action_representation);
  if (rep.length) return rep;
  const fn = text(line, 'function_call');
  if (fn) return [{ call: `${fn}(${argsText(line.arguments)})` }];
  if (str(line.Bash)) return [{ call: `bash: ${str(line.Bash)}` }];
  return [];
}

/** `click_input(button='left') on [12] "Save"`; `; `-joined when the step did several; undefined for none. */
export function ufoActionText(line: UfoLine): string | undefined {
  const all = ufoActions(line).map(actionText).filter(Boolean);
  return all.length ? all.join('; ') : undefined;
}

/** The model cost UFO logged for the step (`Cost`, `cost`, `llm_cost`, in US dollars), formatted. */
function costOf(line: UfoLine): string | undefined {
  const c = [line.Cost, line.cost, line.llm_cost].find(
    (v): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0,
  );
  return c === undefined ? undefined : formatCost(c);
}

/** A readable account of one response line: agent, what it did on which control, status, subtask, thought. */
export function describeUfoStep(line: UfoLine, stepNo?: number): string {
  const step = stepNo ?? ownStepNo(line);
  const agent = text(line, 'Agent', 'agent_type', 'AgentName', 'agent_name') ?? 'UFO';
  const stepText = step === undefined ? '' : ` step ${step}`;
  if (isUfoError(line))
    return `${agent}${stepText}: error\n${String(line.error ?? line.last_error ?? 'no error text')}`;
  const what = ufoActionText(line);
  const app = ufoApplication(line);
  const status = ufoStatus(line);
  const head = `${agent}${stepText}: ${what ?? 'no action'}${app ? ` in ${app}` : ''}${status ? ` — ${status}` : ''}`;
  const more = [
    ['Subtask', ufoSubtask(line)],
    ['Observation', text(line, 'Observation', 'observation')],
    ['Thought', text(line, 'Thought', 'thought')],
    ['Comment', text(line, 'Comment', 'comment')],
    ['Result', resultsText(line)],
    ['Cost', costOf(line)],
  ]
    .filter(([, v]) => v)
    .map(([k, v]) => `${k}: ${v}`);
  return [head, ...more].join('\n');
}

/** What the step's execution returned (UFO's `Results` / `results`), as text; undefined when empty. */
function resultsText(line: UfoLine): string | undefined {
  const r = line.Results ?? line.results;
  if (r === undefined || r === null || r === '') return undefined;
  const out = typeof r === 'string' ? r : JSON.stringify(withoutImages(r));
  if (!out || out === '[]' || out === '{}') return undefined;
  return out.length > 4000 ? `${out.slice(0, 4000)}…` : out;
}

/** The step's error or failed actions, told as feedback (a step that went fine has none). */
export function ufoFeedback(line: UfoLine): string | undefined {
  if (isUfoError(line)) return `error: ${String(line.error ?? 'unknown')}`.slice(0, 4000);
  const failed = ufoActions(line).filter(
    (a) => a.error || (a.status && /^(failure|failed|error)$/i.test(a.status)),
  );
  if (failed.length)
    return failed
      .map((a) => `${a.call ?? 'action'} failed: ${a.error ?? a.status}`)
      .join('\n')
      .slice(0, 4000);
  return undefined;
}

/** Milliseconds per phase from UFO's `time_cost` / `TimeCost` / `execution_times` (seconds per phase). */
export function ufoTiming(line: UfoLine): StepRecord['timing'] | undefined {
  const tc = line.time_cost ?? line.TimeCost ?? line.execution_times;
  if (!isObject(tc)) return undefined;
  const t: NonNullable<StepRecord['timing']> = {};
  const add = (k: keyof typeof t, s: number) => (t[k] = Math.round((t[k] ?? 0) + s * 1000));
  for (const [k, v] of Object.entries(tc)) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) continue;
    if (/screenshot|control_info|data_collection|observ/i.test(k)) add('observeMs', v);
    else if (/prompt|response|llm|parse/i.test(k)) add('agentMs', v);
    else if (/execut|action/i.test(k)) add('actMs', v);
    else add('storeMs', v);
  }
  return Object.keys(t).length ? t : undefined;
}

export const timingTotal = (t: StepRecord['timing'] | undefined) =>
  t ? (t.observeMs ?? 0) + (t.agentMs ?? 0) + (t.actMs ?? 0) + (t.storeMs ?? 0) : 0;

/** The raw action of a line as the replay's "raw action" (images cut). */
export function ufoRawAction(line: UfoLine): unknown {
  const raw =
    line.Action ??
    line.action ??
    (line.Function !== undefined ? { Function: line.Function, Args: line.Args } : undefined);
  return withoutImages(raw ?? line.action_representation);
}
