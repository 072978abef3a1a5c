import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { departures } from '../profile';
import { runMetric, tempDir } from '../testing/fixtures';

const hasTools = spawnSync('sh', ['-c', 'test -x /usr/bin/convert && command -v tesseract']).status === 0;
const tmp = tempDir();
afterAll(tmp.cleanup);

describe.skipIf(!hasTools)('compare_image_text on an image ImageMagick drew, read by Tesseract', () => {
  let image = '';
  beforeAll(() => {
    image = join(tmp.dir, 'sign.png');
    execFileSync('/usr/bin/convert', [
      '-size',
      '640x160',
      'xc:white',
      '-font',
      'DejaVu-Sans',
      '-pointsize',
      '40',
      '-fill',
      'black',
      '-annotate',
      '+20+60',
      'Quarterly Report',
      '-annotate',
      '+20+120',
      'Draft 2026',
      image,
    ]);
  });

  it('is in the documents family, with its departure listed', () => {
    expect(metricFamilyOf('compare_image_text')).toBe('documents');
    expect(departures().some((d) => d.metric === 'compare_image_text' && d.profile === 'osworld')).toBe(true);
  });

  it('text in the image 1 (across lines, joined by a space), other text 0', async () => {
    const hit = await runMetric('compare_image_text', image, { type: 'text', text: 'Quarterly Report' });
    expect(hit.score, hit.reason).toBe(1);
    expect((await runMetric('compare_image_text', image, { type: 'text', text: 'Report Draft' })).score).toBe(
      1,
    );
    expect(
      (await runMetric('compare_image_text', image, { type: 'text', text: 'quarterly report' })).score,
    ).toBe(0);
    expect(
      (await runMetric('compare_image_text', image, { type: 'text', text: 'Final Version' })).score,
    ).toBe(0);
  });

  it('a missing image or another rule type scores 0', async () => {
    expect(
      (await runMetric('compare_image_text', join(tmp.dir, 'none.png'), { type: 'text', text: 'x' })).score,
    ).toBe(0);
    expect((await runMetric('compare_image_text', image, { type: 'regex', text: 'Q.*' })).score).toBe(0);
  });
});
