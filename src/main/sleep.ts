// The one pause of the engine: resolves after `ms`; given a signal, ends early when it is aborted — by rejecting
// with what `cancelled` makes (default: the signal's reason), or, with `sleepUnlessAborted`, by resolving.

/** Waits `ms`; rejects with `cancelled()` as soon as `signal` is aborted (also when it already is). */
export function sleep(
  ms: number,
  signal?: AbortSignal,
  cancelled: () => unknown = () => signal?.reason ?? new Error('aborted'),
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits `ms`, or less when `signal` is aborted: it resolves either way (the caller looks at the signal after). */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return sleep(ms, signal).catch(() => undefined);
}
