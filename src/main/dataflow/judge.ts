// The judge on UFO dataflow records (UFO's ExecuteEvalAgent step): an executed record — the request, the
// instantiated plan with each step's Subtask / ControlText / Function / Args / Success — and the screenshots of
// its execution log when they can be found, shown to the judge (the shared core of judge.ts: prompt, reply
// repair, re-asking, schema validation); the verdict is written into the record as
// `execution_result: {result: {reason, sub_scores, complete}, error}` in the execution schema's form, with
// `time_cost.execute_eval`. A model error or unreadable replies become `error` with complete = unsure.
//
// Where the screenshots are looked for (the first folder that exists; <name> = the record's file name without
// .json, <id> = its unique_id):
//   with `logs`: <logs>/<name>/, <logs>/<id>/, or <logs> itself when it holds action_step*.png
//   else:        <record dir>/<name>/, <record dir>/logs/<name>/, <record dir>/logs/<id>/
// In that folder UFO's clean screenshots count: action_step<N>.png (N = 0 is the initial screen; UFO captures
// action_step<N> at step N before its action) and action_step_final.png (the end state); the _annotated,
// _concat and _selected_controls variants are ignored. The final screenshot (action_step_final.png, else the
// highest N) is always sent; no folder or no screenshot = the judge sees the plan only, and is told so.
import fs from 'node:fs';
import path from 'node:path';
import type { ChatCompletionContentPart } from 'openai/resources/chat/completions';
import type { Problem } from '../../shared/task';
import { ChatModel, type ChatMessage } from '../agents/chat';
import { describeEndpoint } from '../agents/endpoint';
import { toPromptImage } from '../agents/image';
import {
  ask,
  baseVerdict,
  judgeSampling,
  readScreenshot,
  thinEvenly,
  type JudgeOptions,
  type StoredJudgeVerdict,
} from '../judge/judge';
import { TargetExistsError, writeJsonAtomic } from './atomic';
import { toSchemaForm, type RecordType } from './record';
import { routeValue, type RouteOutcome } from './route';
import { readJsonFile } from '../tasks/files';
import { schemaProblems } from '../schemas';
import { judgeSystemPrompt } from '../judge/prompt';
import { executionResultOf, type UfoExecutionResult } from '../judge/ufo';

export type DataflowJudgeOptions = Pick<
  JudgeOptions,
  | 'endpoint'
  | 'prices'
  | 'sampling'
  | 'retry'
  | 'screenshots'
  | 'maxImages'
  | 'imageMaxWidth'
  | 'reasks'
  | 'signal'
  | 'log'
> & {
  /** A root of execution log folders (UFO's EXECUTE_LOG_PATH without the task): see the header for the search. */
  logs?: string;
};

export interface PlanStep {
  Step?: number;
  Subtask?: string;
  ControlLabel?: string | null;
  ControlText?: string;
  Function?: string;
  Args?: Record<string, unknown>;
  Success?: boolean | null;
  MatchedControlText?: string | null;
}

export interface RecordShot {
  file: string;
  /** N of action_step<N>.png; undefined for action_step_final.png. */
  step?: number;
}

export interface DataflowJudgement {
  /** The record with execution_result and time_cost.execute_eval written (other fields as they were). */
  record: Record<string, unknown>;
  verdict: StoredJudgeVerdict;
  executionResult: UfoExecutionResult;
  /** The screenshot folder used, if one was found. */
  screenshotFolder?: string;
  /** Images sent to the judge. */
  images: number;
  /** Seconds spent judging (written as time_cost.execute_eval). */
  seconds: number;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** UFO's apps on Windows (Microsoft Office) and Proctor's port on Linux (LibreOffice), as the judge is told them. */
const DATAFLOW_APPS: Record<string, string> = {
  word: 'Microsoft Word on Windows',
  excel: 'Microsoft Excel on Windows',
  powerpoint: 'Microsoft PowerPoint on Windows',
  writer: 'LibreOffice Writer on Linux',
  calc: 'LibreOffice Calc on Linux',
  impress: 'LibreOffice Impress on Linux',
};

/** Where a record's plan ran: the real application and platform (`LibreOffice Calc on Linux`), or the app as named. */
export function dataflowAppPlace(app: string): string {
  const known = DATAFLOW_APPS[app.trim().toLowerCase()];
  return known ? `${known} (app "${app}")` : `the application "${app || 'unnamed'}"`;
}

/** The setting and the action functions of a dataflow execution, for the shared judge prompt. */
export function dataflowPromptParts(app: string): { setting: string; functions: string } {
  return {
    setting: `An agent was given a request by a user and carried out a plan of steps in ${dataflowAppPlace(app)}, acting on its UI controls, to fulfil it.`,
    functions: `Each step of the plan names what it was meant to do (Subtask: an intention, not evidence), the UI control it acted on (ControlText; the control actually matched is shown when recorded) and the function called with its arguments, e.g.:
- click_input(button, double) — click the control; set_edit_text(text) — replace the text of an edit control
- keyboard_input(keys, control_focus) — type keys; wheel_mouse_input(wheel_dist) — scroll; select_text(text) — select text
- texts(), summary(text), or an application API function (e.g. of Word, Excel, PowerPoint) named as called.
Each step's outcome is recorded: ran (the action was performed without an error — this does NOT mean it had the intended effect), FAILED (e.g. the control was not found; execution stopped there), or not reached.`,
  };
}

/** The request a record was executed for: the instantiated request, else the original task. */
export function recordRequest(record: Json): { request?: string; original?: string } {
  const original =
    isObject(record.original) && typeof record.original.original_task === 'string'
      ? record.original.original_task
      : undefined;
  const prefill =
    isObject(record.instantiation_result) && isObject(record.instantiation_result.prefill)
      ? record.instantiation_result.prefill
      : undefined;
  const instantiated =
    isObject(prefill?.result) && typeof prefill.result.instantiated_request === 'string'
      ? prefill.result.instantiated_request
      : undefined;
  return { request: instantiated?.trim() ? instantiated : original, original };
}

/** The executed plan of a record (instantiation_result.prefill.result.instantiated_plan), or undefined. */
export function recordPlan(record: Json): PlanStep[] | undefined {
  const prefill =
    isObject(record.instantiation_result) && isObject(record.instantiation_result.prefill)
      ? record.instantiation_result.prefill
      : undefined;
  const plan = isObject(prefill?.result) ? prefill.result.instantiated_plan : undefined;
  return Array.isArray(plan) ? plan.filter(isObject).map((s) => s as PlanStep) : undefined;
}

function stepLine(s: PlanStep, index: number): string {
  const args = isObject(s.Args)
    ? Object.entries(s.Args)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(', ')
    : '';
  const control = s.ControlText
    ? `on control ${JSON.stringify(s.ControlText)}`
    : 'on the application (no control)';
  const matched =
    s.MatchedControlText && s.MatchedControlText !== s.ControlText
      ? ` (matched ${JSON.stringify(s.MatchedControlText)})`
      : '';
  const outcome = s.Success === true ? 'ran' : s.Success === false ? 'FAILED' : 'not reached';
  return [
    `Step ${s.Step ?? index + 1}: ${s.Subtask ?? '(no subtask)'}`,
    `  performed: ${s.Function ?? '(no function)'}(${args}) ${control}${matched}`,
    `  outcome: ${outcome}`,
  ].join('\n');
}

const shotName = /^action_step(\d+|_final)\.(png|jpe?g)$/i;

/** The clean screenshots of a folder, in step order, action_step_final last. */
export function folderShots(folder: string): RecordShot[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  const shots: RecordShot[] = [];
  for (const n of names) {
    const m = shotName.exec(n);
    if (m) shots.push({ file: path.join(folder, n), step: m[1] === '_final' ? undefined : Number(m[1]) });
  }
  return shots.sort((a, b) => (a.step ?? Infinity) - (b.step ?? Infinity));
}

/** The screenshot folder of a record file (see the header), or undefined. */
export function screenshotFolderOf(file: string, record: Json, logs?: string): string | undefined {
  const name = path.basename(file).replace(/\.json$/i, '');
  const id =
    typeof record.unique_id === 'string' || typeof record.unique_id === 'number'
      ? String(record.unique_id)
      : undefined;
  const safeId = id !== undefined && /^[\w.-]{1,200}$/.test(id) ? id : undefined;
  const dir = path.dirname(file);
  const candidates = logs
    ? [path.join(logs, name), ...(safeId ? [path.join(logs, safeId)] : []), logs]
    : [
        path.join(dir, name),
        path.join(dir, 'logs', name),
        ...(safeId ? [path.join(dir, 'logs', safeId)] : []),
      ];
  return candidates.find((c) => folderShots(c).length > 0);
}

function errorText(e: unknown): string | undefined {
  if (e === null || e === undefined) return undefined;
  if (typeof e === 'string') return e;
  if (isObject(e)) return `${String(e.type ?? 'Error')}: ${String(e.message ?? e.error_message ?? '')}`;
  return JSON.stringify(e);
}

/**
 * Judges one record (already read from `file`, which places its screenshots and names it in messages). Returns
 * problems instead when the record is not an executed record (not an object, no request, no plan, no step run).
 * Never throws for a model error or an unreadable reply: those become the verdict's error.
 */
export async function judgeDataflowRecord(
  file: string,
  value: unknown,
  options: DataflowJudgeOptions,
): Promise<{ ok: true; judgement: DataflowJudgement } | { ok: false; problems: Problem[] }> {
  const problem = (pointer: string, message: string): { ok: false; problems: Problem[] } => ({
    ok: false,
    problems: [{ file, pointer, severity: 'error', message }],
  });
  if (!isObject(value)) return problem('', 'a UFO record must be a JSON object');
  const record = value;
  const { request, original } = recordRequest(record);
  if (!request?.trim())
    return problem(
      '/original/original_task',
      'no request: neither original.original_task nor instantiation_result.prefill.result.instantiated_request is a non-empty string',
    );
  const plan = recordPlan(record);
  if (!plan || plan.length === 0)
    return problem(
      '/instantiation_result/prefill/result/instantiated_plan',
      'no executed plan: the record has no instantiated_plan steps to judge',
    );
  if (!plan.some((s) => 'Success' in s)) {
    return problem(
      '/instantiation_result/prefill/result/instantiated_plan/0/Success',
      'not executed: no plan step records Success (run the execution first; this looks like an instantiation record)',
    );
  }

  const started = performance.now();
  const log = options.log ?? (() => {});
  const model = options.endpoint.endpoint.model;
  const settings = {
    screenshots: options.screenshots ?? 'all',
    maxImages: options.maxImages ?? 40,
    imageMaxWidth: options.imageMaxWidth ?? 1280,
    baseUrl: describeEndpoint(options.endpoint).baseUrl,
  };
  const app = typeof record.app === 'string' ? record.app : '';
  const er = isObject(record.execution_result) ? record.execution_result : {};
  // an earlier judge error is not evidence; an execution error is
  const executionError =
    isObject(er.error) && er.error.type === 'JudgeError' ? undefined : errorText(er.error);

  const folder = screenshotFolderOf(file, record, options.logs);
  const shots = folder ? folderShots(folder) : [];
  const final = shots.at(-1);
  const earlier = thinEvenly(
    settings.screenshots === 'first_last'
      ? shots.slice(0, Math.min(1, shots.length - 1))
      : shots.slice(0, -1),
    Math.max(0, settings.maxImages - 1),
  );
  const label = (s: RecordShot, isFinal: boolean) =>
    s.step === undefined
      ? `FINAL SCREEN (${path.basename(s.file)}: the end state)`
      : isFinal
        ? `LAST SCREEN RECORDED (${path.basename(s.file)}, captured at step ${s.step} before its action; the screen after the last action was not recorded)`
        : s.step === 0
          ? `The screen before step 1 (${path.basename(s.file)}, the initial state)`
          : `The screen at step ${s.step}, before its action (${path.basename(s.file)})`;

  let verdict: StoredJudgeVerdict;
  let images = 0;
  const content: ChatCompletionContentPart[] = [
    {
      type: 'text',
      text:
        `THE REQUEST\n${request}` +
        (original && original !== request ? `\n(instantiated from the original task: ${original})` : '') +
        `\n\nTHE APPLICATION\n${app || '(not named)'}\n\nTHE EXECUTED PLAN (${plan.length} steps)\n${plan.map(stepLine).join('\n')}` +
        (executionError ? `\n\nTHE EXECUTION STOPPED WITH AN ERROR\n${executionError}` : ''),
    },
  ];
  let unreadableFinal: string | undefined;
  if (!final) {
    content.push({
      type: 'text',
      text: '(No screenshots were recorded for this execution: judge from the plan and its outcomes; where they do not show a sub-goal, it is "unsure".)',
    });
  } else {
    content.push({ type: 'text', text: `THE SCREENSHOTS (${earlier.length + 1})` });
    for (const [s, isFinal] of [...earlier.map((e) => [e, false] as const), [final, true] as const]) {
      const image = await readScreenshot(s.file)
        .then((shot) => toPromptImage(shot, { maxWidth: settings.imageMaxWidth, format: 'jpeg' }))
        .catch(() => undefined);
      if (!image) {
        if (isFinal) unreadableFinal = s.file;
        continue;
      }
      content.push(
        { type: 'text', text: label(s, isFinal) },
        { type: 'image_url', image_url: { url: image.dataUrl, detail: 'high' } },
      );
      images++;
    }
  }
  content.push({ type: 'text', text: 'Judge the request now, as one JSON object.' });
  const verdictOptions = { ...settings, images, dataflow: true, screenshotFolder: folder };
  if (unreadableFinal) {
    verdict = {
      ...baseVerdict(model, verdictOptions),
      error: `final screenshot unreadable: ${unreadableFinal}`,
    };
  } else {
    const messages: ChatMessage[] = [
      { role: 'system', content: judgeSystemPrompt({ narrative: true, ...dataflowPromptParts(app) }) },
      { role: 'user', content },
    ];
    const chat = new ChatModel(options.endpoint.endpoint, {
      sampling: { ...judgeSampling, ...options.sampling },
      retry: options.retry,
      prices: options.prices,
      log,
      label: 'judge',
    });
    verdict = await ask(chat, messages, verdictOptions, path.basename(file), options, log);
  }
  const seconds = Math.round(performance.now() - started) / 1000;

  const executionResult = executionResultOf(verdict);
  if (verdict.error) {
    // not judged: complete = unsure (filed for people to review), the reason says why
    executionResult.result = { reason: `Not judged: ${verdict.error}`, sub_scores: {}, complete: 'unsure' };
  } else if (executionError) {
    // the judge spoke; the execution's own error stays on record
    executionResult.error = isObject(er.error)
      ? {
          type: String(er.error.type ?? 'Error'),
          message: String(er.error.message ?? er.error.error_message ?? ''),
          traceback: String(er.error.traceback ?? ''),
        }
      : { type: 'ExecutionError', message: executionError, traceback: '' };
  }
  return {
    ok: true,
    judgement: {
      record: withExecutionResult(record, executionResult, seconds),
      verdict,
      executionResult,
      screenshotFolder: folder,
      images,
      seconds,
    },
  };
}

/**
 * A copy of `record` with `execution_result` set and `time_cost.execute_eval` = `seconds`; time_cost fields the
 * schema requires and the record lacks are written as null; a numeric `total` is moved by the change of execute_eval.
 */
export function withExecutionResult(
  record: Json,
  executionResult: UfoExecutionResult,
  seconds: number,
): Json {
  const out = structuredClone(record);
  out.execution_result = executionResult;
  const time = isObject(out.time_cost) ? out.time_cost : {};
  const previousEval = typeof time.execute_eval === 'number' ? time.execute_eval : 0;
  for (const k of ['choose_template', 'prefill', 'instantiation_evaluation', 'execute', 'total'])
    if (!(k in time)) time[k] = null;
  time.execute_eval = seconds;
  if (typeof time.total === 'number')
    time.total = Math.round((time.total - previousEval + seconds) * 1000) / 1000;
  out.time_cost = time;
  return out;
}

export interface DataflowJudgeFileOptions extends DataflowJudgeOptions {
  /** Replace the input file with the judged record. */
  inPlace?: boolean;
  /** Without `route`: the folder the judged record is written to as <out>/<file name>. With `route`: the results folder. */
  out?: string;
  /** File the judged record with the dataflow router: <out>/<type>/<bucket>/<unique_id>.json. */
  route?: boolean;
  /** The record type for routing (default: execution; dataflow must be asked for). */
  type?: RecordType;
  /** Replace an existing output file or a record already filed. */
  overwrite?: boolean;
}

export interface DataflowJudgeOutcome {
  file: string;
  /** written: the judged record was written (and filed, with route); invalid: not judged; exists: judged but not written. */
  status: 'written' | 'invalid' | 'exists';
  judgement?: DataflowJudgement;
  /** Where the judged record was written (the input with inPlace, the filed copy with route). */
  written: string[];
  route?: RouteOutcome;
  problems: Problem[];
}

/** The file a judged record is written to without routing: <out>/<name>, else <name>.judged.json beside the input. */
export function judgedFileOf(file: string, out?: string): string {
  return out ? path.join(out, path.basename(file)) : file.replace(/(\.json)?$/i, '.judged.json');
}

/** Reads one record file, judges it, and writes (and with `route` files) the judged record. Never throws for a model failure. */
export async function judgeDataflowFile(
  file: string,
  options: DataflowJudgeFileOptions,
): Promise<DataflowJudgeOutcome> {
  const outcome = (
    status: DataflowJudgeOutcome['status'],
    problems: Problem[],
    extra: Partial<DataflowJudgeOutcome> = {},
  ): DataflowJudgeOutcome => ({ file, status, written: [], problems, ...extra });
  if (options.route && !options.out)
    return outcome('invalid', [
      { file, severity: 'error', message: 'routing needs a results folder (--out)' },
    ]);
  const target = options.route ? undefined : options.inPlace ? file : judgedFileOf(file, options.out);
  if (target && !options.inPlace && path.resolve(target) === path.resolve(file)) {
    return outcome('invalid', [
      {
        file,
        severity: 'error',
        message: `the judged record would replace the input (${target}): give another --out folder, or --in-place to replace it`,
      },
    ]);
  }
  const read = await readJsonFile(file);
  if (!read.ok) return outcome('invalid', [read.problem]);
  // the record must be a valid execution record once judged: checked before the model is asked
  if (isObject(read.value)) {
    const problems = schemaProblems(
      'ufo-execution',
      toSchemaForm(withExecutionResult(read.value, { result: null, error: null }, 0)),
      file,
    );
    if (problems.length) return outcome('invalid', problems);
  }
  const judged = await judgeDataflowRecord(file, read.value, options);
  if (!judged.ok) return outcome('invalid', judged.problems);
  const { judgement } = judged;
  const record = toSchemaForm(judgement.record);
  const written: string[] = [];
  const problems: Problem[] = [];
  if (target) {
    try {
      await writeJsonAtomic(target, record, { replace: !!options.inPlace || !!options.overwrite });
      written.push(target);
    } catch (e) {
      if (!(e instanceof TargetExistsError)) throw e;
      problems.push({
        file,
        severity: 'error',
        message: `${target} already exists: not replaced (pass --overwrite to replace it)`,
      });
      return outcome('exists', problems, { judgement });
    }
  }
  if (options.inPlace && options.route) {
    await writeJsonAtomic(file, record, { replace: true });
    written.push(file);
  }
  if (options.route) {
    const route = await routeValue(record, file, {
      out: options.out!,
      type: options.type ?? 'execution',
      overwrite: options.overwrite,
    });
    if (route.target && route.status === 'filed') written.push(route.target);
    return outcome(route.status === 'filed' ? 'written' : route.status, route.problems, {
      judgement,
      written,
      route,
    });
  }
  return outcome('written', problems, { judgement, written });
}
