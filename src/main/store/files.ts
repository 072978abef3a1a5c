// Durable file primitives of the run store: whole-line appends, atomic replacement, tolerant JSON-lines reading.
import {
  closeSync,
  fsyncSync,
  openSync,
  renameSync,
  writeSync,
  readFileSync,
  existsSync,
  statSync,
} from 'node:fs';
import { link, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Problem } from '../../shared/task';
import { MAX_JSON_BYTES, parseBoundedJson } from '../bounded-json';

/** Appends one JSON value as one line with a single write(2), so concurrent appenders never interleave a line. */
export function appendJsonLine(file: string, value: unknown, options: { fsync?: boolean } = {}): void {
  const line = Buffer.from(JSON.stringify(value) + '\n', 'utf8');
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, line);
    if (options.fsync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Flushes a file's data to disk (used when a task ends). A missing file is fine. */
export function fsyncPath(file: string): void {
  if (!existsSync(file)) return;
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function tempName(file: string): string {
  return `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Writes `data` whole to a temporary file beside `file` and flushes it; returns the temporary file's path. */
async function flushedTemp(file: string, data: string | Buffer): Promise<string> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = tempName(file);
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return tmp;
}

/** Writes a file so that readers see either the old content or the whole new content, never a part. */
export async function writeFileAtomic(file: string, data: string | Buffer): Promise<void> {
  const tmp = await flushedTemp(file, data);
  try {
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Writes a file once: whole (written to a temporary file, flushed, then hard-linked into place) and never over
 * an existing one. Returns false, writing nothing, when the file already exists (someone committed it first).
 */
export async function writeFileOnce(file: string, data: string | Buffer): Promise<boolean> {
  const tmp = await flushedTemp(file, data);
  try {
    await link(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** The synchronous form of writeFileAtomic, for exit paths that cannot await. */
export function writeFileAtomicSync(file: string, data: string | Buffer): void {
  const tmp = tempName(file);
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export interface JsonLines<T> {
  values: T[];
  problems: Problem[];
}

/**
 * Reads a JSON-lines file. A last line without its newline (a write cut by a crash) is dropped with a warning;
 * any other unreadable line is reported with its line number and skipped. A missing file reads as empty.
 * `skip` passes over lines without parsing them (e.g. step events when only task states are wanted).
 */
export function readJsonLines<T = unknown>(
  file: string,
  options: { skip?: (line: string) => boolean } = {},
): JsonLines<T> {
  const values: T[] = [];
  const problems: Problem[] = [];
  if (!existsSync(file)) return { values, problems };
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  const complete = text.endsWith('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') continue;
    const last = i === lines.length - 1;
    if (options.skip?.(line) && (!last || complete)) continue;
    try {
      values.push(parseBoundedJson<T>(line));
    } catch (e) {
      problems.push({
        file,
        line: i + 1,
        col: 1,
        severity: last && !complete ? 'warning' : 'error',
        message:
          last && !complete
            ? 'the last line is cut short (the writer stopped mid-line); it is ignored'
            : `line ${i + 1} is not JSON (${(e as Error).message}); it is skipped`,
      });
    }
  }
  return { values, problems };
}

/** Reads a JSON file; `undefined` when missing, a Problem when unreadable, too large or nested too deep. */
export function readJsonFile<T = unknown>(file: string): { value?: T; problem?: Problem } {
  if (!existsSync(file)) return {};
  try {
    const size = statSync(file).size;
    if (size > MAX_JSON_BYTES) throw new Error(`${size} bytes is larger than the limit of ${MAX_JSON_BYTES}`);
    return { value: parseBoundedJson<T>(readFileSync(file, 'utf8')) };
  } catch (e) {
    return { problem: { file, severity: 'error', message: `not readable JSON: ${(e as Error).message}` } };
  }
}
