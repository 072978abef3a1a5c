// Removing a folder an app was writing into. A browser's helper processes can still be writing its profile for
// a moment after the browser itself has exited, so a single recursive remove can fail with ENOTEMPTY (a file
// appeared after the folder was emptied). This retries for a bounded time instead of failing a close.
import { rm } from 'node:fs/promises';

const RETRYABLE = new Set(['ENOTEMPTY', 'EBUSY', 'EPERM', 'EMFILE', 'ENFILE']);

/** Removes `path` and everything below it; retries while something is still writing (at most `ms`). Missing is
 * fine. Throws the last error, naming the folder, when it cannot be removed in time. */
export async function removeTree(path: string, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
    try {
      await rm(path, { recursive: true, force: true });
      return;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (!RETRYABLE.has(code) || Date.now() + delay > until)
        throw new Error(`could not remove ${path}: ${(e as Error).message}`, { cause: e });
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}
