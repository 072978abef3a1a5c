// Test helpers: archives and databases made by Debian's own command-line tools — Info-ZIP's `zip -r` over folders
// the test writes, and the `sqlite3` shell — so the metrics read files as those tools save them. Tests skip where a
// tool is not installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
export const hasZip = has('zip');
export const hasSqlite3 = has('sqlite3');

/** Writes `files` (relative path → text, in the given order) under `<dir>/<name>.src/`, then zips them with
 * `zip -r <dir>/<name>.zip <top folders and files…>` run in that folder, adding them in the order they were
 * first listed; the archive's path. */
export function zipWithInfoZip(dir: string, name: string, files: Record<string, string>): string {
  const root = join(dir, `${name}.src`);
  rmSync(root, { recursive: true, force: true });
  const tops: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    const top = path.split('/')[0];
    if (!tops.includes(top)) tops.push(top);
  }
  const out = join(dir, `${name}.zip`);
  rmSync(out, { force: true });
  execFileSync('zip', ['-q', '-r', out, ...tops], { cwd: root });
  return out;
}

/** Runs `sql` with the `sqlite3` shell on a new database `<dir>/<name>`; the database's path. */
export function sqliteWithCli(dir: string, name: string, sql: string): string {
  const out = join(dir, name);
  rmSync(out, { force: true });
  execFileSync('sqlite3', ['-batch', out], { input: sql });
  return out;
}
