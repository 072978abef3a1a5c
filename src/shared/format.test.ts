import { describe, expect, it } from 'vitest';
import { formatCost, formatDuration, formatPercent, formatScore, formatTokens, NONE } from './format';
import { gradedCount, successRateOf } from './grading';

describe('number formatting shared by the UI, the report and the CLI', () => {
  it('formats durations from milliseconds without float noise', () => {
    expect(formatDuration(12.988740000000234)).toBe('13 ms');
    expect(formatDuration(0.43)).toBe('0.4 ms');
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(999.4)).toBe('999 ms');
    expect(formatDuration(999.6)).toBe('1.0 s');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(59_960)).toBe('1m 00s'); // never `60.0 s` or `0m 60s`
    expect(formatDuration(119_600)).toBe('2m 00s');
    expect(formatDuration(125_000)).toBe('2m 05s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
    expect(formatDuration(-1500)).toBe('-1.5 s');
  });

  it('formats tokens, costs, rates and scores', () => {
    expect(formatTokens(1234567.4)).toBe('1,234,567');
    expect(formatTokens(12)).toBe('12');
    expect(formatCost(0.012345)).toBe('$0.0123');
    expect(formatCost(3.456)).toBe('$3.46');
    expect(formatCost(0)).toBe('$0.0000');
    expect(formatPercent(1 / 3)).toBe('33.3%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatScore(0.1 + 0.2)).toBe('0.3');
    expect(formatScore(2 / 3)).toBe('0.667');
    expect(formatScore(1)).toBe('1');
  });

  it('shows a dash for missing or non-finite values', () => {
    for (const f of [formatDuration, formatTokens, formatCost, formatPercent, formatScore]) {
      expect(f(undefined)).toBe(NONE);
      expect(f(null)).toBe(NONE);
      expect(f(Number.NaN)).toBe(NONE);
      expect(f(Number.POSITIVE_INFINITY)).toBe(NONE);
    }
  });
});

describe('success rates by rule score or by judge', () => {
  const tasks = [
    { score: 1, judge: 'no' as const },
    { score: 0, judge: 'yes' as const },
    { judge: 'yes' as const },
    {},
  ];
  it('counts every task, ungraded ones as 0', () => {
    expect(successRateOf(tasks)).toBe(0.25);
    expect(gradedCount(tasks)).toBe(2);
    expect(successRateOf(tasks, 'judge')).toBe(0.5);
    expect(gradedCount(tasks, 'judge')).toBe(3);
    expect(successRateOf([], 'judge')).toBeUndefined();
  });
});
