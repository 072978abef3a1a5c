// The published JSON Schemas (resources/schemas), compiled once with ajv (allErrors) and reused by whoever reads
// those files: task loading, validation, the run store's manifest check, the dataflow records.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import taskNative from '../../../resources/schemas/task-native.schema.json';
import taskSpider2v from '../../../resources/schemas/task-spider2v.schema.json';
import taskOsworld from '../../../resources/schemas/task-osworld.schema.json';
import summary from '../../../resources/schemas/summary.schema.json';
import trajLine from '../../../resources/schemas/osworld-traj-line.schema.json';
import spider2vTrajLine from '../../../resources/schemas/spider2v-traj-line.schema.json';
import agentMessages from '../../../resources/schemas/agent-messages.schema.json';
import ufoInstantiation from '../../../resources/schemas/ufo-instantiation.schema.json';
import ufoExecution from '../../../resources/schemas/ufo-execution.schema.json';
import judgeOutput from '../../../resources/schemas/judge-output.schema.json';
import split from '../../../resources/schemas/split.schema.json';
import runManifest from '../../../resources/schemas/run-manifest.schema.json';
import runPlan from '../../../resources/schemas/run-plan.schema.json';
import runEvent from '../../../resources/schemas/run-event.schema.json';
import runStep from '../../../resources/schemas/run-step.schema.json';
import runVerdict from '../../../resources/schemas/run-verdict.schema.json';
import type { Problem } from '../../shared/task';
import { pointerToken } from './json-text';

/** Every kind of file with a published schema: tasks, other harnesses' records, and Proctor's own run files. */
export type SchemaKind =
  | 'task-native'
  | 'task-spider2v'
  | 'task-osworld'
  | 'split'
  | 'summary'
  | 'traj-line'
  | 'spider2v-traj-line'
  | 'agent-messages'
  | 'ufo-instantiation'
  | 'ufo-execution'
  | 'judge'
  | 'run-manifest'
  | 'run-plan'
  | 'run-event'
  | 'run-step'
  | 'run-verdict';

const schemaOf: Record<SchemaKind, object> = {
  'task-native': taskNative,
  'task-spider2v': taskSpider2v,
  'task-osworld': taskOsworld,
  summary,
  'traj-line': trajLine,
  'spider2v-traj-line': spider2vTrajLine,
  'agent-messages': agentMessages,
  'ufo-instantiation': ufoInstantiation,
  'ufo-execution': ufoExecution,
  judge: judgeOutput,
  split,
  'run-manifest': runManifest,
  'run-plan': runPlan,
  'run-event': runEvent,
  'run-step': runStep,
  'run-verdict': runVerdict,
};

let compiled: Map<SchemaKind, ValidateFunction> | undefined;

function validators(): Map<SchemaKind, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  // Register every schema first so cross-file $refs (task-osworld → task-spider2v) resolve.
  for (const schema of Object.values(schemaOf)) ajv.addSchema(schema);
  compiled = new Map();
  for (const [kind, schema] of Object.entries(schemaOf) as Array<[SchemaKind, { $id: string }]>) {
    compiled.set(kind, ajv.getSchema(schema.$id) as ValidateFunction);
  }
  return compiled;
}

/** The compiled validator for a kind (compiled on first use, then reused). */
export function validatorFor(kind: SchemaKind): ValidateFunction {
  const v = validators().get(kind);
  if (!v) throw new Error(`no schema for kind '${kind}'`);
  return v;
}

function describe(e: ErrorObject): { pointer: string; message: string } {
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty: string }).missingProperty;
    return {
      pointer: `${e.instancePath}/${pointerToken(missing)}`,
      message: `missing required property '${missing}'`,
    };
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues
      .map((v) => JSON.stringify(v))
      .join(', ');
    return { pointer: e.instancePath, message: `must be one of ${allowed}` };
  }
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    return { pointer: `${e.instancePath}/${pointerToken(extra)}`, message: 'is not allowed here' };
  }
  return { pointer: e.instancePath, message: e.message ?? e.keyword };
}

/** Validate `json` against the schema of `kind`; schema errors come back as problems with JSON pointers. */
export function schemaProblems(kind: SchemaKind, json: unknown, file: string): Problem[] {
  const validate = validatorFor(kind);
  if (validate(json)) return [];
  const errors = validate.errors ?? [];
  // "must be object" + "must be array" + "must match a schema in anyOf" at one place read better as one line.
  const alternatives = new Map<string, string[]>();
  for (const e of errors)
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') alternatives.set(e.instancePath, []);
  const alternative = (e: ErrorObject): string | undefined =>
    e.keyword === 'type'
      ? `be ${String((e.params as { type: unknown }).type)}`
      : e.keyword === 'minLength' && (e.params as { limit: number }).limit === 1
        ? 'be a non-empty string'
        : e.keyword === 'required'
          ? `have '${(e.params as { missingProperty: string }).missingProperty}'`
          : undefined;
  for (const e of errors) {
    const types = alternatives.get(e.instancePath);
    const alt = alternative(e);
    if (types && alt) types.push(alt);
  }
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const e of errors) {
    if (e.keyword === 'if') continue; // the failing `then` errors say what is wrong
    const types = alternatives.get(e.instancePath);
    if (types?.length && alternative(e)) continue;
    const { pointer, message } =
      types?.length && (e.keyword === 'anyOf' || e.keyword === 'oneOf')
        ? {
            pointer: e.instancePath,
            message: `must ${types.every((t) => t.startsWith('be ')) ? 'be ' + types.map((t) => t.slice(3)).join(' or ') : types.join(' or ')}`,
          }
        : describe(e);
    const key = pointer + '\0' + message;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ file, pointer, severity: 'error', message: `${message} (schema ${kind})` });
  }
  return problems;
}
