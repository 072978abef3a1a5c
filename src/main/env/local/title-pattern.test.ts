// Window-title patterns match titles literally and survive the host fallback's rewriting of guest paths.
import { describe, expect, it } from 'vitest';
import { SandboxHome } from './sandbox-home';
import { titlePattern } from './openers';

describe('window title patterns', () => {
  it('matches a title naming a guest path literally, whole when strict', () => {
    const title = '~/Desktop/sales (1).csv - Mousepad';
    const strict = new RegExp(titlePattern(title, true));
    expect(strict.test(title)).toBe(true);
    expect(strict.test(`x${title}`)).toBe(false);
    expect(new RegExp(titlePattern('sales (1).csv', false)).test(title)).toBe(true);
  });

  it('is left alone by the rewriting of guest paths in command text', () => {
    const home = SandboxHome.at('/nonexistent/proctor-home');
    for (const title of [
      '~/Desktop/a.csv - Mousepad',
      '/home/user/a.txt - Mousepad',
      '/tmp/x.odt - LibreOffice Writer',
    ]) {
      const pattern = titlePattern(title, true);
      expect(home.rewriteCommand(pattern)).toBe(pattern);
      // a plain title naming /home/user or /tmp would have been rewritten
      if (!title.startsWith('~')) expect(home.rewriteCommand(title)).not.toBe(title);
    }
  });
});
