// Where a run started from the workbench may take its tasks from: the bundled demo by its short name (`demo`,
// `demo/terminal`), the served folder, folders named with `proctor serve --tasks DIR`, and — when the workbench is
// served only to the person on this machine — any path they can read. A path that is none of these is refused,
// naming where Proctor looked.
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { demoDir } from '../demo/paths';
import { ApiRequestError } from './api-error';

export interface TaskSourceOptions {
  /** Extra folders tasks may come from (`proctor serve --tasks DIR`), absolute. */
  taskDirs?: readonly string[];
  /** The workbench is used only by the person on this machine (Electron, or a loopback server without a team). */
  localUser?: boolean;
}

/** A place the start form offers: what to type, and what it is. */
export interface TaskSource {
  path: string;
  label: string;
}

const DEMO = 'demo';

const inside = (dir: string, p: string): boolean => {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !isAbsolute(rel));
};

const real = (p: string): string => {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
};

/** The demo's app folders (`terminal`, `chromium`, …), sorted. */
function demoApps(): string[] {
  if (!existsSync(demoDir)) return [];
  return readdirSync(demoDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'site')
    .map((d) => d.name)
    .sort();
}

/** The bundled demo folder a short name means (`demo`, `demo/<app>`, `demo/<app>/<id>`), if it exists. */
function demoPath(given: string): string | undefined {
  const clean = given
    .replace(/\\/g, '/')
    .replace(/^\.?\/+/, '')
    .replace(/\/+$/, '');
  if (clean !== DEMO && !clean.startsWith(`${DEMO}/`)) return undefined;
  const rest = clean.slice(DEMO.length).split('/').filter(Boolean);
  if (rest.some((p) => p === '..' || p.startsWith('.'))) return undefined;
  const target = join(demoDir, ...rest);
  return existsSync(target) && inside(demoDir, real(target)) ? target : undefined;
}

/**
 * The file or folder `given` names for a run started from the workbench over `root`. Order: below the served
 * folder; a `demo…` short name; below a `--tasks` folder; an absolute path the local user may read.
 */
export function resolveTaskSource(root: string, given: string, opts: TaskSourceOptions = {}): string {
  const rootReal = real(root);
  const trimmed = given.trim();
  if (!trimmed) throw new ApiRequestError('bad_request', 'an empty task path');
  const absolute = isAbsolute(trimmed);
  // Below the served folder: relative paths, absolute ones that lie inside it, and `/x` as the served folder's
  // own `x` (as the UI names paths) when there is no such absolute path.
  const rootRelative = trimmed.replace(/^\/+/, '');
  for (const below of absolute ? [trimmed, resolve(rootReal, rootRelative)] : [resolve(rootReal, trimmed)])
    if (existsSync(below) && inside(rootReal, real(below))) return below;
  const demo = demoPath(rootRelative);
  if (demo && !(absolute && existsSync(trimmed))) return demo;
  for (const dir of opts.taskDirs ?? []) {
    // A task folder is named by its own name (`examples/…`), or the path is taken inside it.
    const [first, ...rest] = trimmed.replace(/\\/g, '/').split('/').filter(Boolean);
    const candidates = absolute
      ? [trimmed]
      : [...(first === basename(dir) ? [join(dir, ...rest)] : []), resolve(dir, trimmed)];
    for (const target of candidates) if (existsSync(target) && inside(real(dir), real(target))) return target;
  }
  if (absolute && opts.localUser && existsSync(trimmed)) return trimmed;
  const places = [
    'the served folder',
    `the bundled demo (${[DEMO, ...demoApps().map((a) => `${DEMO}/${a}`)].join(', ')})`,
    ...(opts.taskDirs?.length
      ? [`the task folders ${opts.taskDirs.map((d) => basename(d)).join(', ')}`]
      : []),
    ...(opts.localUser ? ['any absolute path on this machine'] : []),
  ];
  const why =
    absolute && !opts.localUser
      ? ' (this workbench is served to others: absolute paths are read only inside the served folder and the folders given with proctor serve --tasks DIR)'
      : '';
  throw new ApiRequestError(
    'bad_request',
    `no task file or folder '${given}' in ${places.join(', or ')}${why}`,
  );
}

/** What the start form offers to type: the demo by app, then the `--tasks` folders by name. */
export function taskSources(opts: TaskSourceOptions = {}): TaskSource[] {
  const apps = demoApps();
  const out: TaskSource[] = [];
  if (apps.length) out.push({ path: DEMO, label: `the bundled demo tasks (${apps.length} apps)` });
  for (const app of apps) out.push({ path: `${DEMO}/${app}`, label: `the demo's ${app} tasks` });
  for (const dir of opts.taskDirs ?? [])
    out.push({ path: basename(dir), label: 'a task folder given to proctor serve --tasks' });
  return out;
}
