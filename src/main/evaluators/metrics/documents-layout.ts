// OSWorld's docs.py metrics on the layout of docx pages (family `documents`): tab stops (check_tabstops) and
// page numbers in footers (has_page_numbers_in_footers), read as python-docx reads them (ooxml.ts).
import { registerMetricFamily } from '../family';
import { fail, pass, type MetricOutcome } from '../metric';
import { brief } from './inputs';
import { loadDocx, partRelationships, storyParagraphs, type Docx, type DocxTabStop } from './ooxml';
import { pySpace, pyStrip } from './python-text';

const ignoredTab = (t: DocxTabStop) =>
  t.alignment === 'clear' || (t.alignment === 'left' && t.position === 0);

/**
 * check_tabstops — two .docx files, their non-blank body paragraphs (same count, else 0). Option
 * `word_number_split_by_tabstop` (with `index`, default 0): every result paragraph's `index`-th tab-separated
 * part must hold exactly that many words. Then per paragraph pair the tab stops set on the paragraph itself
 * (cleared ones and a left stop at 0 left out) must be as many with the same alignments (else 0); their
 * position differences, over the expected document's first section's text width, are averaged over the
 * paragraphs and the score is 1 minus that (fractional).
 */
async function checkTabstops(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const [x, y] = await Promise.all([loadDocx(result), loadDocx(expected)]);
  if (typeof x === 'string') return fail(`result: ${x}`);
  if (typeof y === 'string') return fail(`expected: ${y}`);
  const [pa, pb] = [x, y].map((d) => d.paragraphs.filter((p) => pyStrip(p.text)));
  if (pa.length !== pb.length) return fail(`${pa.length} non-blank paragraphs, expected ${pb.length}`);
  const number = options.word_number_split_by_tabstop;
  if (number !== undefined && number !== null) {
    const index = typeof options.index === 'number' ? options.index : 0;
    for (const p of pa) {
      const parts = p.text.split('\t');
      const part = parts.at(index);
      if (part === undefined)
        return fail(`'${brief(p.text, 40)}' has no tab-separated part ${index} (OSWorld raises)`);
      const words = part.split(pySpace).filter((w) => pyStrip(w));
      if (words.length !== number)
        return fail(
          `'${brief(part, 40)}' has ${words.length} words before the tab, expected ${String(number)}`,
        );
    }
  }
  const section = y.sections[0];
  if (
    !section ||
    section.pageWidth === undefined ||
    section.leftMargin === undefined ||
    section.rightMargin === undefined
  ) {
    return fail('the expected document has no page width or margins (OSWorld raises)');
  }
  const width = section.pageWidth - section.leftMargin - section.rightMargin;
  let minus = 0;
  for (const [i, p] of pa.entries()) {
    const [ta, tb] = [p.tabs.filter((t) => !ignoredTab(t)), pb[i].tabs.filter((t) => !ignoredTab(t))];
    if (ta.length !== tb.length)
      return fail(`paragraph '${brief(p.text, 40)}' has ${ta.length} tab stops, expected ${tb.length}`);
    let difference = 0;
    for (const [j, t] of ta.entries()) {
      if (t.alignment !== tb[j].alignment)
        return fail(
          `paragraph '${brief(p.text, 40)}' tab stop ${j + 1} is ${t.alignment}, expected ${tb[j].alignment}`,
        );
      difference += Math.abs(t.position - tb[j].position);
    }
    minus += difference / width;
  }
  if (pa.length === 0) return fail('no non-blank paragraph (OSWorld divides by zero)');
  const score = 1 - minus / pa.length;
  return {
    score,
    reason:
      score === 1
        ? 'every tab stop is where expected'
        : `tab stops off by ${((minus / pa.length) * 100).toFixed(1)}% of the text width on average`,
  };
}

/** The text of the first paragraph of a section's default footer: its own, or the nearest earlier section's
 * (python-docx follows "linked to previous"); '' when no section before has one (python-docx adds an empty one). */
async function footerText(doc: Docx, section: number): Promise<string | { error: string }> {
  for (let s = section; s >= 0; s--) {
    const id = doc.sections[s].footerId;
    if (!id) continue;
    const rel = (await partRelationships(doc)).find((r) => r.id === id);
    if (!rel || rel.external) return { error: `footer relationship ${id} is missing` };
    const paras = await storyParagraphs(doc, rel.target);
    if (typeof paras === 'string') return { error: paras };
    return paras[0]?.text ?? '';
  }
  return '';
}

/** Python's str.isdigit: decimal digits and the superscript / circled digit forms. */
const hasDigit = (s: string) =>
  /[\p{Nd}\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24f5-\u24fd\u24ea\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792]/u.test(
    s,
  );

/**
 * has_page_numbers_in_footers — a .docx; 1 when the first paragraph of every section's footer holds a digit (a
 * page number field shows its last value, e.g. "1"). A section without a footer of its own uses the previous
 * section's; with none at all it fails. A document with no section at all scores 1, as in OSWorld.
 */
async function hasPageNumbersInFooters(result: unknown): Promise<MetricOutcome> {
  if (!result) return fail('the document is missing');
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(doc);
  for (let i = 0; i < doc.sections.length; i++) {
    const text = await footerText(doc, i);
    if (typeof text !== 'string') return fail(`section ${i + 1}: ${text.error}`);
    if (!hasDigit(text)) return fail(`section ${i + 1}'s footer ('${brief(text, 40)}') has no page number`);
  }
  return pass(`all ${doc.sections.length} sections have a number in their footer`);
}

registerMetricFamily('documents', {
  check_tabstops: checkTabstops,
  has_page_numbers_in_footers: hasPageNumbersInFooters,
});
