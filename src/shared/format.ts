// How numbers are shown to people — durations, token counts, costs, rates — the same in the UI, the report and
// the CLI. Pure (no Node, no DOM). Missing or non-finite values show as a dash, never as `NaN` or `undefined`.

export const NONE = '–';

const missing = (n: number | undefined | null): n is undefined | null =>
  n === undefined || n === null || !Number.isFinite(n);

/** `0.4 ms`, `13 ms`, `1.2 s`, `2m 05s`, `1h 02m` from milliseconds. */
export function formatDuration(ms: number | undefined | null): string {
  if (missing(ms)) return NONE;
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms < 10) return `${Number(ms.toFixed(1))} ms`;
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** `12,345` tokens (whole numbers, grouped). */
export function formatTokens(n: number | undefined | null): string {
  if (missing(n)) return NONE;
  return Math.round(n).toLocaleString('en-US');
}

/** `$0.0123`, `$1.23` (US dollars; four decimals under a dollar, where model prices live). */
export function formatCost(usd: number | undefined | null): string {
  if (missing(usd)) return NONE;
  if (usd < 0) return `-${formatCost(-usd)}`;
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** `42.9%` from a rate of 0…1. */
export function formatPercent(rate: number | undefined | null): string {
  if (missing(rate)) return NONE;
  return `${(rate * 100).toFixed(1)}%`;
}

/** A score of 0…1 as people read it: `1`, `0`, `0.67` (at most three decimals, no float noise). */
export function formatScore(score: number | undefined | null): string {
  if (missing(score)) return NONE;
  return String(Number(score.toFixed(3)));
}
