// The files a static site references (screenshots, SoM images, a11y tables, recordings), each put once below
// OUT/files/<path below the export root>: hard-linked when on the same filesystem, else copied. A path is taken
// only when it is relative, has no `..` and stays inside its run's folder also through symlinks: other people's
// run folders (OSWorld, UFO, forks) are untrusted and may name files elsewhere on the machine.
import { constants, lstatSync, realpathSync, statSync } from 'node:fs';
import { copyFile, link, mkdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { TaskTrajectory } from '../../../shared/api';

/** Why a file named by a run is not put in the site. */
export interface RefusedFile {
  run: string;
  task?: string;
  path: string;
  why: string;
}

/** One file to put: its path below the export root (also its path below OUT/files) and where it is on disk. */
export interface SiteFile {
  path: string;
  source: string;
}

const NOT_PLAIN = 'not a plain relative path (absolute, `..` or empty segments)';
const OUTSIDE = "outside the run's folder (also through symlinks)";
/** Relative, `/`-separated, with no empty, `.` or `..` segment. */
const plainRelative = (path: string) =>
  !!path &&
  !isAbsolute(path) &&
  !path.includes('\\') &&
  !path.split('/').some((seg) => seg === '..' || seg === '.' || seg === '');

/** The files of one trajectory as the workbench names them (below the served root), the recording run-relative. */
export function filesOfTrajectory(traj: TaskTrajectory, runPath: string): string[] {
  const out: string[] = [];
  for (const s of traj.steps)
    for (const p of [s.observation, s.screenshot, s.somObservation, s.a11yTable]) if (p) out.push(p);
  const rec = traj.item.recording;
  if (rec) out.push(runPath && runPath !== '.' ? `${runPath}/${rec}` : rec);
  return out;
}

/**
 * Whether the file `path` (below `root`) may be put in the site: a plain relative path, inside `runDir` lexically
 * and through symlinks, a regular file; else why not. For the many files of one run: each folder's real path is
 * found once, a file's own only when it is a symlink (a regular file's real path is its folder's plus its name).
 */
export function fileChecker(
  root: string,
  runDir: string,
): (path: string) => { file: string } | { why: string } {
  let runReal: string;
  try {
    runReal = realpathSync(runDir);
  } catch {
    return () => ({ why: 'missing' });
  }
  const inRun = (p: string) => p === runReal || p.startsWith(runReal + sep);
  const folders = new Map<string, string | undefined>();
  const realFolder = (dir: string): string | undefined => {
    if (!folders.has(dir)) {
      let real: string | undefined;
      try {
        real = realpathSync(dir);
      } catch {
        real = undefined;
      }
      folders.set(dir, real);
    }
    return folders.get(dir);
  };
  return (path) => {
    if (!plainRelative(path)) return { why: NOT_PLAIN };
    const file = resolve(root, path);
    const rel = relative(resolve(runDir), file);
    if (!rel || rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) return { why: OUTSIDE };
    let st;
    try {
      st = lstatSync(file);
    } catch {
      return { why: 'missing' };
    }
    const folder = realFolder(dirname(file));
    if (!folder) return { why: 'missing' };
    let real = join(folder, basename(file));
    if (st.isSymbolicLink()) {
      try {
        real = realpathSync(file);
        st = statSync(real);
      } catch {
        return { why: 'missing' };
      }
    }
    if (!inRun(real)) return { why: OUTSIDE };
    if (!st.isFile()) return { why: 'not a regular file' };
    return { file };
  };
}

/** Puts `files` below `outDir` (a pool of `parallel` at a time); `link` first, a copy across filesystems. */
export async function putFiles(
  files: SiteFile[],
  outDir: string,
  options: { copy?: boolean; parallel?: number; onFile?: (bytes: number) => void } = {},
): Promise<{ bytes: number; linked: number }> {
  let bytes = 0;
  let linked = 0;
  let canLink = !options.copy;
  const made = new Set<string>();
  let next = 0;
  const one = async (f: SiteFile) => {
    const dest = join(outDir, ...f.path.split('/'));
    const dir = dirname(dest);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    const size = (await stat(f.source)).size;
    let done = false;
    if (canLink) {
      try {
        await link(f.source, dest);
        linked++;
        done = true;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // Another filesystem: copy from now on; a file that cannot be linked (permissions, link count): copy it.
        if (code === 'EXDEV') canLink = false;
        else if (!['EPERM', 'EACCES', 'ENOTSUP', 'EMLINK'].includes(code ?? ''))
          throw new Error(`${dest}: cannot link ${f.source} (${(e as Error).message})`, { cause: e });
      }
    }
    if (!done) await copyFile(f.source, dest, constants.COPYFILE_EXCL);
    bytes += size;
    options.onFile?.(size);
  };
  const worker = async () => {
    while (next < files.length) await one(files[next++]);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel ?? 16) }, worker));
  return { bytes, linked };
}
