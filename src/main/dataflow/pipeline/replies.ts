// Model replies of the instantiation stages, validated (never eval'd): the JSON object is taken from the text
// (code fences, prose around it, trailing commas repaired), then checked field by field. A plan must be an array
// of steps with known functions (an Actions_plan given as a string is parsed once, as UFO's prompt asked for one:
// upstream defect 5); steps are renumbered 1..n.
import { isKnownFunction, functionNeedsControl } from './functions';

export class ReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyError';
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first JSON object in a reply. */
export function jsonObjectOf(text: string): Json {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  const body = fenced ? fenced[1] : text;
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end <= start) throw new ReplyError('the reply holds no JSON object');
  const raw = body.slice(start, end + 1);
  for (const candidate of [raw, raw.replace(/,\s*([}\]])/g, '$1')]) {
    try {
      const v = JSON.parse(candidate) as unknown;
      if (isObject(v)) return v;
    } catch {
      // try the repaired form
    }
  }
  throw new ReplyError(`the reply's JSON object does not parse: ${raw.slice(0, 200)}`);
}

/** The chooser's answer: one of `files` (a key of the reply object). */
export function parseChoice(text: string, files: string[]): { file: string; why: string } {
  const obj = jsonObjectOf(text);
  const keys = Object.keys(obj);
  const known = keys.filter((k) => files.includes(k));
  if (!known.length)
    throw new ReplyError(
      `the chooser answered ${JSON.stringify(keys)}, none of the templates ${JSON.stringify(files)}`,
    );
  return { file: known[0], why: String(obj[known[0]] ?? '') };
}

export interface PlanStep {
  Step: number;
  Subtask: string;
  ControlLabel: string | null;
  ControlText: string;
  Function: string;
  Args: Record<string, unknown>;
  Success?: boolean | null;
  MatchedControlText?: string | null;
}

/** The most steps a plan may have (UFO's executor's cap). */
export const MAX_PLAN_STEPS = 30;

/** Checks a plan (from a reply or a record); `where` names it in errors. */
export function checkPlan(plan: unknown, where = 'Actions_plan'): PlanStep[] {
  let steps = plan;
  if (typeof steps === 'string') {
    try {
      steps = JSON.parse(steps);
    } catch {
      throw new ReplyError(`${where} is a string that is not a JSON array of steps`);
    }
  }
  if (!Array.isArray(steps)) throw new ReplyError(`${where} must be an array of steps`);
  if (steps.length > MAX_PLAN_STEPS)
    throw new ReplyError(`${where} has ${steps.length} steps; at most ${MAX_PLAN_STEPS}`);
  return steps.map((s, i): PlanStep => {
    const at = `${where}[${i}]`;
    if (!isObject(s)) throw new ReplyError(`${at} must be an object`);
    const fn = s.Function ?? '';
    if (typeof fn !== 'string') throw new ReplyError(`${at}.Function must be a string`);
    if (!isKnownFunction(fn))
      throw new ReplyError(`${at}.Function ${JSON.stringify(fn)} is not a function the executor runs`);
    const args = s.Args ?? {};
    if (!isObject(args)) throw new ReplyError(`${at}.Args must be an object`);
    const text = s.ControlText ?? '';
    if (typeof text !== 'string') throw new ReplyError(`${at}.ControlText must be a string`);
    if (functionNeedsControl(fn) && !text.trim())
      throw new ReplyError(`${at}: ${fn} acts on a control, but ControlText is empty`);
    const label = s.ControlLabel;
    return {
      Step: i + 1,
      Subtask: typeof s.Subtask === 'string' ? s.Subtask : '',
      ControlLabel:
        text.trim() && (typeof label === 'string' || typeof label === 'number') ? String(label) : null,
      ControlText: text,
      Function: fn,
      Args: args,
    };
  });
}

export interface Prefill {
  observation: string;
  thought: string;
  newTask: string;
  plan: PlanStep[];
}

export function parsePrefill(text: string): Prefill {
  const obj = jsonObjectOf(text);
  const newTask = obj.New_task;
  if (typeof newTask !== 'string' || !newTask.trim())
    throw new ReplyError('New_task must be a non-empty string');
  return {
    observation: typeof obj.Observation === 'string' ? obj.Observation : '',
    thought: typeof obj.Thought === 'string' ? obj.Thought : '',
    newTask: newTask.trim(),
    plan: checkPlan(obj.Actions_plan ?? []),
  };
}

export interface FilterVerdict {
  judge: boolean;
  thought: string;
  request_type: string;
}

const FILTER_TYPES = ['None', 'Non_task', 'App_involve', 'Env', 'Others'];

export function parseFilter(text: string): FilterVerdict {
  const obj = jsonObjectOf(text);
  let judge = obj.judge;
  if (typeof judge === 'string' && /^(true|false)$/i.test(judge)) judge = judge.toLowerCase() === 'true';
  if (typeof judge !== 'boolean') throw new ReplyError('judge must be true or false');
  const type = obj.type === null || obj.type === undefined ? 'None' : String(obj.type);
  if (!FILTER_TYPES.includes(type))
    throw new ReplyError(`type ${JSON.stringify(obj.type)} is not one of ${FILTER_TYPES.join(', ')}`);
  return { judge, thought: typeof obj.thought === 'string' ? obj.thought : '', request_type: type };
}
