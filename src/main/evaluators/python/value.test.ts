// Python's value semantics: each row is JSON text read as Python's json.loads reads it (1.0 stays a float) and what
// Python 3.11 answers for `==`, str() and repr().
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { floatRepr, pyCompare, pyEquals, pyFloat, pyIn, pyJsonParse, pyRepr, pyStr } from './value';

// prettier-ignore
const equality: [a: string, b: string, python: boolean][] = [
  ["true", "1", true],
  ["false", "0", true],
  ["1.0", "1", true],
  ["\"1\"", "1", false],
  ["\"True\"", "true", false],
  ["null", "null", true],
  ["null", "0", false],
  ["null", "false", false],
  ["[1, 2]", "[1.0, 2]", true],
  ["[true]", "[1]", true],
  ["[1, 2]", "[2, 1]", false],
  ["{\"a\": 1, \"b\": [true]}", "{\"b\": [1], \"a\": 1.0}", true],
  ["{\"a\": 1}", "{\"a\": 1, \"b\": 2}", false],
  ["\"a\"", "[\"a\"]", false],
  ["0.1", "0.1", true],
  ["2", "true", false],
  ["[]", "{}", false],
  ["\"null\"", "null", false],
  ["1e16", "10000000000000000", true],
  ["NaN", "NaN", false],
  ["[NaN]", "[NaN]", true],
  ["{\"a\": NaN}", "{\"a\": NaN}", true],
  ["[NaN]", "[1e999]", false],
  ["Infinity", "1e999", true],
  ["-Infinity", "-1e999", true],
  ["[Infinity]", "[-Infinity]", false],
  ["9007199254740993", "9007199254740992.0", false],
  ["9007199254740993", "9007199254740993", true],
  ["9007199254740992", "9007199254740992.0", true],
  ["123456789012345678901234567890", "1.2345678901234568e+29", false],
  ["100000000000000000000", "1e20", true],
  ["[18446744073709551616]", "[1.8446744073709552e19]", true],
];

// prettier-ignore
const printing: [json: string, str: string, repr: string][] = [
  ["true", "True", "True"],
  ["false", "False", "False"],
  ["null", "None", "None"],
  ["1", "1", "1"],
  ["1.0", "1.0", "1.0"],
  ["-0.0", "-0.0", "-0.0"],
  ["0.1", "0.1", "0.1"],
  ["1e-05", "1e-05", "1e-05"],
  ["0.0001", "0.0001", "0.0001"],
  ["1e16", "1e+16", "1e+16"],
  ["1e15", "1000000000000000.0", "1000000000000000.0"],
  ["1.5e16", "1.5e+16", "1.5e+16"],
  ["123.456", "123.456", "123.456"],
  ["1e22", "1e+22", "1e+22"],
  ["1E300", "1e+300", "1e+300"],
  ["[1, 1.0, \"a\", true, null]", "[1, 1.0, 'a', True, None]", "[1, 1.0, 'a', True, None]"],
  ["{\"k\": \"it's\", \"n\": [0.5]}", "{'k': \"it's\", 'n': [0.5]}", "{'k': \"it's\", 'n': [0.5]}"],
  ["\"a\\nb\"", "a\nb", "'a\\nb'"],
  ["[\"a\\nb\", \"it's\", \"say \\\"hi\\\" it's\"]", "['a\\nb', \"it's\", 'say \"hi\" it\\'s']", "['a\\nb', \"it's\", 'say \"hi\" it\\'s']"],
  ["[\"\\u0001\\u00e9\\t\"]", "['\\x01\u00e9\\t']", "['\\x01\u00e9\\t']"],
  ["[1e100, -2.5e-07]", "[1e+100, -2.5e-07]", "[1e+100, -2.5e-07]"],
  ["{\"x\": {\"y\": []}}", "{'x': {'y': []}}", "{'x': {'y': []}}"],
  ["123456789012345678901234567890", "123456789012345678901234567890", "123456789012345678901234567890"],
  ["NaN", "nan", "nan"],
  ["[Infinity, -Infinity, 1e999]", "[inf, -inf, inf]", "[inf, -inf, inf]"],
  ["5.0", "5.0", "5.0"],
  ["-0", "0", "0"],
];

describe('Python ==, str() and repr() of JSON values', () => {
  it.each(
    equality.map(([a, b, py]) => ({ name: `Python: ${a} == ${b} is ${py ? 'True' : 'False'}`, a, b, py })),
  )('$name', ({ a, b, py }) => {
    expect(pyEquals(pyJsonParse(a), pyJsonParse(b))).toBe(py);
    expect(pyEquals(pyJsonParse(b), pyJsonParse(a))).toBe(py);
  });

  it.each(printing.map(([json, s, r]) => ({ name: `Python: str(${json}) is ${s}, repr ${r}`, json, s, r })))(
    '$name',
    ({ json, s, r }) => {
      expect(pyStr(pyJsonParse(json))).toBe(s);
      expect(pyRepr(pyJsonParse(json))).toBe(r);
    },
  );

  it("Python: json.loads refuses a leading BOM ('Unexpected UTF-8 BOM'), NaN spelled otherwise and -NaN", () => {
    for (const text of ['\ufeff{}', 'nan', '-NaN', 'infinity'])
      expect(() => pyJsonParse(text), text).toThrow(SyntaxError);
  });

  it('Python: 9007199254740993 > 9007199254740992.0 and 2**64 < inf: ints past 2^53 compare exactly with floats', () => {
    expect(pyCompare(pyJsonParse('9007199254740993'), pyJsonParse('9007199254740992.0'))).toBeGreaterThan(0);
    expect(pyCompare(pyJsonParse('18446744073709551616'), pyJsonParse('Infinity'))).toBeLessThan(0);
    expect(
      pyCompare(pyJsonParse('18446744073709551617'), pyJsonParse('1.8446744073709552e19')),
    ).toBeGreaterThan(0);
    expect(pyIn(pyJsonParse('9007199254740993'), [9007199254740992])).toBe(false);
  });

  it('Python: floats print 1.0, 1e-05, 1e+16, inf, -inf, nan; a whole JavaScript number prints as an int', () => {
    expect([1, 1e-5, 1e16, Infinity, -Infinity, NaN, 0.1 + 0.2].map(floatRepr)).toEqual([
      '1.0',
      '1e-05',
      '1e+16',
      'inf',
      '-inf',
      'nan',
      '0.30000000000000004',
    ]);
    expect([pyStr(1), pyStr(2.5), pyStr(true), pyStr(null), pyStr([true, 'x'])]).toEqual([
      '1',
      '2.5',
      'True',
      'None',
      "[True, 'x']",
    ]);
  });

  it('Python: a datetime prints as str 2024-03-05 07:08:00 and repr datetime.datetime(2024, 3, 5, 7, 8); datetimes order', () => {
    const d = new Date(Date.UTC(2024, 2, 5, 7, 8, 0));
    expect([pyStr(d), pyRepr(d), pyRepr(new Date(Date.UTC(2024, 2, 5)))]).toEqual([
      '2024-03-05 07:08:00',
      'datetime.datetime(2024, 3, 5, 7, 8)',
      'datetime.datetime(2024, 3, 5, 0, 0)',
    ]);
    expect(pyCompare(d, new Date(Date.UTC(2025, 0, 1)))).toBeLessThan(0);
    expect(pyCompare(d, '2024')).toMatch(/'datetime' and 'str'/);
  });

  it('Python: float() takes " 1_000.5 ", "inf", True; raises on None, "abc", a list', () => {
    expect([
      pyFloat(' 1_000.5 '),
      pyFloat('inf'),
      pyFloat('-Infinity'),
      pyFloat(true),
      pyFloat('1e3'),
      pyFloat('.5'),
    ]).toEqual([1000.5, Infinity, -Infinity, 1, 1000, 0.5]);
    expect([pyFloat(null), pyFloat('abc'), pyFloat([1]), pyFloat(''), pyFloat('1__0')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('Python: ordering compares numbers with bools, str by code point, and raises between str and int', () => {
    expect(pyCompare(true, 0.5)).toBeGreaterThan(0);
    expect(pyCompare('\uFF61', '\u{1F600}')).toBeLessThan(0);
    expect(pyCompare([1, 'b'], [1, 'a'])).toBeGreaterThan(0);
    expect(pyCompare('5', 3)).toMatch(/TypeError/);
    expect(pyCompare(null, 1)).toMatch(/NoneType/);
  });

  it("Python: `in` is element equality in a list (1 in [True]), substring in a str, key in a dict; 1 in 'a1' raises", () => {
    expect([pyIn(1, [true]), pyIn('b', 'abc'), pyIn('k', { k: 0 }), pyIn(1, { 1: 0 })]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(pyIn(1, 'a1')).toBeUndefined();
  });

  it.skipIf(!existsSync('/usr/bin/python3'))(
    "the tables are what this machine's python3 answers (skipped without /usr/bin/python3)",
    () => {
      const script = [
        'import json, sys',
        'd = json.load(sys.stdin)',
        "print(json.dumps({'eq': [json.loads(a) == json.loads(b) for a, b, _ in d['eq']], 'str': [[str(json.loads(j)), repr(json.loads(j))] for j, _, _ in d['str']]}))",
      ].join('\n');
      const out = JSON.parse(
        execFileSync('/usr/bin/python3', ['-c', script], {
          input: JSON.stringify({ eq: equality, str: printing }),
          encoding: 'utf8',
        }),
      ) as { eq: boolean[]; str: string[][] };
      expect(out.eq).toEqual(equality.map((r) => r[2]));
      expect(out.str).toEqual(printing.map((r) => [r[1], r[2]]));
    },
  );
});
