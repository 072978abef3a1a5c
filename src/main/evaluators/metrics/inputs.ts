// Reading what getters hand to metrics: host file paths, rule objects, strings.
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFile, stat } from 'node:fs/promises';

const sharedReads = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/** Runs `fn` with file reads shared: a faithful metric, its second opinion and the diagnosis read each file once. */
export function withSharedReads<T>(fn: () => Promise<T>): Promise<T> {
  return sharedReads.run(new Map(), fn);
}

async function readOnce(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch {
    return undefined;
  }
}

/** `make()` once per `key` within `withSharedReads` (every call outside one makes its own): for values read
 * from files that several variants of a metric parse alike (a workbook). Callers must not change the value. */
export function sharedValue<T>(key: string, make: () => Promise<T>): Promise<T> {
  const shared = sharedReads.getStore();
  if (!shared) return make();
  let p = shared.get(key) as Promise<T> | undefined;
  if (!p) {
    p = make();
    shared.set(key, p);
  }
  return p;
}

/** The file's bytes (shared within `withSharedReads`: do not change them), or undefined when not readable. */
export function readBytes(path: unknown): Promise<Buffer | undefined> {
  if (typeof path !== 'string' || path === '') return Promise.resolve(undefined);
  return sharedValue(`bytes:${path}`, () => readOnce(path));
}

/** The file's text, or undefined when `path` is not a readable file. */
export async function readText(path: unknown): Promise<string | undefined> {
  return (await readBytes(path))?.toString('utf8').replace(/^\uFEFF/, '');
}

export async function isFile(path: unknown): Promise<boolean> {
  if (typeof path !== 'string' || path === '') return false;
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A list of strings from a rule field (a single string counts as a list of one). */
export function stringList(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v.map((x) => String(x));
  return [String(v)];
}

/** Short text for reasons: at most `max` characters, on one line. */
export function brief(v: unknown, max = 160): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
}

/** JSZip's reason a file is not a ZIP, without its pointer to JSZip's own documentation. */
export function zipError(e: unknown): string {
  return String((e as Error)?.message ?? e).replace(/\s*:?\s*is this a zip file \?.*$/s, '');
}
