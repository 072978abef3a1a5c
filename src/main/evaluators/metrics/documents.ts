// OSWorld's Writer metrics (family `documents`; desktop_env/evaluators/metrics/docs.py) on docx files read as
// python-docx reads them (ooxml.ts) and .odt files as odfpy reads them (odt.ts): paragraph texts, tables, page
// breaks, line spacing, fonts, subscripts, and LibreOffice's default font in its registry file. The rest of
// docs.py's metrics live in documents-*.ts, compare_epub in epub.ts, and table.py's
// compare_conference_city_in_order in sheets-osworld.ts.
import { DOMParser } from '@xmldom/xmldom';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { brief, isRecord, readText } from './inputs';
import { loadOdt } from './odt';
import { fuzzRatio, loadDocx, type Docx } from './ooxml';
// OSWorld's other document metrics, in their own modules
import './documents-compare';
import './documents-layout';
import './documents-marks';
import './documents-extra';
import './epub';
import './sheets-osworld';

async function pair(a: unknown, b: unknown): Promise<[Docx, Docx] | string> {
  if (!a || !b) return 'a document is missing';
  const [x, y] = await Promise.all([loadDocx(a), loadDocx(b)]);
  if (typeof x === 'string') return `result: ${x}`;
  if (typeof y === 'string') return `expected: ${y}`;
  return [x, y];
}

const squash = (paras: string[]) => paras.join('\n').replace(/\s+/g, ' ').trim();

/** The paragraph texts of two .docx (python-docx) or two .odt files (odfpy, as OSWorld reads them). */
async function paragraphTexts(result: unknown, expected: unknown): Promise<[string[], string[]] | string> {
  const both = (ext: string) =>
    typeof result === 'string' &&
    typeof expected === 'string' &&
    result.endsWith(ext) &&
    expected.endsWith(ext);
  if (both('.docx')) {
    const docs = await pair(result, expected);
    return typeof docs === 'string'
      ? docs
      : [docs[0].paragraphs.map((p) => p.text), docs[1].paragraphs.map((p) => p.text)];
  }
  if (both('.odt')) {
    const [x, y] = await Promise.all([loadOdt(result), loadOdt(expected)]);
    if (typeof x === 'string') return `result: ${x}`;
    if (typeof y === 'string') return `expected: ${y}`;
    return [x.paragraphs, y.paragraphs];
  }
  return `compares two .docx or two .odt files (got ${brief(result)} and ${brief(expected)})`;
}

/**
 * compare_docx_files — two docx files (their body paragraphs' texts) or two .odt files (every text:p, as odfpy
 * reads them). Options as OSWorld: `ignore_blanks` (default
 * true: the texts joined, whitespace runs collapsed, must be equal), `ignore_case`, `ignore_order` (paragraphs
 * sorted), `delete_empty_lines`, `content_only` (score = fuzzy ratio of the collapsed texts), `fuzzy_match` with
 * optional `fuzzy_match_threshold`. Without `ignore_blanks` paragraphs compare one by one (fuzzy: the average).
 */
export async function compareDocxFiles(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const texts = await paragraphTexts(result, expected);
  if (typeof texts === 'string') return fail(texts);
  const ignoreBlanks = options.ignore_blanks !== false;
  const ignoreCase = options.ignore_case === true;
  const threshold =
    typeof options.fuzzy_match_threshold === 'number' ? options.fuzzy_match_threshold : undefined;
  let [a, b] = texts;
  if (options.ignore_order) [a, b] = [[...a].sort(), [...b].sort()];
  if (options.delete_empty_lines) [a, b] = [a.filter((p) => p.trim()), b.filter((p) => p.trim())];
  const lower = (s: string) => (ignoreCase ? s.toLowerCase() : s);
  if (options.content_only || (ignoreBlanks && options.fuzzy_match)) {
    const r = fuzzRatio(lower(squash(a)), lower(squash(b)));
    if (!options.content_only && threshold !== undefined)
      return verdict(
        r >= threshold,
        `similarity ${r.toFixed(3)} ≥ ${threshold}`,
        `similarity ${r.toFixed(3)} < ${threshold}`,
      );
    return { score: r, reason: `text similarity ${r.toFixed(3)}` };
  }
  if (ignoreBlanks) {
    const [x, y] = [lower(squash(a)), lower(squash(b))];
    return verdict(
      x === y,
      'the texts are equal (blanks ignored)',
      `the texts differ: '${brief(x, 80)}' vs '${brief(y, 80)}'`,
    );
  }
  if (a.length !== b.length) return fail(`${a.length} paragraphs, expected ${b.length}`);
  if (options.fuzzy_match) {
    if (a.length === 0) return pass('no paragraphs on either side');
    let total = 0;
    for (const [i, p] of a.entries()) {
      const r = fuzzRatio(lower(p), lower(b[i]));
      total += threshold !== undefined ? Number(r >= threshold) : r;
    }
    return {
      score: total / a.length,
      reason: `average paragraph similarity ${(total / a.length).toFixed(3)}`,
    };
  }
  const at = a.findIndex((p, i) => lower(p) !== lower(b[i]));
  return verdict(
    at < 0,
    `all ${a.length} paragraphs equal`,
    `paragraph ${at + 1} differs: '${brief(a[at], 80)}' vs '${brief(b[at], 80)}'`,
  );
}

/** compare_docx_tables — the same number of tables, of the same shape, with equal (trimmed) cell texts. */
async function compareDocxTables(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const docs = await pair(result, expected);
  if (typeof docs === 'string') return fail(docs);
  const [ta, tb] = [docs[0].tables, docs[1].tables];
  if (ta.length !== tb.length) return fail(`${ta.length} tables, expected ${tb.length}`);
  for (const [t, rows] of ta.entries()) {
    const other = tb[t];
    const cols = (x: string[][]) => Math.max(0, ...x.map((r) => r.length));
    if (rows.length !== other.length || cols(rows) !== cols(other))
      return fail(`table ${t + 1} is ${rows.length}×${cols(rows)}, expected ${other.length}×${cols(other)}`);
    for (const [i, row] of rows.entries()) {
      for (let j = 0; j < cols(rows); j++) {
        const [x, y] = [(row[j] ?? '').trim(), (other[i][j] ?? '').trim()];
        if (x !== y) return fail(`table ${t + 1} cell (${i + 1}, ${j + 1}) is '${x}', expected '${y}'`);
      }
    }
  }
  return pass(`all ${ta.length} tables equal`);
}

/** contains_page_break — 1 when the body paragraphs hold a page break (`w:br type=page`), exactly
 * `page_break_count` of them when the rules give it. */
async function containsPageBreak(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(doc);
  const n = doc.paragraphs.reduce((s, p) => s + p.runs.reduce((t, r) => t + r.pageBreaks, 0), 0);
  const want =
    isRecord(expected) && typeof expected.page_break_count === 'number'
      ? expected.page_break_count
      : undefined;
  if (want !== undefined && n !== want) return fail(`${n} page breaks, expected ${want}`);
  return verdict(n > 0, `${n} page breaks`, 'no page break');
}

/** compare_line_spacing — the documents compare equal (compare_docx_files, defaults) and every paragraph has the
 * line spacing of its counterpart. */
async function compareLineSpacing(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const same = await compareDocxFiles(result, expected, {});
  if (same.score !== 1) return fail(`texts differ: ${same.reason}`);
  // two .odt files can compare equal above; python-docx then cannot open them (OSWorld scores 0)
  const docs = await pair(result, expected);
  if (typeof docs === 'string') return fail(docs);
  const [a, b] = docs.map((d) => d.paragraphs);
  if (a.length !== b.length) return fail(`${a.length} paragraphs, expected ${b.length}`);
  const at = a.findIndex((p, i) => p.lineSpacing !== b[i].lineSpacing);
  return verdict(
    at < 0,
    'every paragraph has the expected line spacing',
    `paragraph ${at + 1} ('${brief(a[at]?.text, 40)}') has line spacing ${a[at]?.lineSpacing ?? 'unset'}, expected ${b[at]?.lineSpacing ?? 'unset'}`,
  );
}

/** compare_font_names — `expected`: `{font_name}`; 1 when every run of the body paragraphs sets that font. */
async function compareFontNames(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(doc);
  const want = isRecord(expected) ? String(expected.font_name) : '';
  const off = doc.paragraphs.flatMap((p) => p.runs).find((r) => r.font !== want);
  return verdict(
    !off,
    `every run is in ${want}`,
    `a run ('${brief(off?.text, 40)}') is in ${off?.font ?? 'the default font'}, expected ${want}`,
  );
}

/** compare_subscript_contains — 1 when some run is subscript in both documents at the same paragraph and run. */
async function compareSubscriptContains(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const docs = await pair(result, expected);
  if (typeof docs === 'string') return fail(docs);
  const [a, b] = docs.map((d) => d.paragraphs);
  const hit = a.some(
    (p, i) =>
      i < b.length && p.runs.some((r, j) => j < b[i].runs.length && r.subscript && b[i].runs[j].subscript),
  );
  return verdict(hit, 'a subscript run matches', 'no subscript run where the expected document has one');
}

/** find_default_font — `result`: LibreOffice's registrymodifications.xcu; 1 when Writer's DefaultFont/Standard is
 * `font_name`. */
async function findDefaultFont(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const text = await readText(result);
  const want = isRecord(expected) ? String(expected.font_name) : '';
  if (text === undefined) return fail(`config file ${brief(result)} cannot be read`);
  const OOR = 'http://openoffice.org/2001/registry';
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined },
  }).parseFromString(text, 'application/xml');
  let font: string | undefined;
  for (const item of Array.from(doc.getElementsByTagName('item'))) {
    if (item.getAttributeNS(OOR, 'path') !== '/org.openoffice.Office.Writer/DefaultFont') continue;
    for (const prop of Array.from(item.getElementsByTagName('prop'))) {
      if (prop.getAttributeNS(OOR, 'name') !== 'Standard') continue;
      for (const v of Array.from(prop.getElementsByTagName('value'))) font = v.textContent ?? '';
    }
  }
  return verdict(
    font === want,
    `default font is ${want}`,
    `default font is ${font ?? 'not set'}, expected ${want}`,
  );
}

/** is_first_line_centered — the first body paragraph is centred (w:jc center). */
async function isFirstLineCentered(result: unknown): Promise<MetricOutcome> {
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(doc);
  const first = doc.paragraphs[0];
  if (!first) return fail('the document has no paragraph (OSWorld raises)');
  return verdict(
    first.alignment === 'center',
    'the first line is centred',
    `the first line is aligned ${first.alignment ?? 'by its style'}`,
  );
}

/** check_italic_font_size_14 — the documents compare equal, and every italic run of the result is 14 pt. */
async function checkItalicFontSize14(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const same = await compareDocxFiles(result, expected, {});
  if (same.score !== 1) return fail(`texts differ: ${same.reason}`);
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(doc);
  const off = doc.paragraphs.flatMap((p) => p.runs).find((r) => r.italic && r.size !== 28);
  return verdict(
    !off,
    'every italic run is 14 pt',
    `italic run '${brief(off?.text, 40)}' is ${off?.size ? `${off.size / 2} pt` : 'of the default size'}`,
  );
}

/** evaluate_strike_through_last_paragraph — the documents compare equal, and every run of the result's last
 * paragraph is struck through. */
async function evaluateStrikeThroughLastParagraph(
  result: unknown,
  expected: unknown,
): Promise<MetricOutcome> {
  const same = await compareDocxFiles(result, expected, {});
  if (same.score !== 1) return fail(`texts differ: ${same.reason}`);
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(doc);
  const last = doc.paragraphs.at(-1);
  if (!last) return fail('the document has no paragraph');
  const off = last.runs.find((r) => !r.strike);
  return verdict(
    !off,
    'the last paragraph is struck through',
    `'${brief(off?.text, 40)}' in the last paragraph is not struck through`,
  );
}

/** compare_docx_lines — the sets of non-empty (trimmed) paragraph texts are equal. */
async function compareDocxLines(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const docs = await pair(result, expected);
  if (typeof docs === 'string') return fail(docs);
  const [a, b] = docs.map((d) => new Set(d.paragraphs.map((p) => p.text.trim()).filter(Boolean)));
  const same = a.size === b.size && [...a].every((x) => b.has(x));
  return verdict(
    same,
    `the same ${a.size} lines`,
    `lines differ: ${brief([...a].filter((x) => !b.has(x)))} vs ${brief([...b].filter((x) => !a.has(x)))}`,
  );
}

registerMetricFamily('documents', {
  compare_docx_files: compareDocxFiles,
  compare_docx_tables: compareDocxTables,
  contains_page_break: containsPageBreak,
  compare_line_spacing: compareLineSpacing,
  compare_font_names: compareFontNames,
  compare_subscript_contains: compareSubscriptContains,
  find_default_font: findDefaultFont,
  is_first_line_centered: isFirstLineCentered,
  check_italic_font_size_14: checkItalicFontSize14,
  evaluate_strike_through_last_paragraph: evaluateStrikeThroughLastParagraph,
  compare_docx_lines: compareDocxLines,
});
