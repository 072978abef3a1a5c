// Finding and reading the JSON files of a path list (files and folders, walked in a stable order). Only regular
// files are read (a FIFO would block forever); symbolic links are followed only while they stay inside the folder
// being walked; whatever is passed over is said, as a warning naming it.
import type { Dirent, Stats } from 'node:fs';
import { existsSync } from 'node:fs';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Problem } from '../../shared/task';
import { isInside } from '../contained';
import { files as runFiles } from '../store/layout';
import { jsonTypeOf, maxJsonDepth, nestedDeeperThan, parseJsonText } from '../schemas';

const skippedDirs = new Set(['node_modules', '.git']);

export interface WalkOptions {
  /** Pass over Proctor run folders (a folder holding manifest.json): the task browser reads tasks, not runs. */
  skipRunFolders?: boolean;
}

/** A Proctor run folder: its manifest.json is there. */
export function isRunFolder(dir: string): boolean {
  return existsSync(join(dir, runFiles.manifest));
}

function nonRegular(s: Stats | Dirent): string {
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isSocket()) return 'a socket';
  if (s.isBlockDevice() || s.isCharacterDevice()) return 'a device';
  return 'not a regular file';
}

const skippedNote = (file: string, what: string): Problem => ({
  file,
  severity: 'warning',
  message: `${what}: skipped (only regular files are read)`,
});

interface Walk {
  files: string[];
  notes: Problem[];
  seen: Set<string>;
}

async function walkInto(dir: string, root: string, w: Walk, options: WalkOptions): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = join(dir, e.name);
    let isDir = e.isDirectory();
    let isFile = e.isFile();
    if (e.isSymbolicLink()) {
      let target: Stats;
      try {
        target = await stat(full);
      } catch {
        w.notes.push({
          file: full,
          severity: 'warning',
          message: 'symbolic link to nothing (its target is missing): skipped',
        });
        continue;
      }
      isDir = target.isDirectory();
      isFile = target.isFile();
      if (isDir && (skippedDirs.has(e.name) || e.name.startsWith('.'))) continue;
      if (!isInside(root, full)) {
        // The target is not named: the walk may serve a remote client, which must learn nothing outside the root.
        w.notes.push({
          file: full,
          severity: 'warning',
          message: `symbolic link ${isDir ? 'to a folder ' : ''}outside the folder being read: not followed`,
        });
        continue;
      }
      if (!isDir && !isFile) {
        w.notes.push(skippedNote(full, `symbolic link to ${nonRegular(target)}`));
        continue;
      }
    }
    if (isDir) {
      if (skippedDirs.has(e.name) || e.name.startsWith('.')) continue;
      if (options.skipRunFolders && isRunFolder(full)) continue;
      const real = await realpath(full);
      if (w.seen.has(real)) {
        if (e.isSymbolicLink())
          w.notes.push({
            file: full,
            severity: 'warning',
            message: `symbolic link to ${relative(root, real) || '.'}, a folder already read: skipped`,
          });
        continue;
      }
      w.seen.add(real);
      await walkInto(full, root, w, options);
    } else if (isFile) w.files.push(full);
    else w.notes.push(skippedNote(full, nonRegular(e)));
  }
}

/** Every regular file under `dir` (sorted, recursive), skipping dot folders and node_modules; `notes` say what was passed over. */
export async function walkFiles(
  dir: string,
  options: WalkOptions = {},
): Promise<{ files: string[]; notes: Problem[] }> {
  const root = resolve(dir);
  const w: Walk = { files: [], notes: [], seen: new Set([await realpath(root)]) };
  if (options.skipRunFolders && isRunFolder(root)) return w;
  await walkInto(root, root, w, options);
  return w;
}

/**
 * Expand paths: folders are walked, files are kept; a missing path becomes a problem (an error); non-regular
 * files and links left unfollowed become `skipped` (warnings). Paths come back absolute.
 */
export async function expandPaths(
  paths: string[],
  options: WalkOptions = {},
): Promise<{ files: string[]; problems: Problem[]; skipped: Problem[] }> {
  const files: string[] = [];
  const problems: Problem[] = [];
  const skipped: Problem[] = [];
  for (const p of paths) {
    const abs = resolve(p);
    let s: Stats;
    try {
      s = await stat(abs);
    } catch {
      problems.push({ file: abs, severity: 'error', message: 'no such file or folder' });
      continue;
    }
    if (s.isDirectory()) {
      const walked = await walkFiles(abs, options);
      files.push(...walked.files);
      skipped.push(...walked.notes);
    } else if (s.isFile()) files.push(abs);
    else skipped.push(skippedNote(abs, nonRegular(s)));
  }
  return { files: [...new Set(files)], problems, skipped };
}

export type JsonRead = { ok: true; value: unknown; text: string } | { ok: false; problem: Problem };

/** Read and parse a JSON file; syntax errors carry line:col; a document nested too deep is a problem, never walked. */
export async function readJsonFile(file: string): Promise<JsonRead> {
  let text: string;
  try {
    const s = await stat(file);
    if (!s.isFile()) return { ok: false, problem: skippedNote(file, nonRegular(s)) };
    text = await readFile(file, 'utf8');
  } catch (e) {
    return {
      ok: false,
      problem: { file, severity: 'error', message: `cannot read file: ${(e as Error).message}` },
    };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { line, col, message } = parsed.error;
    return {
      ok: false,
      problem: { file, line, col, severity: 'error', message: `JSON syntax error: ${message}` },
    };
  }
  if (nestedDeeperThan(parsed.value)) {
    return {
      ok: false,
      problem: {
        file,
        pointer: '',
        severity: 'error',
        message: `${jsonTypeOf(parsed.value)} nested more than ${maxJsonDepth} levels deep: not read (no Proctor file nests that deep)`,
      },
    };
  }
  return { ok: true, value: parsed.value, text };
}
