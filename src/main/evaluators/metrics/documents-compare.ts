// OSWorld's docs.py / general.py metrics that compare the text or the pictures of Writer documents (family
// `documents`): compare_docx_files_and_ignore_new_lines, compare_references, compare_docx_images,
// compare_unique_train_records, fuzzy_place_math. docx files are read as python-docx reads them (ooxml.ts);
// fuzzy ratios are rapidfuzz's fuzz.ratio; images are compared on the pixels sharp decodes.
import sharp from 'sharp';
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { registerDeparture } from '../profile';
import { brief, isRecord } from './inputs';
import { fuzzRatio, loadDocx, partRelationships, type Docx } from './ooxml';
import { pySpaceRun, pySplit, pyStrip } from './python-text';

const collapse = (paras: string[]) => pyStrip(paras.join('\n').replace(pySpaceRun, ' '));

const isDocxPath = (v: unknown): v is string => typeof v === 'string' && v.endsWith('.docx');

async function docxPair(a: unknown, b: unknown): Promise<[Docx, Docx] | string> {
  if (!a || !b) return 'a document is missing';
  if (!isDocxPath(a) || !isDocxPath(b)) return `compares two .docx files (got ${brief(a)} and ${brief(b)})`;
  const [x, y] = await Promise.all([loadDocx(a), loadDocx(b)]);
  if (typeof x === 'string') return `result: ${x}`;
  if (typeof y === 'string') return `expected: ${y}`;
  return [x, y];
}

/**
 * compare_docx_files_and_ignore_new_lines — two .docx files; paragraphs with empty text are dropped first. With
 * `ignore_blanks` (default true) the texts joined by newlines, whitespace runs collapsed, must be equal; without
 * it, the same number of paragraphs with equal texts. No `ignore_case` (OSWorld reads only ignore_blanks).
 */
async function compareDocxFilesIgnoringNewLines(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const docs = await docxPair(result, expected);
  if (typeof docs === 'string') return fail(docs);
  const [a, b] = docs.map((d) => d.paragraphs.map((p) => p.text).filter((t) => t !== ''));
  if (options.ignore_blanks !== false) {
    const [x, y] = [collapse(a), collapse(b)];
    return verdict(
      x === y,
      'the texts are equal (blank lines and blanks ignored)',
      `the texts differ: '${brief(x, 80)}' vs '${brief(y, 80)}'`,
    );
  }
  if (a.length !== b.length) return fail(`${a.length} non-empty paragraphs, expected ${b.length}`);
  const at = a.findIndex((p, i) => p !== b[i]);
  return verdict(
    at < 0,
    `all ${a.length} non-empty paragraphs equal`,
    `paragraph ${at + 1} differs: '${brief(a[at], 80)}' vs '${brief(b[at], 80)}'`,
  );
}

/**
 * compare_references — two .docx files. The reference list is every non-blank paragraph after the first one
 * whose text is exactly `reference_indicator` (default "References"). Neither document has one: 1; only one
 * does, or the lists differ in length: 0. Otherwise r = the mean fuzz.ratio of the references pairwise, and the
 * score is (r − base) / (1 − base) when r ≥ base + 0.01 (`reference_base_result`, default 0.5), else 0. Two
 * empty lists make OSWorld divide by zero: scored 0 here.
 */
async function compareReferences(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
): Promise<MetricOutcome> {
  const docs = await docxPair(result, expected);
  if (typeof docs === 'string') return fail(docs);
  const indicator =
    typeof options.reference_indicator === 'string' ? options.reference_indicator : 'References';
  const base = typeof options.reference_base_result === 'number' ? options.reference_base_result : 0.5;
  const [a, b] = docs.map((d) => d.paragraphs.map((p) => p.text));
  const [ia, ib] = [a.indexOf(indicator), b.indexOf(indicator)];
  if (ia < 0 && ib < 0) return pass(`neither document has a '${indicator}' paragraph`);
  if (ia < 0 || ib < 0)
    return fail(`only the ${ia < 0 ? 'expected' : 'result'} document has a '${indicator}' paragraph`);
  const [ra, rb] = [a.slice(ia + 1).filter((p) => pyStrip(p)), b.slice(ib + 1).filter((p) => pyStrip(p))];
  if (ra.length !== rb.length) return fail(`${ra.length} references, expected ${rb.length}`);
  if (ra.length === 0) return fail(`no reference after '${indicator}' (OSWorld divides by zero)`);
  const mean = ra.reduce((s, r, i) => s + fuzzRatio(r, rb[i]), 0) / ra.length;
  if (mean < base + 0.01) return fail(`references similarity ${mean.toFixed(3)} below ${base} + 0.01`);
  const score = (mean - base) / (1 - base);
  return {
    score,
    reason: `references similarity ${mean.toFixed(3)}, rescaled above ${base}: ${score.toFixed(3)}`,
  };
}

/** The images the main document part relates to, in the order of its .rels file; or why they cannot be read. */
async function documentImages(doc: Docx): Promise<Buffer[] | string> {
  const out: Buffer[] = [];
  for (const rel of await partRelationships(doc)) {
    if (!rel.type.includes('image')) continue;
    if (rel.external)
      return `image ${rel.id} is linked, not embedded (${brief(rel.target, 60)}; python-docx raises)`;
    const part = doc.zip.file(rel.target);
    if (!part) return `image part ${rel.target} is missing`;
    out.push(await part.async('nodebuffer'));
  }
  return out;
}

/** What PIL's `Image.open(…).tobytes()` depends on, as far as sharp shows it: the pixel mode (palette or not,
 * channels) and the decoded pixels; PIL compares no size. */
async function pilPixels(img: Buffer): Promise<{ mode: string; data: Buffer }> {
  const s = sharp(img);
  const [meta, data] = await Promise.all([s.metadata(), s.raw().toBuffer()]);
  return { mode: `${meta.isPalette ? 'P' : ''}${meta.channels ?? 0}`, data };
}

async function samePixels(a: Buffer, b: Buffer): Promise<boolean | string> {
  if (a.equals(b)) return true;
  try {
    const [x, y] = await Promise.all([pilPixels(a), pilPixels(b)]);
    return x.mode === y.mode && x.data.equals(y.data);
  } catch (e) {
    return `an image cannot be decoded: ${(e as Error).message} (PIL raises)`;
  }
}

/**
 * compare_docx_images — two .docx files; 1 when the main document relates to as many images, in order, with
 * the same pixel bytes (PIL's `tobytes()`: the mode's bytes, size not compared). Here: the same mode (palette or
 * not, channels) and the same pixels as sharp decodes them. Departure: PIL compares a palette image's indices,
 * sharp gives its colours, so two palette images with the same indices but other palettes score 1 in OSWorld
 * and 0 here (and the other way round).
 */
async function compareDocxImages(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const [x, y] = await Promise.all([loadDocx(result), loadDocx(expected)]);
  if (typeof x === 'string') return fail(`result: ${x}`);
  if (typeof y === 'string') return fail(`expected: ${y}`);
  const [ia, ib] = await Promise.all([documentImages(x), documentImages(y)]);
  if (typeof ia === 'string') return fail(`result: ${ia}`);
  if (typeof ib === 'string') return fail(`expected: ${ib}`);
  if (ia.length !== ib.length) return fail(`${ia.length} images, expected ${ib.length}`);
  for (const [i, img] of ia.entries()) {
    const same = await samePixels(img, ib[i]);
    if (same !== true) return fail(same === false ? `image ${i + 1} differs from the expected one` : same);
  }
  return pass(`all ${ia.length} images have the expected pixels`);
}

/** Non-blank stripped paragraph texts of a docx, and the second field of every line with exactly four
 * comma-separated fields (a train id). */
async function trainLines(path: unknown): Promise<{ lines: string[]; ids: string[] } | string> {
  const doc = await loadDocx(path);
  if (typeof doc === 'string') return doc;
  const lines = doc.paragraphs.map((p) => pyStrip(p.text)).filter(Boolean);
  const ids = lines
    .map((l) => l.split(','))
    .filter((f) => f.length === 4)
    .map((f) => pyStrip(f[1]));
  return { lines, ids };
}

/**
 * compare_unique_train_records — `result`: the processed .docx; `expected`: a list [gold, initial] of .docx
 * paths. 1 when every result line was in the initial file, no train id repeats, the ids are the gold file's,
 * and the result has as many lines as the gold file. Lines are non-blank stripped paragraphs; an id is the
 * second field of a line of exactly four comma-separated fields.
 */
async function compareUniqueTrainRecords(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!result || !Array.isArray(expected) || expected.length < 2)
    return fail(`needs a result file and a list of [gold, initial] files (got ${brief(expected)})`);
  if (!expected[0] || !expected[1]) return fail('the gold or the initial file is missing');
  const [got, gold, initial] = await Promise.all([result, expected[0], expected[1]].map(trainLines));
  if (typeof got === 'string') return fail(`result: ${got}`);
  if (typeof gold === 'string') return fail(`gold: ${gold}`);
  if (typeof initial === 'string') return fail(`initial: ${initial}`);
  const start = new Set(initial.lines);
  const extra = got.lines.find((l) => !start.has(l));
  if (extra !== undefined) return fail(`line '${brief(extra, 60)}' was not in the initial file`);
  if (new Set(got.ids).size !== got.ids.length) return fail('a train id appears more than once');
  const [ids, want] = [new Set(got.ids), new Set(gold.ids)];
  if (ids.size !== want.size || [...ids].some((i) => !want.has(i)))
    return fail(`train ids ${brief([...ids])}, expected ${brief([...want])}`);
  return verdict(
    got.lines.length === gold.lines.length,
    `${ids.size} unique train records`,
    `${got.lines.length} lines, expected ${gold.lines.length}`,
  );
}

/**
 * fuzzy_place_math — `result`: a .docx; `expected`: `{expected: [answers]}`. The document's words (every body
 * paragraph's text split on whitespace) must be exactly three; each scores its best fuzz.ratio against the
 * answers, and the score is their mean (fractional). Any other number of words: 0.
 */
async function fuzzyPlaceMath(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (result === undefined || result === null) return fail('the document is missing');
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(`${doc} (OSWorld raises)`);
  const answers =
    isRecord(expected) && Array.isArray(expected.expected) ? expected.expected.map(String) : undefined;
  if (!answers) return fail(`expected {expected: [answers]} (got ${brief(expected)})`);
  const words = doc.paragraphs.flatMap((p) => pySplit(p.text));
  if (words.length !== 3) return fail(`${words.length} words, expected 3 (${brief(words)})`);
  const best = words.map((w) => Math.max(0, ...answers.map((a) => fuzzRatio(w, a))));
  const score = (best[0] + best[1] + best[2]) / 3;
  return { score, reason: `best matches ${best.map((s) => s.toFixed(2)).join(', ')} for ${brief(words)}` };
}

registerMetricFamily('documents', {
  compare_docx_files_and_ignore_new_lines: compareDocxFilesIgnoringNewLines,
  compare_references: compareReferences,
  compare_docx_images: compareDocxImages,
  compare_unique_train_records: compareUniqueTrainRecords,
  fuzzy_place_math: fuzzyPlaceMath,
});

registerDeparture({
  metric: 'compare_docx_images',
  profile: 'osworld',
  case: 'palette images (e.g. PNGs of few colours)',
  why: "OSWorld compares PIL's raw bytes, which for a palette image are its colour indices; sharp exposes only the colours, so two palette images with equal indices but other palettes (a red and a blue square) score 1 in OSWorld and 0 here",
});
