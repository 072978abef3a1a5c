// The record a task's stages fill in, and the folders they write: UFO's result layout (results/saved_document,
// results/<type>/<bucket>/) and its per-task logs (logs/<unique_id>/{choose,prefill,filter,execute}/). Every
// record carries all six time_cost keys (null until a stage runs; upstream defect 11) and stage errors as strings.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataflowTask } from './task';

export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Layout {
  /** The output folder given. */
  root: string;
  /** UFO's `results` folder: saved_document/ and the routed records. */
  results: string;
  /** Per-task stage logs. */
  logs: string;
}

export function layoutOf(out: string): Layout {
  return { root: out, results: join(out, 'results'), logs: join(out, 'logs') };
}

/** The instantiated copy of the template: results/saved_document/<unique_id>.<ext>. */
export const instantiatedPath = (layout: Layout, uniqueId: string, ext: string) =>
  join(layout.results, 'saved_document', `${uniqueId}${ext}`);
/** The executed document, saved beside and never over the instantiated copy (upstream defect 13). */
export const executedPath = (layout: Layout, uniqueId: string, ext: string) =>
  join(layout.results, 'saved_document', 'executed', `${uniqueId}${ext}`);
export const stageLogDir = (layout: Layout, uniqueId: string, stage: string) =>
  join(layout.logs, uniqueId, stage);

export const TIME_KEYS = [
  'choose_template',
  'prefill',
  'instantiation_evaluation',
  'execute',
  'execute_eval',
  'total',
] as const;
export type TimeKey = (typeof TIME_KEYS)[number];

/** Seconds since `startedMs` (performance.now()), to 3 decimals. */
export const secondsSince = (startedMs: number) => Math.round(performance.now() - startedMs) / 1000;

/** A fresh record for a task: nothing run yet. */
export function newRecord(task: DataflowTask): Json {
  return {
    unique_id: task.uniqueId,
    app: task.app,
    original: { original_task: task.task, original_steps: task.refinedSteps },
    execution_result: { result: null, error: null },
    instantiation_result: {
      choose_template: { result: null, error: null },
      prefill: { result: null, error: null },
      instantiation_evaluation: { result: null, error: null },
    },
    time_cost: Object.fromEntries(TIME_KEYS.map((k) => [k, null])),
  };
}

export function stageOf(
  record: Json,
  stage: 'choose_template' | 'prefill' | 'instantiation_evaluation',
): { result: unknown; error: unknown } {
  const ir = record.instantiation_result as Json;
  return ir[stage] as { result: unknown; error: unknown };
}

export function setTime(record: Json, key: TimeKey, seconds: number | null): void {
  (record.time_cost as Json)[key] = seconds;
}

export function timeOf(record: Json, key: TimeKey): number | null {
  const v = (record.time_cost as Json | undefined)?.[key];
  return typeof v === 'number' ? v : null;
}

/** An error as the instantiation schema's string: `Type: message`. */
export function errorString(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** Writes a stage log file, making its folder. */
export async function writeLog(dir: string, name: string, data: string | Buffer): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  await writeFile(file, data);
  return file;
}
