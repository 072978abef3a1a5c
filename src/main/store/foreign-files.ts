// Files from result folders other people wrote (Spider2-V, UFO): checked before a step points the UI at them.
// A file is offered only when it is a regular file inside the run folder (no symlink out of it) and not larger
// than the limit; anything else becomes a Problem that names the file and what to do.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Problem } from '../../shared/task';
import { parseBoundedJson } from '../bounded-json';

/** Largest screenshot (or tree file) read from another tool's folder; the UI checks pixel sizes itself. */
export const MAX_FOREIGN_FILE_BYTES = 20 * 1024 * 1024;

const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;

export interface ForeignFileOptions {
  /** What the file is, for messages (`screenshot`, `accessibility tree`). */
  what: string;
  /** Step the file belongs to, for messages. */
  step?: number;
  /** Report a missing file (default true); false for optional variants. */
  reportMissing?: boolean;
  maxBytes?: number;
}

/**
 * `rel` (relative to `runDir`) when that file may be shown; otherwise `undefined`, with a Problem pushed for a
 * file that is missing (when asked), not a regular file, outside the run folder, or over the size limit.
 */
export function checkedForeignFile(
  runDir: string,
  rel: string,
  problems: Problem[],
  options: ForeignFileOptions,
): string | undefined {
  const file = join(runDir, rel);
  const where = options.step === undefined ? '' : ` (step ${options.step})`;
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) {
      problems.push({
        file,
        severity: 'warning',
        message: `${options.what}${where} is not a regular file; it is not shown`,
      });
      return undefined;
    }
    size = st.size;
  } catch {
    if (options.reportMissing !== false)
      problems.push({
        file,
        severity: 'warning',
        message: `${options.what}${where} is missing; the step is shown without it`,
      });
    return undefined;
  }
  try {
    const real = realpathSync(file);
    const inside = relative(realpathSync(runDir), real);
    if (inside.startsWith('..') || inside.startsWith(sep) || inside === '') throw new Error('outside');
  } catch {
    problems.push({
      file,
      severity: 'error',
      message: `${options.what}${where} links outside the run folder; it is not shown (copy the file into the folder instead)`,
    });
    return undefined;
  }
  const max = options.maxBytes ?? MAX_FOREIGN_FILE_BYTES;
  if (size > max) {
    problems.push({
      file,
      severity: 'error',
      message: `${options.what}${where} is ${mb(size)}, over the ${mb(max)} limit for files from other tools' folders; it is not shown (shrink or re-encode it)`,
    });
    return undefined;
  }
  return rel;
}

export interface NumberedLine<T> {
  /** 1-based line number in the file. */
  line: number;
  value: T;
}

/**
 * Reads a JSON-lines file written by another tool, keeping each value's line number for messages. A last line
 * without its newline (a write cut short) is dropped with a warning; other unreadable lines are reported and
 * skipped. A missing file reads as empty.
 */
export function readNumberedJsonLines<T = unknown>(
  file: string,
): { values: NumberedLine<T>[]; problems: Problem[] } {
  const values: NumberedLine<T>[] = [];
  const problems: Problem[] = [];
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { values, problems };
  }
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  lines.forEach((raw, i) => {
    if (raw.trim() === '') return;
    const cut = i === lines.length - 1 && !complete;
    try {
      values.push({ line: i + 1, value: parseBoundedJson<T>(raw) });
    } catch (e) {
      problems.push({
        file,
        line: i + 1,
        col: 1,
        severity: cut ? 'warning' : 'error',
        message: cut
          ? 'the last line is cut short (the writer stopped mid-line); it is ignored'
          : `line ${i + 1} is not JSON (${(e as Error).message}); it is skipped`,
      });
    }
  });
  return { values, problems };
}

/** Sub-folders of `dir` (not hidden, not a resume's `<task>.partial-<n>`), sorted; none when it cannot be read. */
export function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !/\.partial-\d+$/.test(e.name))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}
