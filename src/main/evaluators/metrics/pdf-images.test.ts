import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { hasLibreOffice, saveWithLibreOffice } from '../testing/libreoffice';
import { phash } from './pdf-images';

const hasImageMagick = spawnSync('sh', ['-c', 'test -x /usr/bin/convert']).status === 0;
const tmp = tempDir();
afterAll(tmp.cleanup);

/** A PNG ImageMagick draws, as a data URI for the page LibreOffice exports. */
function picture(name: string, args: string[]): string {
  const out = join(tmp.dir, `${name}.png`);
  execFileSync('/usr/bin/convert', [...args, `PNG24:${out}`]);
  return `<img src="data:image/png;base64,${readFileSync(out).toString('base64')}" width="160" height="100">`;
}
const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

describe.skipIf(!hasLibreOffice || !hasImageMagick)('compare_pdf_images on PDFs LibreOffice exported', () => {
  const f: Record<string, string> = {};
  beforeAll(() => {
    const disc = picture('disc', [
      '-size',
      '160x100',
      'gradient:#3060c0-#c0e0ff',
      '-fill',
      'yellow',
      '-draw',
      'circle 50,50 50,25',
    ]);
    const bars = picture('bars', [
      '-size',
      '160x100',
      'xc:white',
      '-fill',
      '#202020',
      '-draw',
      'rectangle 10,10 60,90',
      '-draw',
      'rectangle 100,20 150,35',
    ]);
    const other = picture('other', [
      '-size',
      '160x100',
      'gradient:#c02020-#202020',
      '-fill',
      'white',
      '-draw',
      'rectangle 90,5 150,60',
    ]);
    f.gold = saveWithLibreOffice(tmp.dir, 'gold', page(`<p>Figures</p>${disc}<p>and</p>${bars}`), 'pdf');
    f.half = saveWithLibreOffice(tmp.dir, 'half', page(`<p>Figures</p>${disc}<p>and</p>${other}`), 'pdf');
    f.one = saveWithLibreOffice(tmp.dir, 'one', page(`<p>Figures</p>${disc}`), 'pdf');
    f.text = saveWithLibreOffice(tmp.dir, 'text', page('<p>No figures here.</p>'), 'pdf');
  }, 180_000);

  it('is in the pdf family', () => expect(metricFamilyOf('compare_pdf_images')).toBe('pdf'));

  it('the same images 1, one of two changed 0.5, another count 0', async () => {
    expect((await runMetric('compare_pdf_images', f.gold, f.gold)).score).toBe(1);
    const half = await runMetric('compare_pdf_images', f.half, f.gold);
    expect(half.score, half.reason).toBe(0.5);
    const one = await runMetric('compare_pdf_images', f.one, f.gold);
    expect(one.score, one.reason).toBe(0);
    expect(one.reason).toMatch(/1 images in the result, 2 expected/);
  });

  it('PDFs without images match; a missing file scores 0', async () => {
    expect((await runMetric('compare_pdf_images', f.text, f.text)).score).toBe(1);
    expect((await runMetric('compare_pdf_images', f.text, f.one)).score).toBe(0);
    expect((await runMetric('compare_pdf_images', join(tmp.dir, 'none.pdf'), f.gold)).score).toBe(0);
  });

  it('phash: 64 bits, stable under a small brightness change, far for another picture', async () => {
    const raw = async (file: string) => {
      const { data, info } = await sharp(join(tmp.dir, file)).raw().toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height, channels: info.channels };
    };
    execFileSync('/usr/bin/convert', [
      join(tmp.dir, 'disc.png'),
      '-modulate',
      '103',
      `PNG24:${join(tmp.dir, 'disc-bright.png')}`,
    ]);
    const [a, b, c] = [
      phash(await raw('disc.png')),
      phash(await raw('disc-bright.png')),
      phash(await raw('bars.png')),
    ];
    const distance = (x: boolean[], y: boolean[]) => x.filter((v, i) => v !== y[i]).length;
    expect(a).toHaveLength(64);
    expect(distance(a, b)).toBeLessThanOrEqual(5);
    expect(distance(a, c)).toBeGreaterThan(5);
  });
});
