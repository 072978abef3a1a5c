// A path shown to the user: relative to the current folder when that is shorter, else absolute.
import { relative } from 'node:path';

/**
 * A path as the user would type it: relative to the current folder when that is shorter, else absolute. With
 * `belowOnly`, relative only when it lies below the current folder (for paths the user is told to copy).
 */
export function shownPath(path: string, options: { belowOnly?: boolean } = {}): string {
  const rel = relative(process.cwd(), path);
  if (options.belowOnly) return rel && !rel.startsWith('..') && !rel.startsWith('/') ? rel : path;
  if (rel === '') return '.';
  return rel.startsWith('/') || rel.length > path.length ? path : rel;
}
