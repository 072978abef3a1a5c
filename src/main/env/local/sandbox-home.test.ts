import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SandboxHome, SandboxPathError } from './sandbox-home';

let home: SandboxHome;
afterEach(() => rmSync(home.root, { recursive: true, force: true }));

describe('SandboxHome path mapping', () => {
  it('maps /home/user, ~ and relative guest paths into the sandbox home', () => {
    home = SandboxHome.create();
    expect(home.toHost('/home/user/Desktop/x.csv')).toBe(join(home.root, 'Desktop/x.csv'));
    expect(home.toHost('~/Desktop/x.csv')).toBe(join(home.root, 'Desktop/x.csv'));
    expect(home.toHost('~')).toBe(home.root);
    expect(home.toHost('Desktop/x.csv')).toBe(join(home.root, 'Desktop/x.csv'));
    expect(home.toHost('/home/user/a/../b.txt')).toBe(join(home.root, 'b.txt'));
  });

  it('maps guest /tmp into the private .tmp folder of the sandbox', () => {
    home = SandboxHome.create();
    expect(home.toHost('/tmp/setup.sh')).toBe(join(home.root, '.tmp/setup.sh'));
    expect(home.toGuest(join(home.root, '.tmp/setup.sh'))).toBe('/tmp/setup.sh');
    expect(home.toGuest(join(home.root, 'Desktop/a'))).toBe('/home/user/Desktop/a');
  });

  it.each([
    '/etc/passwd',
    '/home/userx/a',
    '/home/other/a',
    '../x',
    '~/../x',
    '/home/user/../../etc/passwd',
    'a/../../x',
    '/tmp/../etc/passwd',
  ])('refuses %s, which escapes the sandbox', (p) => {
    home = SandboxHome.create();
    expect(() => home.toHost(p)).toThrow(SandboxPathError);
  });

  it('refuses a path through a symbolic link that leads out of the sandbox', () => {
    home = SandboxHome.create();
    symlinkSync('/etc', join(home.root, 'etc-link'));
    expect(() => home.toHost('/home/user/etc-link/passwd')).toThrow(/symbolic link leads out/);
    expect(() => home.toHost('~/etc-link/new/file')).toThrow(SandboxPathError);
    mkdirSync(join(home.root, 'real'));
    symlinkSync(join(home.root, 'real'), join(home.root, 'inner-link'));
    expect(home.toHost('~/inner-link/f')).toBe(join(home.root, 'inner-link/f'));
  });

  it('rewrites whole guest path prefixes in command text, once', () => {
    home = SandboxHome.create();
    expect(home.rewriteCommand('cat /home/user/a.txt > /tmp/b; echo "/home/user"')).toBe(
      `cat ${home.root}/a.txt > ${home.tmp}/b; echo "${home.root}"`,
    );
    expect(home.rewriteCommand('ls /home/username /tmpfoo x/home/user')).toBe(
      'ls /home/username /tmpfoo x/home/user',
    );
  });
});
