// OSWorld's docs.py metrics on what a Writer docx holds besides text (family `documents`): highlighted runs
// (compare_highlighted_text), an inserted equation object (compare_insert_equation) and images in runs
// (compare_contains_image). The package is read by ooxml.ts; these metrics walk the runs of its document part as
// python-docx's `paragraph.runs` gives them (the w:r children of the body's w:p) or, for highlighting, every w:r.
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { registerMetricFamily } from '../family';
import type { GradingContext } from '../getter';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { brief } from './inputs';
import { sameTexts } from './documents-marks';
import { loadDocx } from './ooxml';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const quiet = {
  errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined },
};

function children(el: Element, local: string): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling)
    if (n.nodeType === 1 && (n as Element).namespaceURI === W && (n as Element).localName === local)
      out.push(n as Element);
  return out;
}

/** The root of word/document.xml of the docx at `path`, or why it cannot be read. */
async function documentRoot(path: unknown): Promise<Element | string> {
  const doc = await loadDocx(path);
  if (typeof doc === 'string') return doc;
  const part = doc.zip.file('word/document.xml');
  if (!part) return 'not a docx file: no word/document.xml';
  const root = new DOMParser(quiet).parseFromString(await part.async('string'), 'application/xml')
    .documentElement as unknown as Element | null;
  return root ?? 'word/document.xml cannot be parsed';
}

/** python-docx's `[p.runs for p in document.paragraphs]`: the direct w:r of each direct w:p of the body. */
function bodyRuns(root: Element): Element[][] {
  const body = children(root, 'body')[0];
  return body ? children(body, 'p').map((p) => children(p, 'r')) : [];
}

async function runPairs(result: unknown, expected: unknown): Promise<[Element[][], Element[][]] | string> {
  const [a, b] = await Promise.all([documentRoot(result), documentRoot(expected)]);
  if (typeof a === 'string') return `result: ${a}`;
  if (typeof b === 'string') return `expected: ${b}`;
  return [bodyRuns(a), bodyRuns(b)];
}

/** The texts of the highlighted runs: every w:r whose first w:highlight has a w:val other than `none` (or none
 * at all) gives the text of its first w:t (`null` when that is empty, as ElementTree's `.text`). */
function highlightedTexts(root: Element): Set<string | null> {
  const out = new Set<string | null>();
  for (const run of Array.from(root.getElementsByTagNameNS(W, 'r'))) {
    const mark = run.getElementsByTagNameNS(W, 'highlight')[0];
    if (!mark || (mark.hasAttributeNS(W, 'val') && mark.getAttributeNS(W, 'val') === 'none')) continue;
    const t = run.getElementsByTagNameNS(W, 't')[0];
    if (t) out.add(t.textContent ? t.textContent : null);
  }
  return out;
}

/**
 * compare_highlighted_text — `result`, `expected`: docx files. 1 when the sets of highlighted texts are equal:
 * for every w:r of the document part (tables included) with a w:highlight whose value is not `none`, the text of
 * its first w:t. As OSWorld, only `w:highlight` counts: LibreOffice saves highlighting as shading (`w:shd`) unless
 * its "export as highlighting" option is set, so a Writer-saved result has no highlighted text (upstream notes
 * the metric as deprecated for that reason). A missing path scores 0; an unreadable file too (OSWorld raises).
 */
async function compareHighlightedText(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const [a, b] = await Promise.all([documentRoot(result), documentRoot(expected)]);
  if (typeof a === 'string') return fail(`result: ${a} (OSWorld raises)`);
  if (typeof b === 'string') return fail(`expected: ${b} (OSWorld raises)`);
  const [x, y] = [highlightedTexts(a), highlightedTexts(b)];
  const same = x.size === y.size && [...x].every((t) => y.has(t));
  const show = (s: Set<string | null>) => brief([...s]);
  return verdict(
    same,
    `the same highlighted texts: ${show(x)}`,
    `highlighted texts ${show(x)}, expected ${show(y)}`,
  );
}

/**
 * compare_insert_equation — `result`, `expected`: docx files. 0 unless their texts compare equal (compare_docx_files
 * with its defaults); then 1 when some pair of runs at the same place (paragraphs and their runs paired in order,
 * the shorter list deciding) both hold a `w:object` (an embedded OLE object such as an Equation Editor formula),
 * else 0. A formula LibreOffice saves as Office Math (`m:oMath`, no w:object) does not count, as upstream.
 */
async function compareInsertEquation(
  result: unknown,
  expected: unknown,
  _o: Record<string, unknown>,
  ctx: GradingContext,
): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const same = await sameTexts(result, expected, ctx);
  if (same.score === 0) return fail(`texts differ: ${same.reason}`);
  const runs = await runPairs(result, expected);
  if (typeof runs === 'string') return fail(runs);
  const hasObject = (r: Element) => r.getElementsByTagNameNS(W, 'object').length > 0;
  for (const [i, p] of runs[0].entries()) {
    const q = runs[1][i];
    if (!q) break;
    for (const [j, r] of p.entries()) {
      if (j >= q.length) break;
      if (hasObject(r) && hasObject(q[j]))
        return pass(`paragraph ${i + 1}, run ${j + 1} holds an object in both documents`);
    }
  }
  return fail('no run holds an equation object (w:object) at the same place in both documents');
}

/**
 * compare_contains_image — `result`, `expected`: docx files. Paragraphs and their runs paired in order (the
 * shorter list deciding); 0 at the first pair where one run's XML contains the text `graphicData` (a DrawingML
 * picture or shape; the check is on the serialized XML, text included) and the other's does not, else 1. Extra
 * paragraphs or runs on either side are not looked at. An unreadable file scores 0.
 */
async function compareContainsImage(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const runs = await runPairs(result, expected);
  if (typeof runs === 'string') return fail(runs);
  const serializer = new XMLSerializer();
  const hasImage = (r: Element) => serializer.serializeToString(r as unknown as Node).includes('graphicData');
  for (const [i, p] of runs[0].entries()) {
    const q = runs[1][i];
    if (!q) break;
    for (const [j, r] of p.entries()) {
      if (j >= q.length) break;
      const [x, y] = [hasImage(r), hasImage(q[j])];
      if (x !== y)
        return fail(
          `paragraph ${i + 1}, run ${j + 1}: ${x ? 'an image in the result only' : 'no image where the expected document has one'}`,
        );
    }
  }
  return pass('images are in the same runs');
}

registerMetricFamily('documents', {
  compare_highlighted_text: compareHighlightedText,
  compare_insert_equation: compareInsertEquation,
  compare_contains_image: compareContainsImage,
});
