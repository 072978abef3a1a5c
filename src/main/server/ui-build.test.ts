import { describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureUiBuilt, uiIsStale } from './ui-build';

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

  it('is built by one caller while the others wait, and swapped in whole: the old bundle stays readable meanwhile', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-ui-build-test-'));
    try {
      const out = join(root, 'out', 'renderer');
      const src = join(root, 'src');
      mkdirSync(out, { recursive: true });
      mkdirSync(src);
      writeFileSync(join(out, 'index.html'), 'old');
      writeFileSync(join(out, 'old-asset.js'), 'old');
      const t = Date.now() / 1000;
      utimesSync(join(out, 'index.html'), t - 100, t - 100);
      writeFileSync(join(src, 'A.tsx'), 'edited'); // newer than the bundle
      let builds = 0;
      const seenDuringBuild: string[] = [];
      const build = async (dir: string) => {
        builds++;
        seenDuringBuild.push(readFileSync(join(out, 'index.html'), 'utf8'));
        mkdirSync(dir, { recursive: true });
        await new Promise((r) => setTimeout(r, 300));
        writeFileSync(join(dir, 'index.html'), 'new');
      };
      const logs: string[] = [];
      const dirs = await Promise.all(
        [1, 2, 3].map(() => ensureUiBuilt((l) => logs.push(l), { dir: out, sources: [src], build })),
      );
      expect(dirs).toEqual([out, out, out]);
      expect(builds).toBe(1);
      expect(logs).toEqual(['Building the UI again (its sources changed)…']);
      expect(seenDuringBuild).toEqual(['old']);
      expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('new');
      expect(existsSync(join(out, 'old-asset.js'))).toBe(false);
      expect(readdirSync(join(root, 'out'))).toEqual(['renderer']); // no build folder, old copy or claim left
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('keeps the old bundle when the build fails', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-ui-build-test-'));
    try {
      const out = join(root, 'out', 'renderer');
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, 'index.html'), 'old');
      const failing = async (dir: string) => {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'half.js'), 'x');
        throw new Error('vite: syntax error in App.tsx');
      };
      const src = join(root, 'src');
      mkdirSync(src);
      const t = Date.now() / 1000;
      utimesSync(join(out, 'index.html'), t - 100, t - 100);
      writeFileSync(join(src, 'App.tsx'), 'edited');
      await expect(ensureUiBuilt(undefined, { dir: out, sources: [src], build: failing })).rejects.toThrow(
        /syntax error/,
      );
      expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe('old');
      expect(existsSync(join(out, 'half.js'))).toBe(false);
      expect(readdirSync(join(root, 'out'))).toEqual(['renderer']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
