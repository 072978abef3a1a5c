import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';

const hasImageMagick = spawnSync('sh', ['-c', 'test -x /usr/bin/convert']).status === 0;
const tmp = tempDir();
afterAll(tmp.cleanup);

/** ImageMagick's convert: `args` then the output, written as `format` (PNG24, PNG32, PNG8 — the mode Pillow sees). */
function magick(name: string, args: string[], format = 'PNG24'): string {
  const out = join(tmp.dir, name);
  execFileSync('/usr/bin/convert', [...args, `${format}:${out}`]);
  return out;
}

describe.skipIf(!hasImageMagick)('OSWorld gimp structure metrics on images ImageMagick saved', () => {
  const f: Record<string, string> = {};
  beforeAll(() => {
    f.base = magick('base.png', [
      '-size',
      '160x100',
      'gradient:#3060c0-#c0e0ff',
      '-fill',
      'yellow',
      '-draw',
      'circle 50,50 50,25',
      '-fill',
      '#202020',
      '-draw',
      'rectangle 100,20 150,35',
    ]);
    f.half = magick('half.png', [f.base, '-resize', '50%']);
    f.rotatedHalf = magick('rotated-half.png', [f.base, '-rotate', '180', '-resize', '50%']);
    f.padded = magick(
      'padded.png',
      [f.base, '-background', 'none', '-gravity', 'center', '-extent', '200x140'],
      'PNG32',
    );
    f.clear = magick('clear.png', ['-size', '50x40', 'xc:none'], 'PNG32');
    f.blurred = magick('blurred.png', [f.base, '-blur', '0x1.2']);
    f.rotated = magick('rotated.png', [f.base, '-rotate', '180']);
    f.palette = magick('palette.png', [f.base, '+dither', '-colors', '200'], 'PNG8');
    f.rotatedPalette = magick('rotated-palette.png', [f.rotated, '+dither', '-colors', '200'], 'PNG8');
    f.saturated = magick('saturated.png', [f.base, '-modulate', '100,150']);
    f.grey = magick(
      'grey.png',
      [f.base, '-colorspace', 'Gray', '-type', 'Grayscale', '-define', 'png:color-type=0'],
      'PNG',
    );
  });

  it('are in the gimp family', () => {
    for (const name of [
      'check_structure_sim_resized',
      'check_structure_sim_with_threshold',
      'check_palette_and_structure_sim',
      'check_saturation_increase_and_structure_sim',
    ])
      expect(metricFamilyOf(name), name).toBe('gimp');
  });

  it('check_structure_sim_resized: a half-size copy 1, a rotated one 0, transparency cropped first', async () => {
    const half = await runMetric('check_structure_sim_resized', f.half, f.base);
    expect(half.score, half.reason).toBe(1);
    expect((await runMetric('check_structure_sim_resized', f.rotatedHalf, f.base)).score).toBe(0);
    // the transparent border is cropped away, leaving the original at its own size
    const padded = await runMetric('check_structure_sim_resized', f.padded, f.base);
    expect(padded.score, padded.reason).toBe(1);
    expect((await runMetric('check_structure_sim_resized', f.clear, f.base)).reason).toMatch(
      /wholly transparent/,
    );
    expect((await runMetric('check_structure_sim_resized', join(tmp.dir, 'none.png'), f.base)).score).toBe(0);
  });

  it('check_structure_sim_with_threshold: the default 0.85, a stricter option, sizes reconciled by Lanczos', async () => {
    const blurred = await runMetric('check_structure_sim_with_threshold', f.blurred, f.base);
    expect(blurred.score, blurred.reason).toBe(1);
    expect(
      (await runMetric('check_structure_sim_with_threshold', f.blurred, f.base, { ssim_threshold: 0.999 }))
        .score,
    ).toBe(0);
    expect((await runMetric('check_structure_sim_with_threshold', f.half, f.base)).score).toBe(1);
    expect((await runMetric('check_structure_sim_with_threshold', f.rotated, f.base)).score).toBe(0);
  });

  it('check_palette_and_structure_sim: a palette copy 1, an RGB copy 0, a rotated palette image 0', async () => {
    const pal = await runMetric('check_palette_and_structure_sim', f.palette, f.base);
    expect(pal.score, pal.reason).toBe(1);
    const rgb = await runMetric('check_palette_and_structure_sim', f.base, f.base);
    expect(rgb.score).toBe(0);
    expect(rgb.reason).toMatch(/not a palette image \(mode RGB\)/);
    expect((await runMetric('check_palette_and_structure_sim', f.rotatedPalette, f.base)).score).toBe(0);
  });

  it('check_saturation_increase_and_structure_sim: more saturated 1, less 0, a grey original 0 (its hue band is all 0)', async () => {
    const more = await runMetric('check_saturation_increase_and_structure_sim', f.saturated, f.base);
    expect(more.score, more.reason).toBe(1);
    expect((await runMetric('check_saturation_increase_and_structure_sim', f.base, f.saturated)).score).toBe(
      0,
    );
    expect((await runMetric('check_saturation_increase_and_structure_sim', f.base, f.base)).score).toBe(0);
    const grey = await runMetric('check_saturation_increase_and_structure_sim', f.saturated, f.grey);
    expect(grey.score).toBe(0);
    expect(grey.reason).toMatch(/hue or value structure differs/);
  });

  it('check_green_background: green behind the mask 1, blue 0, a mask that is not square 0 (IndexError upstream)', async () => {
    const mask = magick('mask.png', [
      '-size',
      '60x60',
      'xc:white',
      '-fill',
      'black',
      '-draw',
      'rectangle 20,20 39,39',
    ]);
    const green = magick('green.png', [
      '-size',
      '60x60',
      'xc:#20c040',
      '-fill',
      'red',
      '-draw',
      'rectangle 20,20 39,39',
    ]);
    const blue = magick('blue.png', [
      '-size',
      '60x60',
      'xc:#2040c0',
      '-fill',
      'red',
      '-draw',
      'rectangle 20,20 39,39',
    ]);
    const wide = magick('wide.png', ['-size', '80x60', 'xc:white']);
    const wideGreen = magick('wide-green.png', ['-size', '80x60', 'xc:#20c040']);
    expect(metricFamilyOf('check_green_background')).toBe('gimp');
    const ok = await runMetric('check_green_background', green, mask);
    expect(ok.score, ok.reason).toBe(1);
    expect((await runMetric('check_green_background', blue, mask)).score).toBe(0);
    const notSquare = await runMetric('check_green_background', wideGreen, wide);
    expect(notSquare.score).toBe(0);
    expect(notSquare.reason).toMatch(/IndexError/);
  });

  it('check_triangle_position: the second rarest colour decides', async () => {
    // white ground, a red triangle, one blue pixel: in order of count blue, red, white — red is the triangle
    const tri = (name: string, points: string, extra: string[] = []) =>
      magick(name, [
        '-size',
        '100x100',
        'xc:white',
        '+antialias',
        '-fill',
        'red',
        '-draw',
        `polygon ${points}`,
        ...extra,
      ]);
    const marker = ['-fill', 'blue', '-draw', 'point 0,0'];
    const centred = tri('centred.png', '50,35 35,62 65,62', marker);
    const corner = tri('corner.png', '10,5 2,25 22,25', marker);
    expect(metricFamilyOf('check_triangle_position')).toBe('gimp');
    const ok = await runMetric('check_triangle_position', centred, {});
    expect(ok.score, ok.reason).toBe(1);
    expect((await runMetric('check_triangle_position', corner, {})).score).toBe(0);
    // with two colours the second rarest is the white ground, whose centroid stays near the centre
    const quirk = await runMetric('check_triangle_position', tri('corner-two.png', '10,5 2,25 22,25'), {});
    expect(quirk.score, quirk.reason).toBe(1);
    expect(quirk.reason).toMatch(/255, 255, 255/);
    // a palette image has no band axis
    expect(
      (await runMetric('check_triangle_position', magick('centred-p.png', [centred], 'PNG8'), {})).score,
    ).toBe(0);
  });
});
