import { describe, expect, it } from 'vitest';
import { formatDay, testing } from './chrome-urls';

const { singleDay, fromDay, toDay, day } = testing;
const iso = (d: Date | undefined) => d?.toISOString().slice(0, 10);

describe('rule_relativeTime dates, as OSWorld computes them', () => {
  const sunday = day(2026, 11, 22);
  const wednesday = day(2026, 11, 25);

  it('single dates', () => {
    expect(iso(singleDay('tomorrow', sunday))).toBe('2026-11-23');
    expect(iso(singleDay('5th next month', sunday))).toBe('2026-12-05');
    expect(iso(singleDay('10th next month', day(2026, 12, 15)))).toBe('2027-01-10');
    expect(iso(singleDay('next Monday', sunday))).toBe('2026-11-23');
    expect(iso(singleDay('next Monday', day(2026, 11, 23)))).toBe('2026-11-30');
    expect(iso(singleDay('first monday four months later', sunday))).toBe('2027-03-01');
    expect(iso(singleDay('first monday eight months later', sunday))).toBe('2027-07-05');
    expect(singleDay('this Saturday', sunday)).toBeUndefined(); // upstream has no single-date case for it
  });

  it('ranges, the end depending on the start', () => {
    expect(iso(fromDay('this Saturday', sunday))).toBe('2026-11-21'); // upstream's 5 - weekday: yesterday on a Sunday
    expect(iso(toDay('this Sunday', 'this Saturday', fromDay('this Saturday', sunday), sunday))).toBe(
      '2026-11-22',
    );
    const friday = fromDay('next Friday', sunday);
    expect(iso(friday)).toBe('2026-11-27');
    expect(iso(toDay('next Sunday', 'next Friday', friday, sunday))).toBe('2026-11-29');
    const monday = fromDay('next Monday split', sunday);
    expect(iso(toDay('next Friday split', 'next Monday split', monday, sunday))).toBe('2026-11-27');
    expect(iso(toDay('next Friday', 'tomorrow', fromDay('tomorrow', wednesday), wednesday))).toBe(
      '2026-11-27',
    );
    expect(iso(fromDay('next Saturday', wednesday))).toBe('2026-11-28');
    expect(iso(fromDay('week after next Saturday', wednesday))).toBe('2026-12-12');
    expect(toDay('5th next month', 'tomorrow', undefined, sunday)).toBeUndefined();
  });

  it('formats replace the first occurrence of each placeholder', () => {
    expect(
      formatDay(
        '{DoW}, {Month} {Day0D}, {Year} {DayD}/{MonthD}/{Month0D} {month} {MonthFull}',
        day(2026, 3, 5),
      ),
    ).toBe('Thu, Mar 05, 2026 5/3/03 march March');
    expect(formatDay('{Year}-{Year}', day(2026, 3, 5))).toBe('2026-{Year}');
    expect(() => formatDay(5, day(2026, 3, 5))).toThrow(/must be a string/);
  });
});
