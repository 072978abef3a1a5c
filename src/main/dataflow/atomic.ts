// Atomic JSON writes: a temp file in the target folder, then rename (replace) or link (never replace).
import { randomBytes } from 'node:crypto';
import { link, mkdir, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export class TargetExistsError extends Error {
  constructor(readonly target: string) {
    super(`${target} already exists`);
    this.name = 'TargetExistsError';
  }
}

/**
 * Write `value` as JSON to `target` atomically. With `replace: false` an existing target is never touched
 * (the final step is a hard link, which fails if the name exists) and TargetExistsError is thrown.
 */
export async function writeJsonAtomic(
  target: string,
  value: unknown,
  options: { replace: boolean },
): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  await writeFile(tmp, JSON.stringify(value, null, 2) + '\n', { flag: 'wx' });
  try {
    if (options.replace) {
      await rename(tmp, target);
      return;
    }
    try {
      await link(tmp, target);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new TargetExistsError(target);
      throw e;
    }
    await unlink(tmp);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
