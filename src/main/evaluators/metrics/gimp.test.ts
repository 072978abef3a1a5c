import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';

const hasImageMagick = spawnSync('sh', ['-c', 'test -x /usr/bin/convert']).status === 0;
const tmp = tempDir();
afterAll(tmp.cleanup);

/** An image ImageMagick draws: a gradient with a yellow disc and a dark bar, then `ops`. */
function magick(name: string, ops: string[] = [], base = 'base.png'): string {
  const out = join(tmp.dir, name);
  execFileSync('/usr/bin/convert', [join(tmp.dir, base), ...ops, out]);
  return out;
}

describe.skipIf(!hasImageMagick)('OSWorld gimp-family metrics on images ImageMagick saved', () => {
  const f: Record<string, string> = {};
  beforeAll(() => {
    execFileSync('/usr/bin/convert', [
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
      join(tmp.dir, 'base.png'),
    ]);
    f.base = join(tmp.dir, 'base.png');
    f.copy = magick('copy.png');
    f.mirror = magick('mirror.png', ['-flop']);
    f.darker = magick('darker.png', ['-modulate', '70']);
    f.contrast = magick('contrast.png', ['-sigmoidal-contrast', '6x50%']);
    f.other = magick('other.png', ['-rotate', '180']);
    f.grey = magick('grey.png', ['-colorspace', 'Gray']);
    f.greyOther = magick('grey-other.png', ['-rotate', '180', '-colorspace', 'Gray']);
    f.alpha = magick('alpha.png', [
      '-alpha',
      'set',
      '-channel',
      'A',
      '-evaluate',
      'set',
      '0',
      '+channel',
      '-fill',
      'red',
      '-draw',
      'rectangle 10,10 49,29',
    ]);
  });

  it('are in the gimp family', () => expect(metricFamilyOf('check_structure_sim')).toBe('gimp'));

  it('check_structure_sim: a copy 1, a rotated image 0, grey images compared as RGB, other sizes 0', async () => {
    expect((await runMetric('check_structure_sim', f.copy, f.base)).score).toBe(1);
    expect((await runMetric('check_structure_sim', f.other, f.base)).score).toBe(0);
    expect((await runMetric('check_structure_sim', f.grey, f.grey)).score).toBe(1);
    expect((await runMetric('check_structure_sim', f.greyOther, f.grey)).score).toBe(0);
    expect((await runMetric('check_structure_sim', f.grey, f.base)).score).toBe(0);
    expect(
      (await runMetric('check_structure_sim', magick('small.png', ['-resize', '50%']), f.base)).reason,
    ).toMatch(/sizes differ/);
  });

  it('check_file_exists_and_structure_sim: an exported copy 1, a rotated image 0, a missing file 0', async () => {
    expect((await runMetric('check_file_exists_and_structure_sim', f.copy, f.base)).score).toBe(1);
    expect((await runMetric('check_file_exists_and_structure_sim', f.other, f.base)).score).toBe(0);
    const missing = await runMetric('check_file_exists_and_structure_sim', join(tmp.dir, 'none.png'), f.base);
    expect(missing.score).toBe(0);
    expect(missing.reason).toMatch(/does not exist/);
  });

  it('check_image_mirror: the flopped image 1, the original 0', async () => {
    expect((await runMetric('check_image_mirror', f.mirror, f.base)).score).toBe(1);
    expect((await runMetric('check_image_mirror', f.copy, f.base)).score).toBe(0);
  });

  it('check_image_size and check_image_file_size', async () => {
    expect((await runMetric('check_image_size', f.base, { width: 160, height: 100 })).score).toBe(1);
    expect((await runMetric('check_image_size', f.base, { width: 100 })).score).toBe(0);
    expect(
      (await runMetric('check_image_size', f.alpha, { width: 40, height: 20, ignore_transparent: true }))
        .score,
    ).toBe(1);
    expect((await runMetric('check_image_file_size', f.base, { max_size: 1_000_000 })).score).toBe(1);
    expect((await runMetric('check_image_file_size', f.base, { max_size: 100 })).score).toBe(0);
  });

  it('brightness and contrast changes with the same structure', async () => {
    expect((await runMetric('check_brightness_decrease_and_structure_sim', f.darker, f.base)).score).toBe(1);
    expect((await runMetric('check_brightness_decrease_and_structure_sim', f.base, f.darker)).score).toBe(0);
    // another size: the result is resized to the original's with Lanczos before the comparison
    const smaller = await runMetric(
      'check_brightness_decrease_and_structure_sim',
      magick('darker-small.png', ['-resize', '80%'], 'darker.png'),
      f.base,
    );
    expect(smaller.score, smaller.reason).toBe(1);
    expect((await runMetric('check_contrast_increase_and_structure_sim', f.contrast, f.base)).score).toBe(1);
    expect((await runMetric('check_contrast_increase_and_structure_sim', f.base, f.contrast)).score).toBe(0);
  });

  it('check_textbox_on_leftside and check_config_status', async () => {
    const page = (name: string, x: number) => {
      const out = join(tmp.dir, name);
      execFileSync('/usr/bin/convert', [
        '-size',
        '200x100',
        'xc:white',
        '-fill',
        'black',
        '-draw',
        `rectangle ${x},40 ${x + 60},50`,
        out,
      ]);
      return out;
    };
    expect((await runMetric('check_textbox_on_leftside', page('left.png', 3), {})).score).toBe(1);
    expect((await runMetric('check_textbox_on_leftside', page('middle.png', 80), {})).score).toBe(0);
    const rc = join(tmp.dir, 'sessionrc');
    writeFileSync(
      rc,
      '# GIMP sessionrc\n\n(session-info "toolbox"\n    (factory-entry "gimp-toolbox-window"))\n(hide-docks yes)\n(single-window-mode no)\n',
    );
    expect((await runMetric('check_config_status', rc, { key: 'hide-docks', value: 'yes' })).score).toBe(1);
    expect(
      (await runMetric('check_config_status', rc, { key: 'single-window-mode', value: 'yes' })).score,
    ).toBe(0);
  });
});
