// `proctor dataflow route`: validate UFO dataflow records and file them under
// <out>/<type>/<bucket>/<unique_id>.json, atomically, never silently replacing a record already filed; each id is
// claimed (claim.ts) while it is checked and written, so concurrent filers file one id exactly once.
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problem } from '../../shared/task';
import { readJsonFile } from '../tasks/files';
import { schemaProblems } from '../schemas';
import { TargetExistsError, writeJsonAtomic } from './atomic';
import { ClaimTimeoutError, withClaim } from '../files/claim';
import { bucketOf, recordTypeOf, toSchemaForm, type Bucket, type RecordType } from './record';

export interface RouteOptions {
  /** The results folder (UFO's `dataflow/results`). */
  out: string;
  /** The record type; by default read from the record (`dataflow` must be asked for: its records look like `execution`). */
  type?: RecordType;
  /** Replace a record with the same unique_id already filed under this type. */
  overwrite?: boolean;
}

export interface RouteOutcome {
  file: string;
  status: 'filed' | 'invalid' | 'exists';
  uniqueId?: string;
  type?: RecordType;
  bucket?: Bucket;
  target?: string;
  problems: Problem[];
}

const buckets: Record<RecordType, Bucket[]> = {
  instantiation: ['instantiation_pass', 'instantiation_fail'],
  execution: ['execution_pass', 'execution_fail', 'execution_unsure'],
  dataflow: ['execution_pass', 'execution_fail', 'execution_unsure'],
};

async function filedElsewhere(out: string, type: RecordType, name: string): Promise<string[]> {
  const found: string[] = [];
  for (const b of buckets[type]) {
    try {
      if ((await readdir(join(out, type, b))).includes(name)) found.push(join(out, type, b, name));
    } catch {
      // bucket folder not there yet
    }
  }
  return found;
}

/** Validate one record file and file it. */
export async function routeRecord(file: string, options: RouteOptions): Promise<RouteOutcome> {
  const read = await readJsonFile(file);
  if (!read.ok) return { file, status: 'invalid', problems: [read.problem] };
  return routeValue(read.value, file, options);
}

/** Validate one record already read (or made, e.g. by `proctor dataflow judge`) and file it; `file` names it in messages. */
export async function routeValue(
  record: unknown,
  file: string,
  options: RouteOptions,
): Promise<RouteOutcome> {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return {
      file,
      status: 'invalid',
      problems: [{ file, pointer: '', severity: 'error', message: 'a UFO record must be a JSON object' }],
    };
  }
  const json = record as Record<string, unknown>;
  const type = options.type ?? recordTypeOf(json);
  const problems = schemaProblems(
    type === 'instantiation' ? 'ufo-instantiation' : 'ufo-execution',
    json,
    file,
  );
  const uid = json.unique_id;
  const uniqueId = typeof uid === 'string' || typeof uid === 'number' ? String(uid) : undefined;
  if (uniqueId !== undefined && !/^[\w.-]{1,200}$/.test(uniqueId)) {
    problems.push({
      file,
      pointer: '/unique_id',
      severity: 'error',
      message: `unique_id ${JSON.stringify(uniqueId)} cannot name a file: use letters, digits, '_', '-', '.'`,
    });
  }
  if (problems.length || uniqueId === undefined) return { file, status: 'invalid', uniqueId, type, problems };

  const { bucket, warning } = bucketOf(json, type);
  if (warning)
    problems.push({
      file,
      pointer: '/execution_result/result/complete',
      severity: 'warning',
      message: warning,
    });
  const name = `${uniqueId}.json`;
  const target = join(options.out, type, bucket, name);
  const refused = (at: string): RouteOutcome => {
    problems.push({
      file,
      pointer: '/unique_id',
      severity: 'error',
      message: `a record with unique_id '${uniqueId}' is already filed at ${at}: not replaced (pass --overwrite to replace it)`,
    });
    return { file, status: 'exists', uniqueId, type, bucket, target: at, problems };
  };
  // the check and the write happen under the id's claim, so concurrent filers of one id file it exactly once
  try {
    return await withClaim(join(options.out, type), uniqueId, async () => {
      const existing = await filedElsewhere(options.out, type, name);
      if (existing.length && !options.overwrite) return refused(existing[0]);
      try {
        await writeJsonAtomic(target, toSchemaForm(json), { replace: !!options.overwrite });
      } catch (e) {
        if (!(e instanceof TargetExistsError)) throw e;
        return refused(target);
      }
      // with --overwrite, a record that moved bucket (e.g. fail → pass) leaves no stale copy behind
      for (const old of existing) if (old !== target) await unlink(old).catch(() => undefined);
      return { file, status: 'filed', uniqueId, type, bucket, target, problems } satisfies RouteOutcome;
    });
  } catch (e) {
    if (!(e instanceof ClaimTimeoutError)) throw e;
    problems.push({ file, pointer: '/unique_id', severity: 'error', message: `not filed: ${e.message}` });
    return { file, status: 'exists', uniqueId, type, bucket, problems };
  }
}

/** Route record files in order (a later record with an id already filed in this run is refused too). */
export async function routeRecords(files: string[], options: RouteOptions): Promise<RouteOutcome[]> {
  const outcomes: RouteOutcome[] = [];
  for (const f of files) outcomes.push(await routeRecord(f, options));
  return outcomes;
}
