// UFO's EvaluationAgent on an executed record: a served model is Proctor's dataflow judge
// (dataflow/judge.ts), given the instantiated request (not the abstract task: upstream defect 10), the
// executed plan with each step's outcome and the screenshots, action_step_final.png always (defect 9). The
// stand-in judges from the trajectory and the end state it can check without vision: every step ran, and the
// final screen differs from the first. Writes execution_result {result: {reason, sub_scores, complete}, error}
// and time_cost.execute_eval (total grows by it).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { judgeDataflowRecord } from '../judge';
import { STANDIN_MODEL, type StageModel } from './models';
import { isObject, secondsSince, setTime, timeOf, type Json } from './records';
import type { PlanStep } from './replies';

function stepsOf(record: Json): PlanStep[] {
  const ir = isObject(record.instantiation_result) ? record.instantiation_result : {};
  const prefill = isObject(ir.prefill) ? ir.prefill : {};
  const plan = isObject(prefill.result) ? prefill.result.instantiated_plan : undefined;
  return Array.isArray(plan) ? (plan as PlanStep[]) : [];
}

/** The stand-in's verdict: yes when every step ran and the screen changed, no when a step failed. */
export function standinVerdict(
  record: Json,
  logDir: string,
): { reason: string; sub_scores: Record<string, string>; complete: string } {
  const steps = stepsOf(record);
  const sub: Record<string, string> = {};
  for (const s of steps) {
    let name = `step ${s.Step}: ${s.Subtask || s.Function}`;
    for (let n = 2; name in sub; n++) name = `step ${s.Step}: ${s.Subtask || s.Function} (${n})`;
    sub[name] = s.Success === true ? 'yes' : s.Success === false ? 'no' : 'unsure';
  }
  const first = join(logDir, 'action_step0.png');
  const final = join(logDir, 'action_step_final.png');
  const changed = existsSync(first) && existsSync(final) && !readFileSync(first).equals(readFileSync(final));
  sub['the final screen differs from the first'] = existsSync(final) ? (changed ? 'yes' : 'no') : 'unsure';
  const failed = steps.find((s) => s.Success === false);
  const all = steps.length > 0 && steps.every((s) => s.Success === true);
  const complete = failed ? 'no' : all && changed ? 'yes' : 'unsure';
  const reason = failed
    ? `${STANDIN_MODEL} (no vision): step ${failed.Step} failed, so the request was not carried out.`
    : all && changed
      ? `${STANDIN_MODEL} (no vision): all ${steps.length} steps ran and the final screen (action_step_final.png) differs from the initial one.`
      : `${STANDIN_MODEL} (no vision): cannot tell from the trajectory whether the request was carried out.`;
  return { reason, sub_scores: sub, complete };
}

/** Judges an executed record (a copy comes back); `logDir` holds its screenshots. Never throws for a model error. */
export async function evaluate(
  record: Json,
  logDir: string,
  model: StageModel,
  log: (line: string) => void,
): Promise<Json> {
  const started = performance.now();
  let out: Json;
  if (!model.endpoint) {
    out = structuredClone(record);
    const er = isObject(out.execution_result) ? out.execution_result : { result: null, error: null };
    er.result = standinVerdict(out, logDir);
    out.execution_result = er;
  } else {
    const judged = await judgeDataflowRecord(join(logDir, 'record.json'), record, {
      endpoint: model.endpoint,
      logs: logDir,
      log,
    });
    if (!judged.ok) {
      out = structuredClone(record);
      const er = out.execution_result as Json;
      er.result = {
        reason: `Not judged: ${judged.problems.map((p) => p.message).join('; ')}`,
        sub_scores: {},
        complete: 'unsure',
      };
    } else out = judged.judgement.record;
  }
  const seconds = secondsSince(started);
  // the judge moves total by its own time already when it wrote execute_eval; set both plainly here
  const before = timeOf(record, 'total') ?? 0;
  setTime(out, 'execute_eval', seconds);
  setTime(out, 'total', Math.round((before + seconds) * 1000) / 1000);
  return out;
}
