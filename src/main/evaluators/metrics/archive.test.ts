import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { hasZip, zipWithInfoZip } from '../testing/cli-files';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);
async function zip(name: string, entries: Record<string, string>): Promise<string> {
  const z = new JSZip();
  for (const [k, v] of Object.entries(entries)) z.file(k, v);
  const p = join(tmp.dir, name);
  writeFileSync(p, await z.generateAsync({ type: 'nodebuffer' }));
  return p;
}

describe('compare_archive', () => {
  it('is in the os family', () => expect(metricFamilyOf('compare_archive')).toBe('os'));

  it.skipIf(!hasZip)(
    'on archives `zip -r` made: the same files 1, one of two differing 0.5, a renamed file 0',
    async () => {
      const gold = zipWithInfoZip(tmp.dir, 'gold', { 'notes/a.txt': 'alpha\n', 'notes/b.txt': 'beta\n' });
      const same = zipWithInfoZip(tmp.dir, 'same', { 'notes/b.txt': 'beta\n', 'notes/a.txt': 'alpha\n' });
      const half = zipWithInfoZip(tmp.dir, 'half', { 'notes/a.txt': 'alpha\n', 'notes/b.txt': 'BETA\n' });
      const renamed = zipWithInfoZip(tmp.dir, 'renamed', {
        'notes/a.txt': 'alpha\n',
        'notes/c.txt': 'beta\n',
      });
      expect((await runMetric('compare_archive', same, gold, { file_path: 'notes' })).score).toBe(1);
      expect((await runMetric('compare_archive', half, gold, { file_path: 'notes' })).score).toBe(0.5);
      const r = await runMetric('compare_archive', renamed, gold, { file_path: 'notes' });
      expect(r.score).toBe(0);
      expect(r.reason).toMatch(/entries differ/);
      expect(
        (await runMetric('compare_archive', half, gold, { file_path: 'notes', ignore_case: true })).score,
      ).toBe(1);
    },
  );

  it('reads JSZip-written archives too (partial when one file differs)', async () => {
    const gold = await zip('gold.zip', { 'notes/a.txt': 'alpha\n', 'notes/b.txt': 'beta\n' });
    const half = await zip('half.zip', { 'notes/a.txt': 'alpha\n', 'notes/b.txt': 'BETA\n' });
    expect((await runMetric('compare_archive', half, gold, { file_path: 'notes' })).score).toBe(0.5);
  });

  it("says a file is not a ZIP without pointing at JSZip's documentation", async () => {
    const text = join(tmp.dir, 'not-a.zip');
    writeFileSync(text, 'plain text');
    const r = await runMetric('compare_archive', text, text, {});
    expect(r.score).toBe(0);
    expect(r.reason).toMatch(/not a ZIP archive \(Can't find end of central directory\)/);
    expect(r.reason).not.toMatch(/https?:/);
  });

  it('refuses an entry that leaves the folder', async () => {
    const z = new JSZip();
    z.file('../escape.txt', 'x');
    const p = join(tmp.dir, 'evil.zip');
    writeFileSync(p, await z.generateAsync({ type: 'nodebuffer' }));
    const gold = await zip('gold2.zip', { 'escape.txt': 'x' });
    const r = await runMetric('compare_archive', p, gold);
    expect(r.score).toBe(0);
  });
});
