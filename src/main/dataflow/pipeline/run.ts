// The dataflow pipeline over task files: `instantiation` (choose → prefill → filter), `execution` (execute →
// evaluate an instantiation record), `dataflow` (both; a task the filter rejects is not executed: upstream defect
// 6). One sandbox display serves all tasks, started on first need. Every record is checked against UFO's
// unmodified schemas and filed by the existing rule (route.ts) under results/<type>/<bucket>/<unique_id>.json;
// an invalid record is reported, never filed (defect 11). No batch reformat step (defect 12). Each task's log
// folder is also written in the form the workbench reads (workbench-logs.ts).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Problem } from '../../../shared/task';
import { projectRoot } from '../../demo/paths';
import { createLocalEnvironment, type LocalEnvironment } from '../../env/local/local-environment';
import { readJsonFile } from '../../tasks/files';
import { toSchemaForm, type RecordType } from '../record';
import { routeValue, type RouteOutcome } from '../route';
import { documentOf, execute, type ExecuteOptions } from './execute';
import { evaluate } from './evaluate';
import { instantiate, passedFilter, type StageContext } from './instantiate';
import type { StageModels } from './models';
import type { OfficeEnv } from './office';
import { isObject, layoutOf, stageLogDir, type Json, type Layout } from './records';
import { readTask } from './task';
import { writeWorkbenchLogs } from './workbench-logs';

export type PipelineMode = 'instantiation' | 'execution' | 'dataflow';

export interface PipelineOptions extends ExecuteOptions {
  mode: PipelineMode;
  /** The output folder: results/ and logs/ are made in it. */
  out: string;
  models: StageModels;
  templatesRoot?: string;
  overwrite?: boolean;
  /** An environment to use instead of starting a sandbox display (tests); not closed here. */
  env?: OfficeEnv;
  log?: (line: string) => void;
}

export interface TaskOutcome {
  /** The task or record file. */
  file: string;
  uniqueId?: string;
  /** Where the record was filed. */
  route?: RouteOutcome;
  /** The executed document, if execution saved one. */
  executed?: string;
  /** The record as filed (schema form), when one was made. */
  record?: Json;
  problems: Problem[];
}

/** UFO's own schemas, unmodified (fixtures/ufo), when the checkout has them. */
function ufoSchemas(): { instantiation?: ValidateFunction; execution?: ValidateFunction } {
  const ajv = new Ajv({ strict: false, allErrors: true });
  const load = (name: string) => {
    const f = join(projectRoot, 'fixtures', 'ufo', name);
    return existsSync(f) ? ajv.compile(JSON.parse(readFileSync(f, 'utf8')) as object) : undefined;
  };
  return { instantiation: load('instantiation_schema.json'), execution: load('execution_schema.json') };
}

function ufoSchemaProblems(record: Json, type: RecordType, file: string): Problem[] {
  const schemas = ufoSchemas();
  const validate = type === 'instantiation' ? schemas.instantiation : schemas.execution;
  if (!validate || validate(toSchemaForm(record))) return [];
  return (validate.errors ?? []).map((e) => ({
    file,
    pointer: e.instancePath,
    severity: 'error' as const,
    message: `UFO's ${type === 'instantiation' ? 'instantiation' : 'execution'} schema: ${e.message ?? 'invalid'}`,
  }));
}

async function file(
  record: Json,
  type: RecordType,
  layout: Layout,
  source: string,
  overwrite: boolean,
): Promise<{ route?: RouteOutcome; problems: Problem[] }> {
  const where = join(layout.logs, String(record.unique_id), 'record.json');
  const problems = ufoSchemaProblems(record, type, where);
  if (problems.length) return { problems };
  const route = await routeValue(record, source, { out: layout.results, type, overwrite });
  await mkdir(join(layout.logs, String(record.unique_id)), { recursive: true });
  await writeWorkbenchLogs(record, layout, route.status === 'filed' ? `${type}/${route.bucket}` : undefined);
  return { route, problems: route.problems };
}

/** Runs the pipeline on task files (instantiation, dataflow) or instantiation record files (execution). */
export async function runPipeline(inputs: string[], options: PipelineOptions): Promise<TaskOutcome[]> {
  const log = options.log ?? (() => {});
  const layout = layoutOf(resolve(options.out));
  let started: LocalEnvironment | undefined;
  let starting: Promise<OfficeEnv> | undefined;
  const ctx: StageContext = {
    models: options.models,
    layout,
    templatesRoot: options.templatesRoot,
    log,
    env: () =>
      options.env
        ? Promise.resolve(options.env)
        : (starting ??= createLocalEnvironment({ width: 1280, height: 800, notify: log }).then((e) => {
            started = e;
            return e;
          })),
  };
  const outcomes: TaskOutcome[] = [];
  try {
    for (const input of inputs) outcomes.push(await runOne(input, options, ctx, layout, log));
  } finally {
    await started?.close();
  }
  return outcomes;
}

async function runOne(
  input: string,
  options: PipelineOptions,
  ctx: StageContext,
  layout: Layout,
  log: (line: string) => void,
): Promise<TaskOutcome> {
  if (options.mode === 'execution') return executeRecordFile(input, options, ctx, layout, log);
  const read = await readTask(input);
  if (!read.ok) return { file: input, problems: read.problems };
  const task = read.task;
  log(`${task.uniqueId} (${task.app}): ${task.task}`);
  const { record, document } = await instantiate(task, ctx);
  if (options.mode === 'instantiation' || !passedFilter(record) || !document) {
    if (options.mode === 'dataflow')
      log(
        `  not executed: ${passedFilter(record) ? 'no instantiated document' : 'the filter did not pass it'}`,
      );
    const type: RecordType = options.mode === 'dataflow' ? 'dataflow' : 'instantiation';
    if (type === 'dataflow') markNotExecuted(record);
    const filed = await file(record, type, layout, input, !!options.overwrite);
    return { file: input, uniqueId: task.uniqueId, ...filed, record };
  }
  const exec = await execute(record, document, ctx, options);
  const judged = await evaluate(exec.record, exec.logDir, options.models.evaluate, log);
  logVerdict(judged, log);
  const filed = await file(judged, 'dataflow', layout, input, !!options.overwrite);
  return { file: input, uniqueId: task.uniqueId, executed: exec.executed, ...filed, record: judged };
}

/** A plan that never ran, in the execution schema's form: every step Success null, MatchedControlText null. */
function markNotExecuted(record: Json): void {
  const ir = record.instantiation_result as Json;
  const prefill = isObject(ir.prefill) ? ir.prefill : undefined;
  const plan = isObject(prefill?.result) ? prefill.result.instantiated_plan : undefined;
  if (Array.isArray(plan))
    for (const s of plan) if (isObject(s)) Object.assign(s, { Success: null, MatchedControlText: null });
}

function logVerdict(record: Json, log: (line: string) => void): void {
  const er = record.execution_result as Json;
  const r = isObject(er.result) ? er.result : undefined;
  log(`  evaluate: ${r ? `${String(r.complete)} — ${String(r.reason)}` : 'no verdict'}`);
}

async function executeRecordFile(
  input: string,
  options: PipelineOptions,
  ctx: StageContext,
  layout: Layout,
  log: (line: string) => void,
): Promise<TaskOutcome> {
  const read = await readJsonFile(input);
  if (!read.ok) return { file: input, problems: [read.problem] };
  const record = read.value;
  const bad = (pointer: string, message: string): TaskOutcome => ({
    file: input,
    problems: [{ file: input, pointer, severity: 'error', message }],
  });
  if (!isObject(record) || record.unique_id === undefined)
    return bad('', 'not a UFO instantiation record (an object with unique_id, instantiation_result)');
  const id = String(record.unique_id);
  if (!/^[\w.-]{1,200}$/.test(id))
    return bad('/unique_id', `unique_id ${JSON.stringify(id)} cannot name a file`);
  log(`${id}: executing ${input}`);
  if (!passedFilter(record))
    return bad(
      '/instantiation_result/instantiation_evaluation/result/judge',
      'the filter did not pass this task (judge is not true): not executed',
    );
  const candidates = ['.odt', '.docx', '.xlsx', '.ods', '.odp', '.pptx'].flatMap((ext) => [
    join(input, '../../../saved_document', `${id}${ext}`),
    join(layout.results, 'saved_document', `${id}${ext}`),
  ]);
  const document = await documentOf(record, candidates);
  if (!document)
    return bad(
      '/instantiation_result/choose_template/result',
      `the instantiated document of ${id} is not at choose_template.result nor in saved_document/`,
    );
  const exec = await execute(record, document, ctx, options);
  const judged = await evaluate(exec.record, exec.logDir, options.models.evaluate, log);
  logVerdict(judged, log);
  const filed = await file(judged, 'execution', layout, input, !!options.overwrite);
  return { file: input, uniqueId: id, executed: exec.executed, ...filed, record: judged };
}

/** The log folder of a task's execution. */
export const executeLogDir = (out: string, uniqueId: string) =>
  stageLogDir(layoutOf(resolve(out)), uniqueId, 'execute');
