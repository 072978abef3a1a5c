// vm_file over the local shell environment: multi with `gives` (default [0]), missing entries, and `time_suffix` /
// `time_format` naming the cache copy (the guest path is read as written).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { getters } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { strftime } from './file';

describe('vm_file over the local shell environment', () => {
  let env: ShellEnvironment;
  let dir: string;
  let n = 0;
  const ctx = (): GradingContext => ({
    env,
    task: { dir, file: join(dir, 't.json') } as Task,
    cacheDir: join(dir, `cache-${++n}`),
  });
  const vmFile = (spec: Record<string, unknown>, c = ctx()) =>
    getters.require('vm_file')({ type: 'vm_file', ...spec }, c);
  const paths = ['/home/user/Desktop/a.txt', '/home/user/Desktop/b.txt', '/home/user/Desktop/c.txt'];
  const dests = ['a.txt', 'b.txt', 'c.txt'];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-vm-file-'));
    env = await createShellEnvironment();
    await env.putFile(paths[0], Buffer.from('A'));
    await env.putFile(paths[1], Buffer.from('B'));
    await env.putFile(
      '/home/user/Test/Speed/Speedtest Results Export-.csv',
      Buffer.from('ID,Date\n1,11/23/2026 00:40\n'),
    );
  });
  afterAll(async () => {
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('multi without gives returns only the first file, but copies every file to the cache', async () => {
    const c = ctx();
    const got = await vmFile({ multi: true, path: paths.slice(0, 2), dest: dests.slice(0, 2) }, c);
    expect(typeof got).toBe('string');
    expect(readFileSync(got as string, 'utf8')).toBe('A');
    expect(readFileSync(join(c.cacheDir, 'b.txt'), 'utf8')).toBe('B');
  });

  it('multi with gives returns the given indexes in path order: one alone, several as a list, undefined for a missing file', async () => {
    expect(
      readFileSync((await vmFile({ multi: true, path: paths, dest: dests, gives: [1] })) as string, 'utf8'),
    ).toBe('B');
    const list = (await vmFile({ multi: true, path: paths, dest: dests, gives: [2, 0] })) as (
      string | undefined
    )[];
    expect(list).toHaveLength(2);
    expect(readFileSync(list[0]!, 'utf8')).toBe('A');
    expect(list[1]).toBeUndefined();
    expect(await vmFile({ multi: true, path: paths, dest: dests, gives: [2] })).toBeUndefined();
    expect(await vmFile({ multi: true, path: paths, dest: dests, gives: [] })).toEqual([]);
  });

  it('a multi spec whose lists differ in length is an error naming the getter', async () => {
    await expect(vmFile({ multi: true, path: paths, dest: dests.slice(0, 1) })).rejects.toThrow(
      /vm_file.*3 paths but 1 dests/,
    );
  });

  it('time_suffix names the cache copy <stem>_<time><ext>, by time_format (default %Y%m%d_%H%M%S)', async () => {
    const path = '/home/user/Test/Speed/Speedtest Results Export-.csv';
    const before = strftime('%Y%m%d_%H%M');
    const got = (await vmFile({ path, dest: 'Speedtest Results Export-.csv', time_suffix: true })) as string;
    expect(basename(got)).toMatch(/^Speedtest_Results_Export-_\d{8}_\d{6}\.csv$/);
    expect([before, strftime('%Y%m%d_%H%M')]).toContain(
      basename(got).slice('Speedtest_Results_Export-_'.length, -'00.csv'.length),
    );
    expect(readFileSync(got, 'utf8')).toContain('ID,Date');
    const day = (await vmFile({
      path,
      dest: 'export.csv',
      time_suffix: true,
      time_format: '%Y-%m-%d',
    })) as string;
    expect(basename(day)).toBe(`export_${strftime('%Y-%m-%d')}.csv`);
    // Without time_suffix the dest is used as written; a file named with a suffix on the guest is not looked for.
    expect(basename((await vmFile({ path, dest: 'plain.csv' })) as string)).toBe('plain.csv');
    expect(
      await vmFile({ path: '/home/user/Test/Speed/none.csv', dest: 'none.csv', time_suffix: true }),
    ).toBeUndefined();
  });

  it('strftime formats as Python does for the supported directives and refuses the others', () => {
    const at = new Date(2026, 0, 5, 9, 7, 3, 25);
    expect(strftime('%Y%m%d_%H%M%S', at)).toBe('20260105_090703');
    expect(strftime('%y %j %I%p %a %b %B %A %f %%', at)).toBe('26 005 09AM Mon Jan January Monday 025000 %');
    expect(() => strftime('%Q', at)).toThrow(/%Q/);
  });

  it('a single spec still copies the file and names a missing one undefined', async () => {
    const c = ctx();
    const got = (await vmFile({ path: paths[1], dest: 'copy.txt' }, c)) as string;
    expect(got).toBe(join(c.cacheDir, 'copy.txt'));
    expect(existsSync(got)).toBe(true);
    expect(await vmFile({ path: paths[2], dest: 'c.txt' })).toBeUndefined();
  });
});
