// OSWorld's PDF metrics (family `pdf`; desktop_env/evaluators/metrics/pdf.py and chrome.py): page counts and text
// similarity. PDFs are read with pdfjs-dist (Mozilla's PDF.js; OSWorld uses pypdf and PyMuPDF).
import { registerMetricFamily } from '../family';
import { fail, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, isRecord, readBytes, sharedValue } from './inputs';
import { fuzzRatio } from './ooxml';
import './pdf-images';

interface PdfText {
  pages: number;
  /** Each page's text, lines ended by a newline (as PyMuPDF's page.get_text()). */
  text: string;
}

async function loadPdf(path: unknown): Promise<PdfText | string> {
  const bytes = await readBytes(path);
  if (!bytes) return `PDF ${brief(path)} cannot be read`;
  return sharedValue(`pdf:${String(path)}`, async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    try {
      const doc = await pdfjs.getDocument({
        data: new Uint8Array(bytes),
        isEvalSupported: false,
        useSystemFonts: false,
        verbosity: 0,
      }).promise;
      let text = '';
      for (let i = 1; i <= doc.numPages; i++) {
        const content = await (await doc.getPage(i)).getTextContent();
        let line = '';
        for (const item of content.items) {
          if (!('str' in item)) continue;
          line += item.str;
          if (item.hasEOL) {
            text += line + '\n';
            line = '';
          }
        }
        if (line) text += line + '\n';
      }
      const pages = doc.numPages;
      await doc.destroy();
      return { pages, text };
    } catch (e) {
      return `${brief(path)} is not a readable PDF: ${(e as Error).message}`;
    }
  });
}

const relations: Record<string, (a: number, b: number) => boolean> = {
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  lt: (a, b) => a < b,
  le: (a, b) => a <= b,
  gt: (a, b) => a > b,
  ge: (a, b) => a >= b,
};

/** check_pdf_pages — `expected`: `{relation: eq|ne|lt|le|gt|ge, ref_value}`; the page count against it. */
async function checkPdfPages(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const pdf = await loadPdf(result);
  if (typeof pdf === 'string') return fail(pdf);
  const rule = isRecord(expected) ? expected : {};
  const rel = relations[String(rule.relation)];
  if (!rel) return fail(`unknown relation ${brief(rule.relation)}`);
  return verdict(
    rel(pdf.pages, Number(rule.ref_value)),
    `${pdf.pages} pages ${String(rule.relation)} ${String(rule.ref_value)}`,
    `${pdf.pages} pages, not ${String(rule.relation)} ${String(rule.ref_value)}`,
  );
}

/**
 * compare_pdfs — a PDF (or a list) against the expected one(s): the average over pairs of the fuzzy ratio of their
 * whole texts (trimmed). A pair that cannot be read adds 0.
 */
async function comparePdfs(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const [rs, es] = Array.isArray(expected)
    ? [Array.isArray(result) ? result : [result], expected]
    : [[result], [expected]];
  if (es.length === 0) return fail('no expected PDF');
  let total = 0;
  const notes: string[] = [];
  for (const [i, e] of es.entries()) {
    if (i >= rs.length) break;
    const [a, b] = [await loadPdf(rs[i]), await loadPdf(e)];
    if (typeof a === 'string' || typeof b === 'string') {
      notes.push(typeof a === 'string' ? a : String(b));
      continue;
    }
    total += fuzzRatio(a.text.trim(), b.text.trim());
  }
  const score = total / es.length;
  return {
    score,
    reason: `text similarity ${score.toFixed(3)}${notes.length ? ` (${notes.join('; ')})` : ''}`,
  };
}

registerMetricFamily('pdf', { check_pdf_pages: checkPdfPages, compare_pdfs: comparePdfs });

registerDeparture({
  metric: 'compare_pdfs',
  profile: 'osworld',
  case: 'text extraction',
  why: 'OSWorld extracts text with PyMuPDF; Proctor with PDF.js, whose line breaks and spacing can differ, so fuzzy scores may differ slightly',
});
