import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { uiIsStale } from './ui-build';

describe('the served UI bundle', () => {
  it('is stale when missing or older than any of its sources, fresh otherwise', () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-ui-build-test-'));
    try {
      const out = join(root, 'out');
      const src = join(root, 'src', 'views');
      mkdirSync(src, { recursive: true });
      writeFileSync(join(src, 'A.tsx'), 'a');
      expect(uiIsStale(out, [join(root, 'src')])).toBe(true);
      mkdirSync(out);
      writeFileSync(join(out, 'index.html'), '<html>');
      const t = Date.now() / 1000;
      utimesSync(join(src, 'A.tsx'), t - 100, t - 100);
      utimesSync(src, t - 100, t - 100);
      utimesSync(join(root, 'src'), t - 100, t - 100);
      utimesSync(join(out, 'index.html'), t - 50, t - 50);
      expect(uiIsStale(out, [join(root, 'src')])).toBe(false);
      utimesSync(join(src, 'A.tsx'), t, t); // an edited view
      expect(uiIsStale(out, [join(root, 'src')])).toBe(true);
      expect(uiIsStale(out, [join(root, 'absent')])).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
