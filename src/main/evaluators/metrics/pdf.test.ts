import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { hasLibreOffice, saveManyWithLibreOffice } from '../testing/libreoffice';

const tmp = tempDir();
afterAll(tmp.cleanup);
const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

describe.skipIf(!hasLibreOffice)('OSWorld pdf metrics on PDFs LibreOffice exported', () => {
  const f: Record<string, string> = {};
  beforeAll(() => {
    const text = page(
      '<p>The quick brown fox jumps over the lazy dog.</p><p style="page-break-before: always">Second page text.</p>',
    );
    // a page showing the gold's words only as a picture (ImageMagick-drawn), with no text of its own
    const picture = join(tmp.dir, 'words.png');
    execFileSync('/usr/bin/convert', [
      '-size',
      '600x80',
      '-background',
      'white',
      '-fill',
      'black',
      'label:The quick brown fox jumps over the lazy dog.',
      picture,
    ]);
    Object.assign(
      f,
      saveManyWithLibreOffice(
        tmp.dir,
        {
          gold: text,
          same: text,
          other: page('<p>A slow green turtle walks under the busy cat.</p>'),
          unlike: page('<p>0123456789</p>'),
          picture: page(`<p><img src="${pathToFileURL(picture).href}" width="600" height="80"></p>`),
        },
        'pdf',
      ),
    );
  }, 120_000);

  it('are in the pdf family', () => expect(metricFamilyOf('compare_pdfs')).toBe('pdf'));

  it('check_pdf_pages compares the page count', async () => {
    expect((await runMetric('check_pdf_pages', f.gold, { relation: 'eq', ref_value: 2 })).score).toBe(1);
    expect((await runMetric('check_pdf_pages', f.other, { relation: 'ge', ref_value: 2 })).score).toBe(0);
  });

  it('compare_pdfs: the same text 1, another text partial, a missing file 0', async () => {
    expect((await runMetric('compare_pdfs', f.same, f.gold)).score).toBe(1);
    const partial = await runMetric('compare_pdfs', f.other, f.gold);
    expect(partial.score, partial.reason).toBeGreaterThan(0);
    expect(partial.score).toBeLessThan(0.8);
    expect((await runMetric('compare_pdfs', undefined, f.gold)).score).toBe(0);
  });

  it('compare_pdfs: a text sharing no character with the gold 0, a page with the words only as a picture 0', async () => {
    const unlike = await runMetric('compare_pdfs', f.unlike, f.gold);
    expect(unlike.score, unlike.reason).toBe(0);
    expect(readFileSync(f.picture, 'latin1')).toMatch(/\/Subtype\s*\/Image/);
    const picture = await runMetric('compare_pdfs', f.picture, f.gold);
    expect(picture.score, picture.reason).toBe(0);
    expect((await runMetric('check_pdf_pages', f.picture, { relation: 'eq', ref_value: 1 })).score).toBe(1);
  });
});
