// SHA-256 of files and of a list of file hashes (a task set), and the walk of a folder's regular files.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** One hash for a set of files: SHA-256 of the sorted `<sha256>  <path>\n` lines (as `sha256sum` prints them). */
export function setHash(entries: { path: string; sha256: string }[]): string {
  const lines = entries.map((e) => `${e.sha256}  ${e.path}\n`).sort();
  return sha256(lines.join(''));
}

export interface WalkedFile {
  /** Path relative to the walked folder, with `/`. */
  rel: string;
  abs: string;
  size: number;
}

/** Regular files below `dir` in a stable order; symlinks and other non-files are returned apart, never followed. */
export async function walkFiles(dir: string): Promise<{ files: WalkedFile[]; skipped: string[] }> {
  const files: WalkedFile[] = [];
  const skipped: string[] = [];
  const walk = async (abs: string, rel: string) => {
    const names = (await readdir(abs)).sort();
    for (const name of names) {
      const a = join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = await lstat(a);
      if (st.isDirectory()) await walk(a, r);
      else if (st.isFile()) files.push({ rel: r, abs: a, size: st.size });
      else skipped.push(r);
    }
  };
  await walk(dir, '');
  return { files, skipped };
}
