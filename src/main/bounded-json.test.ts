// The bounded JSON reader refuses what would overflow a stack later, names the place, and reads the rest as
// JSON.parse does (brackets inside strings do not count).
import { describe, expect, it } from 'vitest';
import { JsonLimitError, parseBoundedJson } from './bounded-json';

describe('parseBoundedJson', () => {
  it('refuses nesting deeper than the limit with its line and column', () => {
    const deep = `{\n"a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(() => parseBoundedJson(deep)).toThrow(JsonLimitError);
    expect(() => parseBoundedJson(deep)).toThrow(/deeper than 512 levels \(line 2, column 517\)/);
    expect(parseBoundedJson('[[[1]]]', 3)).toEqual([[[1]]]); // exactly at the limit
    expect(() => parseBoundedJson(`${'['.repeat(8)}${']'.repeat(8)}`.padEnd(40, ' '), 3)).toThrow(
      /deeper than 3/,
    );
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const value = { s: '[[[[[[[[[[\\"{{{{{{{{{{', t: [[1]] };
    const text = JSON.stringify(value).padEnd(100, ' ');
    expect(parseBoundedJson(text, 4)).toEqual(value);
  });

  it('refuses texts larger than the size limit', () => {
    expect(() => parseBoundedJson('"' + 'x'.repeat(100) + '"', 512, 50)).toThrow(
      /larger than the limit of 50/,
    );
  });

  it('keeps JSON.parse errors for malformed text', () => {
    expect(() => parseBoundedJson('{"a": ')).toThrow(SyntaxError);
  });
});
