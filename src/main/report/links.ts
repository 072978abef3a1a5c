// Links from `proctor report --compare` into the workbench: the folder to serve (the runs' closest common
// parent) and, per flipped task, the side-by-side route of the two runs below it.
import { dirname, relative, resolve, sep } from 'node:path';
import { compareLink } from '../../shared/links';

export interface CompareLinks {
  /** The folder `proctor serve` should serve so every run is below it. */
  serveRoot: string;
  /** Each run's folder relative to serveRoot, with '/' separators (as the UI names runs). */
  runPaths: string[];
}

/** The closest folder holding every run folder (never one of the runs itself), and the runs below it. */
export function compareLinksFor(runDirs: readonly string[]): CompareLinks {
  const dirs = runDirs.map((d) => resolve(d));
  let root = dirs[0] ?? resolve('.');
  for (const d of dirs)
    while (root !== dirname(root) && d !== root && !d.startsWith(root.endsWith(sep) ? root : root + sep))
      root = dirname(root);
  if (dirs.includes(root) && root !== dirname(root)) root = dirname(root);
  return { serveRoot: root, runPaths: dirs.map((d) => relative(root, d).split(sep).join('/') || '.') };
}

/** The side-by-side route of a task in run 1 and run `other` (0-based), to add after the served address. */
export function flippedTaskLink(links: CompareLinks, other: number, taskKey: string): string {
  return compareLink([links.runPaths[0], links.runPaths[other]], taskKey);
}
