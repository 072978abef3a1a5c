import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TargetExistsError, writeJsonAtomic } from './atomic';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'proctor-atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('does not replace an existing file unless asked, and leaves no temp file behind either way', async () => {
  const target = join(dir, 'a', 'r.json');
  await writeJsonAtomic(target, { v: 1 }, { replace: false });
  await expect(writeJsonAtomic(target, { v: 2 }, { replace: false })).rejects.toBeInstanceOf(
    TargetExistsError,
  );
  expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ v: 1 });
  await writeJsonAtomic(target, { v: 3 }, { replace: true });
  expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ v: 3 });
  expect(await readdir(join(dir, 'a'))).toEqual(['r.json']);
});

it('two concurrent no-replace writes of the same name: exactly one wins', async () => {
  const target = join(dir, 'same.json');
  await writeFile(join(dir, 'other.json'), '{}');
  const results = await Promise.allSettled(
    [1, 2, 3, 4].map((v) => writeJsonAtomic(target, { v }, { replace: false })),
  );
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
  expect(
    results.filter((r) => r.status === 'rejected' && r.reason instanceof TargetExistsError),
  ).toHaveLength(3);
  expect((await readdir(dir)).sort()).toEqual(['other.json', 'same.json']);
});
