import { describe, expect, it } from 'vitest';
import { nearestName } from './nearest-name';

describe('nearestName', () => {
  it('offers the known name a typo meant, and nothing for an unrelated one', () => {
    const getters = ['rule_relativeTime', 'vm_file', 'cloud_file', 'vm_command_line'];
    expect(nearestName('vm_fiel', getters)).toBe('vm_file');
    expect(nearestName('cloudfile', getters)).toBe('cloud_file');
    expect(nearestName('calc_insensitive_md5', getters)).toBeUndefined();
    expect(nearestName('--parralel', ['--parallel', '--json'])).toBe('--parallel');
    expect(nearestName('x', [])).toBeUndefined();
  });
});
