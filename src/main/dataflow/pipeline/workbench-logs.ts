// A task's log folder in the form Proctor's UFO log reader shows (store/ufo-reader.ts), so `proctor serve <out>`
// opens a dataflow output as a run: logs/<unique_id>/response.log has a line per plan step — the instantiated
// step (Observation: the planned control) beside what was executed (the control matched, its function, how it
// went), with the screenshot before it — evaluation.log the judge's verdict, and the execution's screenshots
// are linked in beside them. The bucket the record was filed in is each line's Comment.
import { existsSync } from 'node:fs';
import { copyFile, link, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APP_NAMES } from './app-names';
import { isObject, stageLogDir, type Json, type Layout } from './records';
import type { OfficeApp } from './task';

async function linkOrCopy(from: string, to: string): Promise<void> {
  if (existsSync(to)) return;
  await link(from, to).catch(() => copyFile(from, to));
}

/** Writes logs/<id>/response.log and evaluation.log (replacing earlier ones) and links the screenshots. */
export async function writeWorkbenchLogs(
  record: Json,
  layout: Layout,
  filedAs: string | undefined,
): Promise<void> {
  const id = String(record.unique_id);
  const dir = join(layout.logs, id);
  const app = APP_NAMES[record.app as OfficeApp]?.replace(/ on Linux$/, '') ?? String(record.app);
  const ir = isObject(record.instantiation_result) ? record.instantiation_result : {};
  const prefill = isObject(ir.prefill) && isObject(ir.prefill.result) ? ir.prefill.result : undefined;
  const filter = isObject(ir.instantiation_evaluation) ? ir.instantiation_evaluation : {};
  const original = isObject(record.original) ? String(record.original.original_task ?? '') : '';
  const request = typeof prefill?.instantiated_request === 'string' ? prefill.instantiated_request : original;
  const plan = Array.isArray(prefill?.instantiated_plan) ? (prefill.instantiated_plan as Json[]) : [];
  const executed = plan.some((s) => s.Success === true || s.Success === false);
  const comment = `dataflow record filed as ${filedAs ?? '(not filed)'}; original task: ${original}`;
  const execDir = stageLogDir(layout, id, 'execute');
  const lines: Json[] = [];
  if (!executed) {
    const f = isObject(filter.result) ? filter.result : undefined;
    lines.push({
      Step: 0,
      Agent: 'Dataflow instantiation',
      Application: app,
      Request: request,
      Subtask: 'instantiate: choose a template, prefill a plan, filter',
      Observation: `planned ${plan.length} steps: ${plan.map((s) => `${String(s.Function)} on ${s.ControlText ? JSON.stringify(s.ControlText) : 'the window'}`).join('; ') || 'none'}`,
      Thought: f
        ? `filter: ${f.judge === true ? 'doable' : `not doable (${String(f.request_type)})`} — ${String(f.thought)}`
        : `no filter verdict${filter.error ? `: ${String(filter.error)}` : ''}`,
      Comment: comment,
      Status: 'FAIL',
      ...(f?.judge === true ? {} : { error: 'not executed: the instantiation did not pass' }),
    });
  }
  for (const s of executed ? plan : []) {
    const ran = s.Success === true ? 'success' : s.Success === false ? 'failure' : 'not reached';
    lines.push({
      Step: s.Step,
      Agent: 'Dataflow executor',
      Application: app,
      Request: request,
      Subtask: s.Subtask,
      Observation: `planned: ${s.Function}(${JSON.stringify(s.Args)}) on ${s.ControlText ? JSON.stringify(s.ControlText) : 'the window'}`,
      Function: s.Function,
      Args: s.Args,
      ControlText: (s.MatchedControlText as string | null) ?? '',
      ControlLabel: s.ControlLabel ?? null,
      Comment: comment,
      Status:
        s.Step === plan.filter((p) => p.Success !== null && p.Success !== undefined).length
          ? plan.every((p) => p.Success === true)
            ? 'FINISH'
            : 'FAIL'
          : 'CONTINUE',
      result: { status: ran, ...(s.Success === false ? { error: errorOf(record) } : {}) },
      // a step never reached shows the screen as the execution left it
      CleanScreenshot:
        s.Success === null || s.Success === undefined
          ? 'action_step_final.png'
          : `action_step${String(s.Step)}.png`,
    });
  }
  await writeFile(join(dir, 'response.log'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const er = isObject(record.execution_result) ? record.execution_result : {};
  if (isObject(er.result)) await writeFile(join(dir, 'evaluation.log'), JSON.stringify(er.result) + '\n');
  if (existsSync(execDir))
    for (const f of await readdir(execDir))
      if (/^action_step(\d+|_final)\.png$/.test(f)) await linkOrCopy(join(execDir, f), join(dir, f));
}

function errorOf(record: Json): string {
  const er = isObject(record.execution_result) ? record.execution_result : {};
  const e = er.error;
  return isObject(e) ? `${String(e.type)}: ${String(e.message)}` : typeof e === 'string' ? e : 'failed';
}
