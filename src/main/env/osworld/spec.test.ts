// The --env spec of the osworld kind: what parses, what is refused and how the refusal reads.
import { describe, expect, it } from 'vitest';
import { formatOsworldSpec, parseOsworldSpec, redactToken } from './spec';

describe('parseOsworldSpec', () => {
  it('reads host, port and token', () => {
    expect(parseOsworldSpec('osworld://10.0.0.5:5001?token=s3cr3t')).toEqual({
      host: '10.0.0.5',
      port: 5001,
      token: 's3cr3t',
    });
  });

  it('defaults the port to 5000', () => {
    expect(parseOsworldSpec('osworld://vm.local')).toEqual({ host: 'vm.local', port: 5000 });
    expect(parseOsworldSpec('osworld://vm.local/')).toEqual({ host: 'vm.local', port: 5000 });
    expect(parseOsworldSpec('OSWORLD://VM.Local:80')).toEqual({ host: 'vm.local', port: 80 });
  });

  it('reads IPv6 literals and a browser endpoint', () => {
    expect(parseOsworldSpec('osworld://[::1]:5000?browser=http://[::1]:1337/')).toEqual({
      host: '::1',
      port: 5000,
      browserEndpoint: 'http://[::1]:1337',
    });
  });

  it.each([
    ['', /empty/],
    ['local', /starts with osworld:\/\//],
    ['http://vm:5000', /starts with osworld:\/\//],
    ['osworld://', /not a valid URL|names no host/],
    ['osworld://vm:0', /port '0'/],
    ['osworld://vm:70000', /port '70000'/],
    ['osworld://vm:abc', /port 'abc'/],
    ['osworld://vm:5000/path', /unexpected path/],
    ['osworld://user:pw@vm', /not as user:password@/],
    ['osworld://vm?tokn=x', /unknown parameter 'tokn'/],
    ['osworld://vm?token=', /token is empty/],
    ['osworld://vm?browser=ftp://x', /must be an http/],
  ])('refuses %j', (spec, why) => {
    expect(() => parseOsworldSpec(spec)).toThrow(why);
  });

  it('never prints the token in a refusal', () => {
    expect(() => parseOsworldSpec('osworld://vm:99999?token=hunter2')).toThrow(/token=\*\*\*/);
    try {
      parseOsworldSpec('osworld://vm:99999?token=hunter2');
    } catch (e) {
      expect((e as Error).message).not.toContain('hunter2');
    }
  });
});

describe('formatOsworldSpec', () => {
  it('writes the spec back, the token hidden unless asked', () => {
    const s = parseOsworldSpec('osworld://vm:5001?token=abc');
    expect(formatOsworldSpec(s)).toBe('osworld://vm:5001?token=***');
    expect(parseOsworldSpec(formatOsworldSpec(s, { withToken: true }))).toEqual(s);
    expect(formatOsworldSpec({ host: '::1', port: 5000 })).toBe('osworld://[::1]:5000');
    expect(redactToken('osworld://vm?a=1&token=abc')).toBe('osworld://vm?a=1&token=***');
  });
});

describe('osworldKind', () => {
  it('checks specs by their text', async () => {
    const { osworldKind } = await import('./kind');
    expect(() => osworldKind.check({ text: 'osworld://vm:5000?token=x' })).not.toThrow();
    expect(() => osworldKind.check({ text: 'osworld://vm:notaport' })).toThrow(/port 'notaport'/);
    expect(osworldKind.summary).toMatch(/^osworld:\/\//);
  });
});
