// File getters: copy a guest file into the grading cache, or point at a task's own (gold) file.
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve, isAbsolute, sep } from 'node:path';
import type { GetterSpec } from '../../../shared/task';
import { getters, specString, type GradingContext } from '../getter';
import { safeFileName, taskFilePath } from '../task-files';
import { MONTH_NAMES, WEEKDAY_NAMES } from './calendar';
import { commandOutput } from './general';

const claimed = new WeakMap<GradingContext, Set<string>>();

/** A fresh file name under ctx.cacheDir for `dest` (a second file with the same name gets `-2`, …). */
async function cachePath(ctx: GradingContext, dest: string | undefined, fallback: string): Promise<string> {
  await mkdir(ctx.cacheDir, { recursive: true });
  const used = claimed.get(ctx) ?? new Set<string>();
  claimed.set(ctx, used);
  const name = safeFileName(dest, fallback);
  let candidate = name;
  for (let n = 2; used.has(candidate); n++) candidate = name.replace(/(\.[^.]*)?$/, `-${n}$1`);
  used.add(candidate);
  return join(ctx.cacheDir, candidate);
}

/** Copies one guest file into the cache; `undefined` when it does not exist. */
export async function fetchGuestFile(
  ctx: GradingContext,
  guestPath: string,
  dest?: string,
): Promise<string | undefined> {
  const data = await ctx.env.getFile(guestPath);
  if (data === undefined) return undefined;
  const host = await cachePath(ctx, dest ?? guestPath, 'file');
  await writeFile(host, data);
  return host;
}

/**
 * The indexes a `multi` file getter returns (OSWorld's `gives`, default `[0]`; read whether or not `multi` is set,
 * as upstream does). Shared by vm_file, cloud_file and re-grading (which maps the values back to the paths).
 */
export function givenIndexes(spec: GetterSpec): number[] {
  return Array.isArray(spec.gives) ? [...new Set(spec.gives.map(Number).filter(Number.isInteger))] : [0];
}

/** A file getter's answer from its per-path values (in path order): the given ones, one alone, else a list. */
export function pickGiven<T>(values: T[], gives: number[]): T | T[] {
  const out = values.filter((_, i) => gives.includes(i));
  return out.length === 1 ? out[0] : out;
}

/**
 * `{path, dest}` of a single or `multi` file getter as lists of the same length (an error names the getter). A single
 * spec without `dest` is named after its path unless `destRequired`.
 */
export function fileLists(
  spec: GetterSpec,
  getter: string,
  destRequired = false,
): { paths: string[]; dests: string[] } {
  if (spec.multi !== true) {
    const path = specString(spec, 'path');
    return {
      paths: [path],
      dests: [destRequired || typeof spec.dest === 'string' ? specString(spec, 'dest') : path],
    };
  }
  if (!Array.isArray(spec.path) || !Array.isArray(spec.dest))
    throw new Error(`getter '${getter}' with multi needs 'path' and 'dest' as lists`);
  const paths = spec.path.map(String);
  const dests = spec.dest.map(String);
  if (paths.length !== dests.length)
    throw new Error(`getter '${getter}': ${paths.length} paths but ${dests.length} dests`);
  return { paths, dests };
}

/** Python's `datetime.now().strftime(format)` in the grader's local time, for the directives file names use. */
export function strftime(format: string, at: Date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const dayOfYear =
    Math.floor(
      (Date.UTC(at.getFullYear(), at.getMonth(), at.getDate()) - Date.UTC(at.getFullYear(), 0, 1)) /
        86_400_000,
    ) + 1;
  const parts: Record<string, () => string> = {
    Y: () => String(at.getFullYear()),
    y: () => two(at.getFullYear() % 100),
    m: () => two(at.getMonth() + 1),
    d: () => two(at.getDate()),
    H: () => two(at.getHours()),
    I: () => two(at.getHours() % 12 || 12),
    M: () => two(at.getMinutes()),
    S: () => two(at.getSeconds()),
    f: () => String(at.getMilliseconds() * 1000).padStart(6, '0'),
    p: () => (at.getHours() < 12 ? 'AM' : 'PM'),
    j: () => String(dayOfYear).padStart(3, '0'),
    a: () => WEEKDAY_NAMES[at.getDay()].slice(0, 3),
    A: () => WEEKDAY_NAMES[at.getDay()],
    b: () => MONTH_NAMES[at.getMonth()].slice(0, 3),
    B: () => MONTH_NAMES[at.getMonth()],
    '%': () => '%',
  };
  return format.replace(/%(.)/gs, (all, d: string) => {
    const part = parts[d];
    if (!part) throw new Error(`time_format '${format}': directive ${all} is not supported`);
    return part();
  });
}

/** Python's `os.path.splitext` of a file name: the extension is the last dot's part, leading dots excepted. */
function splitExt(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  const slash = name.lastIndexOf('/');
  const lead = name.slice(slash + 1).search(/[^.]/);
  if (dot <= slash || lead < 0 || dot <= slash + 1 + lead) return [name, ''];
  return [name.slice(0, dot), name.slice(dot)];
}

/**
 * vm_file `{path, dest, multi?, gives?, time_suffix?, time_format?}` — the guest file copied to `<cacheDir>/<dest>`;
 * `undefined` when it does not exist. With `multi`, `path` and `dest` are lists: every file is copied (a metric may
 * read a sibling from the cache) but only the indexes in `gives` (default `[0]`) are returned — one path when one is
 * given, else a list, with `undefined` for a missing file. Without `multi`, `time_suffix: true` inserts the grading
 * time (`time_format`, default `%Y%m%d_%H%M%S`) before the extension of `dest` — the cache name only; the guest path
 * is read as written.
 */
async function vmFile(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const { paths, dests } = fileLists(spec, 'vm_file');
  if (spec.multi !== true && spec.time_suffix === true) {
    const format = typeof spec.time_format === 'string' ? spec.time_format : '%Y%m%d_%H%M%S';
    const [stem, ext] = splitExt(dests[0]);
    dests[0] = `${stem}_${strftime(format)}${ext}`;
  }
  const out: (string | undefined)[] = [];
  for (const [i, p] of paths.entries()) out.push(await fetchGuestFile(ctx, p, dests[i]));
  return pickGiven(out, givenIndexes(spec));
}

async function existingFile(path: string): Promise<string | undefined> {
  try {
    return (await stat(path)).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * local_file `{path}` — a file of the task itself (gold file), named relative to the upstream repository
 * (`evaluation_examples/examples/<app>/<uuid>/x`) or to the task folder; its host path, or `undefined`
 * when the task set does not contain it. It is not copied: it is already a stored artefact.
 */
async function localFile(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return existingFile(taskFilePath(ctx.task, specString(spec, 'path')));
}

/** cache_file `{path}` — a file already in the grading cache (fetched earlier), by its relative name. */
async function cacheFile(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const name = specString(spec, 'path');
  const path = resolve(ctx.cacheDir, name);
  const rel = relative(ctx.cacheDir, path);
  if (isAbsolute(name) || rel.startsWith('..' + sep) || rel === '..')
    throw new Error(`cache_file '${name}' points outside the cache folder`);
  return existingFile(path);
}

/**
 * dbt_profiles `{dirs, dest}` — the first `profiles.yml` found in `dirs` (guest folders; an entry starting
 * with `$` is an environment variable, expanded by a login shell on the guest), copied to `dest`.
 */
async function dbtProfiles(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const dirs = Array.isArray(spec.dirs) ? spec.dirs.map(String) : [];
  const dest = typeof spec.dest === 'string' ? spec.dest : 'profiles.yml';
  for (let dir of dirs) {
    if (dir.startsWith('$')) {
      if (!/^\$\{?\w+\}?$/.test(dir)) continue;
      dir = (await commandOutput(ctx, ['bash', '-lc', `printf '%s' "${dir}"`])).trim();
      if (!dir) continue;
    }
    const file = await fetchGuestFile(ctx, `${dir.replace(/\/+$/, '')}/profiles.yml`, dest);
    if (file) return file;
  }
  return undefined;
}

getters
  .register('vm_file', vmFile)
  .register('local_file', localFile)
  .register('cache_file', cacheFile)
  .register('dbt_profiles', dbtProfiles);
