import { describe, expect, it } from 'vitest';
import { csvRecords } from './csv-records';

describe('csvRecords', () => {
  const cases: [string, string[][] | RegExp][] = [
    [
      'a,b\n1,2\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      'a,b\r\n1,2\r\n',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      '\uFEFFa,b\r1,2',
      [
        ['a', 'b'],
        ['1', '2'],
      ],
    ],
    [
      '"a","b"\n"x, y","z""q"\n',
      [
        ['a', 'b'],
        ['x, y', 'z"q'],
      ],
    ],
    ['a\n\nb\n', [['a'], ['b']]],
    [
      'a,\n,b',
      [
        ['a', ''],
        ['', 'b'],
      ],
    ],
    ['x"y,z\n', [['x"y', 'z']]],
    ['"a\nb",c\n', [['a\nb', 'c']]],
    ['', []],
    ['a,b,c\n1\n', [['a', 'b', 'c'], ['1']]],
    ['"a"b,c', [['"a"b', 'c']]],
    ['"a,b\n', /Quote Not Closed.*line 1/],
  ];
  for (const [text, want] of cases) {
    it(JSON.stringify(text), () => {
      const got = csvRecords(text);
      if (want instanceof RegExp) expect(got).toMatch(want);
      else expect(got).toEqual(want);
    });
  }
});
