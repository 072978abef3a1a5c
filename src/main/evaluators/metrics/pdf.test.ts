import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { hasLibreOffice, saveWithLibreOffice } from '../testing/libreoffice';

const tmp = tempDir();
afterAll(tmp.cleanup);
const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;

describe.skipIf(!hasLibreOffice)('OSWorld pdf metrics on PDFs LibreOffice exported', () => {
  const f: Record<string, string> = {};
  beforeAll(() => {
    f.gold = saveWithLibreOffice(tmp.dir, 'gold', page('<p>The quick brown fox jumps over the lazy dog.</p><p style="page-break-before: always">Second page text.</p>'), 'pdf');
    f.same = saveWithLibreOffice(tmp.dir, 'same', page('<p>The quick brown fox jumps over the lazy dog.</p><p style="page-break-before: always">Second page text.</p>'), 'pdf');
    f.other = saveWithLibreOffice(tmp.dir, 'other', page('<p>A slow green turtle walks under the busy cat.</p>'), 'pdf');
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
});
