import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createShellEnvironment } from './shell-environment';
import { SandboxPathError } from './sandbox-home';
import { MissingCapabilityError } from '../environment';

describe('shell environment over a sandbox home', () => {
  it('runs commands with HOME and cwd in the sandbox, guest paths rewritten, and no host secrets', async () => {
    process.env.PROCTOR_TEST_SECRET = 'sk-should-not-leak';
    const env = await createShellEnvironment();
    try {
      const r = await env.run(
        'pwd; echo "$HOME"; echo hi > /home/user/out.txt; echo t > /tmp/t.txt; echo "[$PROCTOR_TEST_SECRET]"; exit 3',
      );
      const [pwd, home, secret] = r.stdout.trim().split('\n');
      expect(pwd).toBe(env.home.root);
      expect(home).toBe(env.home.root);
      expect(secret).toBe('[]');
      expect(r.exitCode).toBe(3);
      expect(readFileSync(join(env.home.root, 'out.txt'), 'utf8')).toBe('hi\n');
      expect((await env.getFile('/tmp/t.txt'))?.toString()).toBe('t\n');
      const argv = await env.run(['cat', '/home/user/out.txt']);
      expect(argv.stdout).toBe('hi\n');
      const err = await env.run('echo oops >&2; false');
      expect(err).toMatchObject({ stderr: 'oops\n', exitCode: 1, timedOut: false });
    } finally {
      delete process.env.PROCTOR_TEST_SECRET;
      await env.close();
    }
    expect(existsSync(env.home.root)).toBe(false);
  });

  it('kills a command at its timeout', async () => {
    const env = await createShellEnvironment();
    try {
      const t0 = Date.now();
      const r = await env.run('sleep 10; echo late', { timeoutMs: 300 });
      expect(r.timedOut).toBe(true);
      expect(r.stdout).toBe('');
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      await env.close();
    }
  });

  it('puts and gets files at guest paths, undefined for a missing one, and refuses escaping paths', async () => {
    const env = await createShellEnvironment();
    try {
      await env.putFile('/home/user/Desktop/data/x.csv', Buffer.from('a,b\n1,2\n'));
      expect(readFileSync(join(env.home.root, 'Desktop/data/x.csv'), 'utf8')).toBe('a,b\n1,2\n');
      expect((await env.getFile('~/Desktop/data/x.csv'))?.toString()).toBe('a,b\n1,2\n');
      expect(await env.getFile('/home/user/nope.txt')).toBeUndefined();
      await expect(env.putFile('/etc/evil', Buffer.from('x'))).rejects.toThrow(SandboxPathError);
      await expect(env.getFile('/home/user/../../etc/passwd')).rejects.toThrow(SandboxPathError);
    } finally {
      await env.close();
    }
  });

  it('says which capability it lacks for screen work', async () => {
    const env = await createShellEnvironment();
    try {
      expect(env.capabilities.has('screenshot')).toBe(false);
      await expect(env.screenshot()).rejects.toThrow(MissingCapabilityError);
      await expect(env.perform([{ type: 'click', x: 1, y: 1 }])).rejects.toThrow(/cannot 'input'/);
    } finally {
      await env.close();
    }
  });
});
