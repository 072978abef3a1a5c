// The one pause: on time, early on abort (rejecting with the caller's error or the signal's reason), and the
// variant that resolves when aborted.
import { describe, expect, it } from 'vitest';
import { sleep, sleepUnlessAborted } from './sleep';

describe('sleep', () => {
  it('waits about the time asked', async () => {
    const t0 = performance.now();
    await sleep(40);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
  });

  it('rejects at once when aborted, with the error the caller names or the signal reason', async () => {
    const c = new AbortController();
    const t0 = performance.now();
    const p = sleep(10_000, c.signal, () => new Error('cancelled'));
    setTimeout(() => c.abort(), 10);
    await expect(p).rejects.toThrow('cancelled');
    expect(performance.now() - t0).toBeLessThan(5000);
    const done = new AbortController();
    done.abort(new Error('stopped by a person'));
    await expect(sleep(10_000, done.signal)).rejects.toThrow('stopped by a person');
  });

  it('resolves early without an error in the unless-aborted form', async () => {
    const c = new AbortController();
    const p = sleepUnlessAborted(10_000, c.signal);
    c.abort();
    await expect(p).resolves.toBeUndefined();
  });
});
