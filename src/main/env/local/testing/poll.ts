// Test helper: waiting for a condition on a real app or display, never a fixed sleep where a condition exists.

/** Calls `probe` every `everyMs` until it gives a value (not undefined); throws naming `what` after `ms`. */
export async function poll<T>(
  what: string,
  ms: number,
  probe: () => T | undefined | Promise<T | undefined>,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
