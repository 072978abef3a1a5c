// Temporary folders of sandbox sessions carry their owner's pid in their name (`proctor-home-<pid>-…`), so what a
// SIGKILLed Proctor left behind (sandbox homes, display runtime folders) can be found and removed by the next run.
import { readdirSync } from 'node:fs';
import { removeTree } from './remove-tree';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processAlive as alive } from '../process-alive';

export type LeftoverKind = 'home' | 'xdg';

const PATTERN = /^proctor-(home|xdg)-(\d+)-/;

/** The mkdtemp prefix for a folder of this process (`<tmp>/proctor-<kind>-<pid>-`). */
export function ownedTempPrefix(kind: LeftoverKind, dir = tmpdir()): string {
  return join(dir, `proctor-${kind}-${process.pid}-`);
}

/** Removes sandbox folders whose owning process is dead; returns the folders removed. */
export async function sweepLeftovers(dir = tmpdir()): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const m = PATTERN.exec(name);
    if (!m) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || alive(pid)) continue;
    const path = join(dir, name);
    await removeTree(path, 2000).then(
      () => removed.push(path),
      () => undefined,
    );
  }
  return removed;
}
