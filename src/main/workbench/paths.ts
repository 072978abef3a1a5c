// Paths that come from a client are relative to the served root and must stay below it.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { listRuns } from '../store';
import { ApiRequestError } from './api-error';

/** Resolves a client path below `root`; refuses anything that escapes it (also through symlinks). */
export function resolveBelow(root: string, clientPath: string): string {
  const rootReal = realpathSync(root);
  const target = resolve(rootReal, clientPath.replace(/^\/+/, ''));
  let real = target;
  try {
    real = realpathSync(target);
  } catch {
    // not there (yet): check the lexical path
  }
  for (const p of [target, real]) {
    const rel = relative(rootReal, p);
    if (rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
      throw new ApiRequestError('forbidden', `path '${clientPath}' is outside the served folder`);
    }
  }
  return target;
}

export function relativeToRoot(root: string, path: string): string {
  return relative(realpathSync(root), path).split(sep).join('/');
}

/** A run's folder, named by its folder below the root (what runs.list gives as `path`) or by its runId. */
export function runDirBelow(root: string, runId: string): string {
  const dir = resolveBelow(root, runId);
  if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
  const found = listRuns(root).find((r) => r.runId === runId);
  if (!found) throw new ApiRequestError('not_found', `no run '${runId}' below the served folder`);
  return resolveBelow(root, found.path);
}
