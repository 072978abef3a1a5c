import { describe, expect, it } from 'vitest';
import { nearestName, typoDistance } from './nearest-name';

describe('nearestName', () => {
  it('offers the known name a typo meant, and nothing for an unrelated one', () => {
    const getters = ['rule_relativeTime', 'vm_file', 'cloud_file', 'vm_command_line'];
    expect(nearestName('vm_fiel', getters)).toBe('vm_file');
    expect(nearestName('cloudfile', getters)).toBe('cloud_file');
    expect(nearestName('calc_insensitive_md5', getters)).toBeUndefined();
    expect(nearestName('--parralel', ['--parallel', '--json'])).toBe('--parallel');
    expect(nearestName('x', [])).toBeUndefined();
  });

  it('counts a swap of neighbouring letters as one edit, and the dashes of an option as no letters', () => {
    expect(typoDistance('modle', 'model')).toBe(1);
    expect(typoDistance('bogus', 'logs')).toBe(2);
    expect(typoDistance('', 'abc')).toBe(3);
    expect(nearestName('--modle', ['--model', '--out'])).toBe('--model');
    expect(nearestName('--mdoel', ['--model', '--out'])).toBe('--model');
    expect(nearestName('entr', ['enter', 'esc'])).toBe('enter');
    // two edits in five letters is another word, not a typo; the shared dashes do not make it close
    expect(nearestName('--bogus', ['--logs', '--out', '--json'])).toBeUndefined();
    expect(nearestName('--ab', ['--json'])).toBeUndefined();
  });
});
