import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownedTempPrefix, sweepLeftovers } from './leftovers';

describe('sandbox leftovers', () => {
  it("removes the folders of dead owners and keeps the living's and other people's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proctor-leftovers-test-'));
    try {
      const dead = spawnSync(process.execPath, ['-e', '']).pid!; // a process that has ended
      const deadHome = join(dir, `proctor-home-${dead}-abc123`);
      const deadXdg = join(dir, `proctor-xdg-${dead}-def456`);
      const mine = ownedTempPrefix('home', dir) + 'zzz';
      const parent = join(dir, `proctor-home-${process.ppid}-keep`);
      const unrelated = join(dir, 'proctor-home-abc'); // the old unnamed form: owner unknown, left alone
      for (const d of [deadHome, deadXdg, mine, parent, unrelated]) mkdirSync(d);
      writeFileSync(join(deadHome, 'big.bin'), Buffer.alloc(1024));
      const removed = await sweepLeftovers(dir);
      expect(removed.sort()).toEqual([deadHome, deadXdg].sort());
      expect(existsSync(deadHome) || existsSync(deadXdg)).toBe(false);
      for (const d of [mine, parent, unrelated]) expect(existsSync(d)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
