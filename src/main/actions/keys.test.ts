import { describe, expect, it } from 'vitest';
import { KEY_ALIASES, KEYBOARD_KEYS, normaliseKey, UnknownKeyError } from './keys';

describe('KEYBOARD_KEYS', () => {
  it("is OSWorld's list of 193 distinct names", () => {
    expect(KEYBOARD_KEYS).toHaveLength(193);
    expect(new Set(KEYBOARD_KEYS).size).toBe(193);
    for (const k of [
      '\t',
      '\n',
      ' ',
      '\\',
      'a',
      'z',
      '~',
      'enter',
      'ctrl',
      'f24',
      'num9',
      'winright',
      'optionright',
    ]) {
      expect(KEYBOARD_KEYS).toContain(k);
    }
    expect(KEYBOARD_KEYS).not.toContain('A');
    expect(KEYBOARD_KEYS).not.toContain('space');
  });
});

describe('normaliseKey', () => {
  it('maps every list name and alias onto a name of the list', () => {
    for (const name of [...KEYBOARD_KEYS, ...Object.keys(KEY_ALIASES)]) {
      expect(KEYBOARD_KEYS, `normaliseKey(${JSON.stringify(name)})`).toContain(normaliseKey(name));
    }
  });

  it('folds synonyms and case onto one canonical name', () => {
    expect(normaliseKey('control')).toBe('ctrl');
    expect(normaliseKey('return')).toBe('enter');
    expect(normaliseKey('Return')).toBe('enter');
    expect(normaliseKey('\n')).toBe('enter');
    expect(normaliseKey('ESCAPE')).toBe('esc');
    expect(normaliseKey('Page_Up')).toBe('pageup');
    expect(normaliseKey('prtsc')).toBe('printscreen');
    expect(normaliseKey('space')).toBe(' ');
    expect(normaliseKey('Control_L')).toBe('ctrl');
    expect(normaliseKey('F5')).toBe('f5');
  });

  it('keeps single printable characters, upper-case letters included', () => {
    expect(normaliseKey('A')).toBe('A');
    expect(normaliseKey('%')).toBe('%');
    expect(normaliseKey(' ')).toBe(' ');
  });

  it('throws naming the closest known key', () => {
    expect(() => normaliseKey('entr')).toThrow(UnknownKeyError);
    expect(() => normaliseKey('entr')).toThrow(/closest known: "enter"/);
    expect(() => normaliseKey('backspac')).toThrow(/closest known: "backspace"/);
    expect(() => normaliseKey('pagedwn')).toThrow(/closest known: "pagedown"/);
    expect(() => normaliseKey('é')).toThrow(UnknownKeyError);
    expect(() => normaliseKey('')).toThrow(UnknownKeyError);
  });
});
