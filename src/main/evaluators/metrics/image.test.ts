import { afterAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { join } from 'node:path';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);

/** A bar chart-like PNG: white background, bars of the given heights in a colour. */
async function chart(
  name: string,
  bars: number[],
  color = { r: 30, g: 120, b: 200 },
  width = 200,
  height = 120,
): Promise<string> {
  const bw = Math.floor(width / (bars.length * 2));
  const composites = await Promise.all(
    bars.map(async (h, i) => ({
      input: await sharp({ create: { width: bw, height: h, channels: 3, background: color } })
        .png()
        .toBuffer(),
      left: bw * (2 * i) + bw / 2,
      top: height - h,
    })),
  );
  const p = join(tmp.dir, name);
  await sharp({ create: { width, height, channels: 3, background: { r: 255, g: 255, b: 255 } } })
    .composite(composites.map((c) => ({ ...c, left: Math.floor(c.left) })))
    .png()
    .toFile(p);
  return p;
}

describe('image metrics', () => {
  it('compare_images: SSIM 1 for identical, lower for a different chart, 0 for a missing file', async () => {
    const a = await chart('a.png', [40, 80, 60]);
    const b = await chart('b.png', [100, 10, 30]);
    expect((await runMetric('compare_images', a, a)).score).toBeCloseTo(1, 6);
    const diff = await runMetric('compare_images', b, a);
    expect(diff.score).toBeLessThan(0.95);
    expect(diff.score).toBeGreaterThan(0);
    expect((await runMetric('compare_images', join(tmp.dir, 'none.png'), a)).score).toBe(0);
  });
  it('compare_image_list: pixel identity per pair', async () => {
    const a = await chart('l1.png', [40, 80]);
    const a2 = await chart('l2.png', [40, 80]);
    const b = await chart('l3.png', [40, 81]);
    expect((await runMetric('compare_image_list', [a], [a2])).score).toBe(1);
    expect((await runMetric('compare_image_list', a, a2)).score).toBe(1);
    expect((await runMetric('compare_image_list', [a], [b])).reason).toContain('pixels differ');
    expect((await runMetric('compare_image_list', [a, a], [a2])).score).toBe(0);
  });
  it('compare_jupyterlab_images: the same bars in another layout pass (histograms ignore position), another colour fails', async () => {
    const gold = await chart('gold.png', [40, 80, 60]);
    const again = await chart('again.png', [40, 80, 60]);
    const moved = await chart('moved.png', [60, 40, 80]);
    expect((await runMetric('compare_jupyterlab_images', again, gold)).score).toBe(1);
    expect((await runMetric('compare_jupyterlab_images', moved, gold)).score).toBe(1);
    const red = await chart('red.png', [40, 80, 60], { r: 200, g: 30, b: 30 });
    expect((await runMetric('compare_jupyterlab_images', red, gold)).score).toBe(0);
  });
  it('compare_metabase_images: tolerant threshold 0.91', async () => {
    const gold = await chart('mgold.png', [40, 80, 60]);
    const close = await chart('mclose.png', [42, 78, 60]);
    const other = await chart('mother.png', [40, 80, 60], { r: 250, g: 180, b: 20 });
    expect((await runMetric('compare_metabase_images', close, gold)).score).toBe(1);
    expect((await runMetric('compare_metabase_images', other, gold)).score).toBe(0);
    expect((await runMetric('compare_metabase_images', join(tmp.dir, 'x.png'), gold)).reason).toContain(
      'does not exist',
    );
  });
});
