import { describe, expect, it } from 'vitest';
import { Refusal } from '../refusal';
import { tokenize } from './tokenizer';
import { parsePython } from './parser';

const kinds = (src: string) => tokenize(src).map((t) => t.kind);
const strings = (src: string) =>
  tokenize(src)
    .filter((t) => t.kind === 'STRING')
    .map((t) => t.text);
const numbers = (src: string) =>
  tokenize(src)
    .filter((t) => t.kind === 'NUMBER')
    .map((t) => t.value);

function refusalAt(fn: () => unknown): { at: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof Refusal) return { at: err.offset, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('the Python tokenizer', () => {
  it('reads strings of every quote form', () => {
    expect(strings(`'a' "b" '''c\nd''' """e"f""" r'\\n' R"\\t" u'x'`)).toEqual([
      'a',
      'b',
      'c\nd',
      'e"f',
      '\\n',
      '\\t',
      'x',
    ]);
  });

  it('decodes escapes as Python does', () => {
    expect(strings(String.raw`'\n\t\r\\\'\"\a\b\f\v\0\101\x41\u00e9\U0001F600\q'`)).toEqual([
      '\n\t\r\\\'"\x07\b\f\v\0AAé😀\\q',
    ]);
    expect(strings("'ab\\\ncd'")).toEqual(['abcd']);
    expect(strings("r'a\\'b'")).toEqual(["a\\'b"]);
  });

  it('reads numbers: ints, floats, exponents, hex, octal, binary, separators', () => {
    expect(numbers('1 2.5 .5 5. 1e3 2E-2 0x1F 0o17 0b101 1_000 0 00')).toEqual([
      1, 2.5, 0.5, 5, 1000, 0.02, 31, 15, 5, 1000, 0, 0,
    ]);
  });

  it('joins lines inside brackets and after a backslash, and drops comments and blank lines', () => {
    expect(kinds('f(1,\n  2)  # c\n\n# only a comment\ng()\\\n.h')).toEqual([
      'NAME',
      'OP',
      'NUMBER',
      'OP',
      'NUMBER',
      'OP',
      'NEWLINE',
      'NAME',
      'OP',
      'OP',
      'OP',
      'NAME',
      'NEWLINE',
      'END',
    ]);
  });

  it('emits INDENT and DEDENT relative to the first statement', () => {
    expect(kinds('  a\n  b\n')).toEqual(['NAME', 'NEWLINE', 'NAME', 'NEWLINE', 'END']);
    expect(kinds('a\n  b\nc\n')).toEqual([
      'NAME',
      'NEWLINE',
      'INDENT',
      'NAME',
      'NEWLINE',
      'DEDENT',
      'NAME',
      'NEWLINE',
      'END',
    ]);
  });

  it('refuses f-strings, bytes, unterminated strings and non-ASCII code at their place', () => {
    expect(refusalAt(() => tokenize("x(f'{a}')"))).toEqual({
      at: 2,
      message: expect.stringContaining('f-strings'),
    });
    expect(refusalAt(() => tokenize("x(Rb'a')"))).toEqual({
      at: 2,
      message: expect.stringContaining('bytes'),
    });
    expect(refusalAt(() => tokenize("x('abc\n')"))).toEqual({
      at: 2,
      message: expect.stringContaining('unterminated'),
    });
    expect(refusalAt(() => tokenize('x(1,\u200b2)')).at).toBe(4);
    expect(refusalAt(() => tokenize('pyаutogui')).at).toBe(2);
  });

  it('refuses in reading order: a syntax error comes before a later tokenizer error', () => {
    const err = refusalAt(() => parsePython("a b\nc('unterminated\n"));
    expect(err.at).toBe(2);
  });

  it('refuses too many tokens', () => {
    expect(refusalAt(() => tokenize('a;'.repeat(20_001))).message).toContain('too long');
  });
});
