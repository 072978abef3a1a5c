import { describe, expect, it } from 'vitest';
import { jsonErrorOffset, lineColOf } from './json-error';

describe('jsonErrorOffset', () => {
  it('finds nothing wrong in valid JSON', () => {
    for (const t of ['{}', '[]', '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]}', ' "s" '])
      expect(jsonErrorOffset(t)).toBeUndefined();
  });
  it('points at the first bad character', () => {
    const text = '{\n  "model": "x",\n  "apiKey": oops\n}';
    expect(lineColOf(text, jsonErrorOffset(text)!)).toEqual({ line: 3, col: 13 });
    expect(jsonErrorOffset('{"a": 1,}')).toBe(8);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a": 1} x')).toBe(9);
  });
});
