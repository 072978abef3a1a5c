import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTree } from './remove-tree';

describe('removeTree', () => {
  it('removes a folder that a writer keeps filling for a while after removal starts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'proctor-rmtree-'));
    const inner = join(root, 'Default');
    mkdirSync(inner);
    let n = 0;
    // A late writer, as a browser's helper process is: it recreates files for ~300 ms, never recreating the folder itself.
    const writer = setInterval(() => {
      try {
        for (let i = 0; i < 50; i++) writeFileSync(join(inner, `f${n++}`), 'x');
      } catch {
        /* the folder went away between calls */
      }
    }, 1);
    setTimeout(() => clearInterval(writer), 300);
    await new Promise((r) => setTimeout(r, 20));
    await removeTree(root);
    expect(existsSync(root)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(root)).toBe(false);
  });
  it('is fine with a folder that is not there, and names the folder when it cannot remove it', async () => {
    await expect(removeTree(join(tmpdir(), 'proctor-rmtree-none-here'))).resolves.toBeUndefined();
    await expect(removeTree('/proc/1/fdinfo', 200)).rejects.toThrow(/could not remove \/proc\/1\/fdinfo/);
  });
});
