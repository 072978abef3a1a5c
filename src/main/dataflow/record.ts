// UFO dataflow records: their type, where they are filed (as UFO's DataFlowController does), and the schema's
// form of the fields on which UFO's code and schema disagree (resources/schemas/README.md).

export type RecordType = 'instantiation' | 'execution' | 'dataflow';
export const recordTypes: readonly RecordType[] = ['instantiation', 'execution', 'dataflow'];

export type Bucket =
  'instantiation_pass' | 'instantiation_fail' | 'execution_pass' | 'execution_fail' | 'execution_unsure';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const completeBucket: Record<string, Bucket> = {
  yes: 'execution_pass',
  no: 'execution_fail',
  unsure: 'execution_unsure',
};

/**
 * The result folder of a record. Instantiation: by `instantiation_evaluation.result.judge` (no result → fail).
 * Execution and dataflow: by `execution_result.result.complete` (no result → fail); a `complete` other than
 * lowercase yes / no / unsure goes to unsure with a warning (UFO itself would file it as a fail).
 */
export function bucketOf(record: Json, type: RecordType): { bucket: Bucket; warning?: string } {
  if (type === 'instantiation') {
    const ir = isObject(record.instantiation_result) ? record.instantiation_result : {};
    const ev = isObject(ir.instantiation_evaluation) ? ir.instantiation_evaluation : {};
    const result = isObject(ev.result) ? ev.result : undefined;
    return { bucket: result?.judge === true ? 'instantiation_pass' : 'instantiation_fail' };
  }
  const er = isObject(record.execution_result) ? record.execution_result : {};
  const result = isObject(er.result) ? er.result : undefined;
  if (!result) return { bucket: 'execution_fail' };
  const complete = result.complete;
  const bucket = typeof complete === 'string' ? completeBucket[complete] : undefined;
  if (bucket) return { bucket };
  return {
    bucket: 'execution_unsure',
    warning: `execution_result.result.complete is ${JSON.stringify(complete)}, not one of "yes", "no", "unsure": filed as unsure`,
  };
}

/**
 * Whether a record's content shows it was executed: an execution result or error, or an execute / execute_eval
 * time. A time of null means the stage did not run (Proctor writes all six time_cost keys on every record), so
 * `time_cost.execute: null` is an instantiation record.
 */
export function isExecutedRecord(record: Json): boolean {
  const er = isObject(record.execution_result) ? record.execution_result : {};
  const time = isObject(record.time_cost) ? record.time_cost : {};
  return er.result != null || er.error != null || time.execute != null || time.execute_eval != null;
}

/** The type a record's content shows: executed records are `execution` (dataflow cannot be told apart: ask for it). */
export function recordTypeOf(record: Json): RecordType {
  return isExecutedRecord(record) ? 'execution' : 'instantiation';
}

function errorString(e: unknown): unknown {
  if (!isObject(e)) return e;
  const message = e.error_message ?? e.message ?? '';
  return `${String(e.type ?? 'Error')}: ${String(message)}${typeof e.traceback === 'string' && e.traceback ? `\n${e.traceback}` : ''}`;
}

/**
 * A copy in the form UFO's schemas allow: string unique_id, sub_scores as {name: verdict}, instantiation stage
 * errors as strings, execution_result.error as {type, message, traceback} or null.
 */
export function toSchemaForm(record: Json): Json {
  const out = structuredClone(record);
  if (typeof out.unique_id === 'number') out.unique_id = String(out.unique_id);
  if (isObject(out.instantiation_result)) {
    for (const stage of Object.values(out.instantiation_result))
      if (isObject(stage) && 'error' in stage) stage.error = errorString(stage.error);
  }
  if (isObject(out.execution_result)) {
    const er = out.execution_result;
    // the execution schema's form is an object {type, message, traceback} (or null): UFO's schema has no string form
    if (isObject(er.error)) {
      const e = er.error;
      er.error = {
        type: String(e.type ?? 'Error'),
        message: String(e.message ?? e.error_message ?? ''),
        traceback: String(e.traceback ?? ''),
      };
    } else if (typeof er.error === 'string') {
      er.error = { type: 'Error', message: er.error, traceback: '' };
    }
    if (isObject(er.result) && Array.isArray(er.result.sub_scores)) {
      const scores: Record<string, string> = {};
      for (const s of er.result.sub_scores)
        if (isObject(s) && typeof s.name === 'string') scores[s.name] = String(s.evaluation);
      er.result.sub_scores = scores;
    }
  }
  return out;
}
