// A task set's declared properties: `task-set.json` in a task's folder or up to three folders above it, e.g.
// `{"screen": "1280x800"}` for tasks authored at that size (their oracles click at fixed places). Every way of
// running the tasks (UI, `proctor run`, the queue, `proctor demo`) reads it through the task loader.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseScreen, type ScreenSize } from '../../shared/screen';

export const TASK_SET_FILE = 'task-set.json';
/** Folders above a task file's own that are searched for a declaration. */
const LEVELS_UP = 3;

export interface TaskSetDeclaration {
  /** The declaration file. */
  file: string;
  screen?: ScreenSize;
}

export class TaskSetError extends Error {}

const cache = new Map<string, TaskSetDeclaration | null>();

/** The nearest declaration for a task file; undefined when none. Throws TaskSetError naming the file and field. */
export function taskSetOf(taskFile: string): TaskSetDeclaration | undefined {
  let dir = dirname(taskFile);
  for (let i = 0; i <= LEVELS_UP; i++) {
    const file = join(dir, TASK_SET_FILE);
    if (existsSync(file)) return readDeclaration(file);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

function readDeclaration(file: string): TaskSetDeclaration {
  const hit = cache.get(file);
  if (hit) return hit;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new TaskSetError(`${file}: not JSON (${(e as Error).message}); write e.g. {"screen": "1280x800"}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new TaskSetError(`${file}: an object is expected, e.g. {"screen": "1280x800"}`);
  const decl: TaskSetDeclaration = { file };
  const screen = (json as Record<string, unknown>).screen;
  if (screen !== undefined) {
    const size = typeof screen === 'string' ? parseScreen(screen) : undefined;
    if (!size)
      throw new TaskSetError(
        `${file}: /screen must be WIDTHxHEIGHT from 320x200 to 8192x8192, e.g. "1280x800" (found ${JSON.stringify(screen)})`,
      );
    decl.screen = size;
  }
  cache.set(file, decl);
  return decl;
}
