// Where a task's own files (gold files, eval scripts) live on the host. Spider2-V / OSWorld tasks name them
// relative to the upstream repository (`evaluation_examples/examples/<app>/<uuid>/gold.csv`); native tasks
// name them relative to the task folder. Either way the result must stay inside the task set's folder.
import { basename, dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Task } from '../../shared/task';

const upstreamPrefix = /^(?:\.\/)?evaluation_examples\/examples\//;

/**
 * The `examples` folder of the task's set: Spider2-V and the native shape nest a task in its own folder
 * (`examples/<app>/<uuid>/<uuid>.json`), OSWorld keeps it flat (`examples/<domain>/<uuid>.json`).
 */
function examplesFolder(task: Task): string {
  const nested = basename(task.dir) === basename(task.file, extname(task.file));
  return nested ? dirname(dirname(task.dir)) : dirname(task.dir);
}

/** The host path of a task file named in a task; throws when it escapes the task set. */
export function taskFilePath(task: Task, name: string): string {
  if (isAbsolute(name))
    throw new Error(`${task.file}: '${name}' is absolute; task files are named relative to the task`);
  let root: string;
  let path: string;
  if (upstreamPrefix.test(name)) {
    root = examplesFolder(task);
    path = resolve(root, name.replace(upstreamPrefix, ''));
  } else if (/^(?:\.\/)?evaluation_examples\//.test(name)) {
    root = dirname(examplesFolder(task));
    path = resolve(root, name.replace(/^(?:\.\/)?evaluation_examples\//, ''));
  } else {
    root = task.dir;
    path = resolve(task.dir, name);
  }
  const rel = relative(root, path);
  if (rel.startsWith('..' + sep) || rel === '..' || isAbsolute(rel)) {
    throw new Error(`${task.file}: '${name}' points outside the task folder ${root}`);
  }
  return path;
}

/** A file name for a fetched copy: the last segment of `dest`, without anything that could escape. */
export function safeFileName(dest: string | undefined, fallback: string): string {
  const base = (dest ?? '').split(/[\\/]/).filter(Boolean).pop() ?? '';
  const clean = base.replace(/[^\w.\-+@]/g, '_').replace(/^\.+/, '');
  return clean || fallback;
}
