// UFO's execution on GUI LibreOffice: open a copy of the instantiated document in the sandbox, and for each plan
// step match its ControlText on the controls AT-SPI reads now, run its Function through Proctor's actions, and
// record Success, MatchedControlText and the matched ControlLabel (null for a window-level step: upstream defect
// 8). The first failure stops the run (later steps Success null); an action error, an unknown control or function
// is that step's error, never a crash and never a success (defect 7). Screenshots: action_step0 (the initial
// screen), action_step<k> before step k, action_step_final after the last (defect 9). The executed document is
// saved to saved_document/executed/, never over the instantiated copy (defect 13).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { matchControl, type Control } from './controls';
import { runFunction, StepError } from './functions';
import { OfficeDocument } from './office';
import {
  executedPath,
  isObject,
  secondsSince,
  setTime,
  stageLogDir,
  timeOf,
  writeLog,
  type Json,
} from './records';
import { checkPlan, ReplyError, type PlanStep } from './replies';
import type { StageContext } from './instantiate';

export interface ExecuteOptions {
  /** Exact control text only. */
  strict?: boolean;
  /** Lowest partial ratio accepted (default 70). */
  threshold?: number;
}

export interface ExecuteOutcome {
  record: Json;
  /** The executed document (results/saved_document/executed/<id>.<ext>), when it was saved. */
  executed?: string;
  /** The folder with execute_log.json and the screenshots. */
  logDir: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function planOf(record: Json): unknown {
  const ir = isObject(record.instantiation_result) ? record.instantiation_result : {};
  const prefill = isObject(ir.prefill) ? ir.prefill : {};
  return isObject(prefill.result) ? prefill.result.instantiated_plan : undefined;
}

function setPlan(record: Json, plan: PlanStep[]): void {
  ((record.instantiation_result as Json).prefill as { result: Json }).result.instantiated_plan = plan;
}

function executionError(record: Json, type: string, message: string, traceback = ''): void {
  (record.execution_result as Json).error = { type, message, traceback };
}

/**
 * Executes the instantiated plan of `record` on a copy of `document`; the record comes back with the executed
 * plan, execution_result.error when a step failed, and time_cost.execute (total grows by it).
 */
export async function execute(
  record0: Json,
  document: string,
  ctx: StageContext,
  o: ExecuteOptions = {},
): Promise<ExecuteOutcome> {
  const started = performance.now();
  const record = structuredClone(record0);
  if (!isObject(record.execution_result)) record.execution_result = { result: null, error: null };
  const id = String(record.unique_id);
  const logDir = stageLogDir(ctx.layout, id, 'execute');
  await mkdir(logDir, { recursive: true });
  const lines: string[] = [];
  const done = (executed?: string): ExecuteOutcome => {
    const seconds = secondsSince(started);
    setTime(record, 'execute', seconds);
    setTime(record, 'total', Math.round(((timeOf(record, 'total') ?? 0) + seconds) * 1000) / 1000);
    return { record, executed, logDir };
  };

  let plan: PlanStep[];
  try {
    plan = checkPlan(planOf(record), 'instantiation_result.prefill.result.instantiated_plan');
  } catch (e) {
    executionError(record, 'PlanError', e instanceof ReplyError ? e.message : String(e));
    return done();
  }
  for (const s of plan) Object.assign(s, { Success: null, MatchedControlText: null });
  setPlan(record, plan);
  if (!plan.length) {
    executionError(record, 'PlanError', 'the instantiated plan has no steps');
    return done();
  }

  const env = await ctx.env();
  const ext = extname(document).toLowerCase();
  const doc = await OfficeDocument.open(env, `/home/user/execute/${id}${ext}`, await readFile(document));
  let executed: string | undefined;
  try {
    const shot = async (name: string) =>
      writeLog(logDir, name, (await env.screenshot({ format: 'png' })).data);
    await shot('action_step0.png');
    for (const step of plan) {
      const stepStarted = performance.now();
      await doc.settle();
      const tree = await doc.tree();
      const controls = await doc.controls(tree);
      let control: Control | undefined;
      let score: number | undefined;
      let error: StepError | undefined;
      let returned: string | undefined;
      if (step.ControlText.trim()) {
        const m = matchControl(controls, step.ControlText, { strict: o.strict, threshold: o.threshold });
        score = m.score;
        if (m.ok) control = m.control;
        else error = new StepError(m.error, 'ControlNotFound');
      }
      await shot(`action_step${step.Step}.png`);
      if (!error) {
        try {
          returned = await runFunction(step.Function, step.Args, { env, control, tree, window: doc.window });
        } catch (e) {
          error = e instanceof StepError ? e : new StepError(e instanceof Error ? e.message : String(e));
        }
      }
      step.Success = !error;
      step.MatchedControlText = control?.text ?? null;
      step.ControlLabel = control?.label ?? null;
      lines.push(
        JSON.stringify({
          Step: step.Step,
          Subtask: step.Subtask,
          Function: step.Function,
          Args: step.Args,
          ControlText: step.ControlText,
          MatchedControlText: step.MatchedControlText,
          ControlLabel: step.ControlLabel,
          MatchedRole: control?.role ?? null,
          MatchScore: score ?? null,
          Success: step.Success,
          Error: error ? `${error.kind}: ${error.message}` : null,
          Return: returned ?? null,
          Screenshot: `action_step${step.Step}.png`,
          Seconds: secondsSince(stepStarted),
        }),
      );
      ctx.log(
        `  step ${step.Step} ${step.Function}${control ? ` on [${control.label}] ${JSON.stringify(control.text.slice(0, 40))}` : ''}: ${error ? `FAILED — ${error.message}` : 'ok'}`,
      );
      if (error) {
        executionError(
          record,
          error.kind,
          `step ${step.Step} (${step.Subtask || step.Function}): ${error.message}`,
        );
        break;
      }
      await sleep(300); // let LibreOffice redraw before the next step reads its controls
    }
    await sleep(500);
    await shot('action_step_final.png');
    const saved = await doc.save();
    executed = executedPath(ctx.layout, id, ext);
    await mkdir(dirname(executed), { recursive: true });
    await writeFile(executed, saved);
  } catch (e) {
    executionError(
      record,
      'ExecutionError',
      e instanceof Error ? e.message : String(e),
      e instanceof Error ? (e.stack ?? '') : '',
    );
    ctx.log(`  execution failed: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await doc.close().catch(() => undefined);
    await writeFile(`${logDir}/execute_log.json`, lines.join('\n') + (lines.length ? '\n' : ''));
  }
  return done(executed);
}

/** The instantiated document of a record: choose_template.result, else saved_document/<id>.* beside its results. */
export async function documentOf(record: Json, candidates: string[]): Promise<string | undefined> {
  const ir = isObject(record.instantiation_result) ? record.instantiation_result : {};
  const chosen =
    isObject(ir.choose_template) && typeof ir.choose_template.result === 'string'
      ? ir.choose_template.result
      : undefined;
  for (const f of [chosen, ...candidates]) {
    if (!f) continue;
    try {
      await readFile(f);
      return f;
    } catch {
      // try the next
    }
  }
  return undefined;
}
