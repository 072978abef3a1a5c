// The screen difference is fair across screen sizes: the same picture at 1280×800 and at 1920×1200 scores ~0,
// a stretched 16:9 rendering of it too (pictures are scaled to one size, not letterboxed), and a real change at
// another size still counts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SCREEN_DIFF_THRESHOLD, screenDifference } from './step-diff';

/** A desktop (background, a text window, a button) drawn at any size; `fit: 'none'` stretches it to that size. */
function desktop(width: number, height: number, opts: { dialog?: boolean } = {}): Buffer {
  const lines = Array.from(
    { length: 20 },
    (_, i) =>
      `<text x="120" y="${140 + i * 22}" font-size="14" font-family="monospace">line ${i} of the text in the window</text>`,
  ).join('');
  const dialog = opts.dialog
    ? '<rect x="400" y="250" width="480" height="300" fill="#f4f4f4" stroke="#000" stroke-width="2"/>'
    : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 1280 800" preserveAspectRatio="none">` +
      '<rect width="1280" height="800" fill="#3a6ea5"/><rect x="100" y="80" width="700" height="500" fill="#fff" stroke="#333" stroke-width="2"/>' +
      `<rect x="100" y="80" width="700" height="30" fill="#ccc"/>${lines}<rect x="900" y="100" width="300" height="56" fill="#080"/>` +
      `<text x="920" y="135" font-size="20" fill="#fff">Place order</text>${dialog}</svg>`,
  );
}

async function png(dir: string, name: string, svg: Buffer): Promise<string> {
  const file = join(dir, `${name}.png`);
  await sharp(svg).png().toFile(file);
  return file;
}

describe('screenDifference across screen sizes', () => {
  it('scores the same content at 1280×800 and 1920×1200 as ~0, and a window that opened as a difference', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proctor-step-diff-'));
    const small = await png(dir, 'small', desktop(1280, 800));
    const large = await png(dir, 'large', desktop(1920, 1200));
    expect(await sharp(large).metadata()).toMatchObject({ width: 1920, height: 1200 });
    const same = await screenDifference(small, large);
    expect(same).not.toBeNull();
    expect(same!).toBeLessThan(SCREEN_DIFF_THRESHOLD);
    const changed = await screenDifference(
      small,
      await png(dir, 'large-dialog', desktop(1920, 1200, { dialog: true })),
    );
    expect(changed!).toBeGreaterThan(SCREEN_DIFF_THRESHOLD * 4);
  });

  it('scales a different aspect ratio to the same picture (stretched, so no letterbox bars count as changes)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'proctor-step-diff-'));
    const small = await png(dir, 'small', desktop(1280, 800));
    const wide = await png(dir, 'wide', desktop(1920, 1080));
    expect((await screenDifference(small, wide))!).toBeLessThan(SCREEN_DIFF_THRESHOLD * 4);
  });
});
