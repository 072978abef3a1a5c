import { describe, expect, it } from 'vitest';
import { frameOf, framesEqual, pySplitLines, pyStrip, roundFrame, roundHalfEven } from './pandas-frame';

describe('Python and pandas behaviour the faithful profiles rest on', () => {
  it('str.splitlines: CRLF, CR, LF, \\v, \\f, \\x1c–\\x1e, \\x85, U+2028 end lines; a final break adds no line', () => {
    expect(pySplitLines('a\r\nb\rc\nd\ve\ff\x1cg\x85h\u2028i\n')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
    ]);
    expect(pySplitLines('a\n\n')).toEqual(['a', '']);
    expect(pySplitLines('')).toEqual([]);
  });
  it('str.strip keeps a byte-order mark (JavaScript trim drops it) and strips \\x1c and \\x85', () => {
    expect(pyStrip('\uFEFF a ')).toBe('\uFEFF a');
    expect(pyStrip('\x1c a\x85')).toBe('a');
  });
  it("numpy's round is half to even", () => {
    expect([0.5, 1.5, 2.5, -2.5, 2.6].map((x) => roundHalfEven(x, 0))).toEqual([0, 2, 2, -2, 3]);
    expect(roundHalfEven(1.23456, 4)).toBe(1.2346);
  });
  it('read_csv type inference: int64 without NA, float64 with NA or decimals, bool, object; NA strings', () => {
    const f = frameOf([
      ['i', 'f', 'b', 'o', 'n', ''],
      ['1', '1.5', 'True', 'x', 'NA', '1'],
      [' 2', '', 'false', '2', '3', '1'],
    ]);
    expect(f.columns.map((c) => [c.label, c.dtype])).toEqual([
      ['i', 'int64'],
      ['f', 'float64'],
      ['b', 'bool'],
      ['o', 'object'],
      ['n', 'float64'],
      ['Unnamed: 5', 'int64'],
    ]);
  });
  it('DataFrame.equals: dtypes must match (10 vs 10.0), NaN equals NaN, round() leaves object columns', () => {
    expect(framesEqual(frameOf([['a'], ['10']]), frameOf([['a'], ['10.0']]))).toMatch(/int64 vs float64/);
    expect(
      framesEqual(
        frameOf([
          ['a', 'b'],
          ['', 'x'],
        ]),
        frameOf([
          ['a', 'b'],
          ['NA', 'x'],
        ]),
      ),
    ).toBe(true);
    expect(
      framesEqual(roundFrame(frameOf([['a'], ['2.6']]), 0), roundFrame(frameOf([['a'], ['3.4']]), 0)),
    ).toBe(true);
  });
});
