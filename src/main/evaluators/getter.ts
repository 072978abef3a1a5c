// Getters: fetch the agent's result (or the expectation) for a metric. A getter spec is `{type, ...}`;
// `type` dispatches to this registry. File getters return a host path (a copy under ctx.cacheDir for guest
// files) or `undefined` when the file does not exist.
import { Registry } from '../registry';
import type { Environment } from '../env/environment';
import type { GetterSpec, Task } from '../../shared/task';

export interface GradingContext {
  env: Environment;
  task: Task;
  /** Host folder where fetched files are written (the run's evidence folder for this task). */
  cacheDir: string;
  /** Folder of the files getters would download (`--downloads`, as setup's): nothing is fetched when given. */
  downloads?: string;
  signal?: AbortSignal;
}

export type Getter = (spec: GetterSpec, ctx: GradingContext) => Promise<unknown>;

export const getters = new Registry<Getter>('getter');

/** A string field of a getter spec, or an error naming the getter and the field. */
export function specString(spec: GetterSpec, field: string): string {
  const v = spec[field];
  if (typeof v !== 'string' || v === '') throw new Error(`getter '${spec.type}' needs a string '${field}'`);
  return v;
}
