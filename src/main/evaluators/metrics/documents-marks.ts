// OSWorld's docs.py metrics on how words are marked (family `documents`): highlighting in an .odt
// (check_highlighted_words) and the colours of words in docx tables (evaluate_colored_words_in_tables, colour
// distance as scikit-image's CIEDE2000 on its sRGB → Lab conversion).
import { registerMetricFamily } from '../family';
import type { GradingContext } from '../getter';
import { fail, metrics, pass, verdict, type MetricOutcome } from '../metric';
import { brief } from './inputs';
import { backgroundColor, loadOdt } from './odt';
import { loadDocx } from './ooxml';

/** compare_docx_files with its default options, as these metrics call it first (looked up by name: registered
 * in documents.ts). */
export async function sameTexts(
  result: unknown,
  expected: unknown,
  ctx: GradingContext,
): Promise<MetricOutcome> {
  return metrics.require('compare_docx_files')(result, expected, {}, ctx);
}

/**
 * check_highlighted_words — `result`, `expected`: two .odt files. 0 unless their paragraph texts compare equal
 * (compare_docx_files' odfpy reading); then 1 when no text:span of the result uses an automatic style with a
 * property `fo:background-color="#ffff00"` (exactly that spelling), 0 when one does: the task is to remove the
 * yellow highlighting.
 */
async function checkHighlightedWords(
  result: unknown,
  expected: unknown,
  _o: Record<string, unknown>,
  ctx: GradingContext,
): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const same = await sameTexts(result, expected, ctx);
  if (same.score !== 1) return fail(`texts differ: ${same.reason}`);
  const doc = await loadOdt(result);
  if (typeof doc === 'string') return fail(`result: ${doc} (OSWorld raises)`);
  const yellow = new Set(
    doc.automaticStyles
      .filter((s) => s.properties.some((p) => backgroundColor(p) === '#ffff00'))
      .map((s) => s.name),
  );
  const marked = doc.spanStyles.find((s) => s !== undefined && yellow.has(s));
  return verdict(
    marked === undefined,
    'no text is highlighted yellow',
    `text is still highlighted yellow (span style ${marked})`,
  );
}

// scikit-image's rgb2lab (sRGB, D65 2° white) and deltaE_ciede2000 (kL = kC = kH = 1)
type Lab = [number, number, number];

export function rgbToLab(hex: string): Lab {
  const lin = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
  });
  const m = [
    [0.412453, 0.35758, 0.180423],
    [0.212671, 0.71516, 0.072169],
    [0.019334, 0.119193, 0.950227],
  ];
  const white = [0.95047, 1, 1.08883];
  const [fx, fy, fz] = m.map((row, k) => {
    const t = (row[0] * lin[0] + row[1] * lin[1] + row[2] * lin[2]) / white[k];
    return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
  });
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const rad = (deg: number) => (deg * Math.PI) / 180;

export function ciede2000([L1, a1, b1]: Lab, [L2, a2, b2]: Lab): number {
  const c7 = (c: number) => c ** 7;
  const meanC0 = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const scale = 1 + 0.5 * (1 - Math.sqrt(c7(meanC0) / (c7(meanC0) + 25 ** 7)));
  const polar = (x: number, y: number): [number, number] => {
    const t = Math.atan2(y, x);
    return [Math.hypot(x, y), t < 0 ? t + 2 * Math.PI : t];
  };
  const [C1, h1] = polar(a1 * scale, b1);
  const [C2, h2] = polar(a2 * scale, b2);
  const meanL = (L1 + L2) / 2;
  const sq = (meanL - 50) ** 2;
  const lTerm = (L2 - L1) / (1 + (0.015 * sq) / Math.sqrt(20 + sq));
  const meanC = (C1 + C2) / 2;
  const cTerm = (C2 - C1) / (1 + 0.045 * meanC);
  const hDiff = h2 - h1;
  const cc = C1 * C2;
  let dH = hDiff > Math.PI ? hDiff - 2 * Math.PI : hDiff < -Math.PI ? hDiff + 2 * Math.PI : hDiff;
  if (cc === 0) dH = 0;
  let hBar = h1 + h2;
  if (cc !== 0 && Math.abs(hDiff) > Math.PI) hBar += hBar < 2 * Math.PI ? 2 * Math.PI : -2 * Math.PI;
  if (cc === 0) hBar *= 2;
  hBar *= 0.5;
  const T =
    1 -
    0.17 * Math.cos(hBar - rad(30)) +
    0.24 * Math.cos(2 * hBar) +
    0.32 * Math.cos(3 * hBar + rad(6)) -
    0.2 * Math.cos(4 * hBar - rad(63));
  const hTerm = (2 * Math.sqrt(cc) * Math.sin(dH / 2)) / (1 + 0.015 * meanC * T);
  const rc = 2 * Math.sqrt(c7(meanC) / (c7(meanC) + 25 ** 7));
  const dTheta = rad(30) * Math.exp(-((((hBar * 180) / Math.PI - 275) / 25) ** 2));
  const rTerm = -Math.sin(2 * dTheta) * rc * cTerm * hTerm;
  return Math.sqrt(Math.max(lTerm ** 2 + cTerm ** 2 + hTerm ** 2 + rTerm, 0));
}

/**
 * evaluate_colored_words_in_tables — `result`, `expected`: docx files. 0 unless their texts compare equal
 * (compare_docx_files, defaults); then every non-empty run in the result's tables (each cell's own
 * paragraphs) must be coloured red (#FF0000) when its first letter is a vowel (aeiou, lower-cased) and blue
 * (#0000FF) otherwise, within `threshold` (default 3.5) CIEDE2000. A run with no colour of its own makes
 * OSWorld raise: scored 0 here.
 */
async function evaluateColoredWordsInTables(
  result: unknown,
  expected: unknown,
  options: Record<string, unknown>,
  ctx: GradingContext,
): Promise<MetricOutcome> {
  if (!result || !expected) return fail('a document is missing');
  const same = await sameTexts(result, expected, ctx);
  if (same.score !== 1) return fail(`texts differ: ${same.reason}`);
  const doc = await loadDocx(result);
  if (typeof doc === 'string') return fail(doc);
  const threshold = typeof options.threshold === 'number' ? options.threshold : 3.5;
  let words = 0;
  for (const run of doc.tableCells.flat(3).flatMap((p) => p.runs)) {
    if (!run.text) continue;
    const vowel = 'aeiou'.includes(run.text[0].toLowerCase());
    if (!run.color) return fail(`'${brief(run.text, 40)}' has no colour of its own (OSWorld raises)`);
    const want = vowel ? 'FF0000' : '0000FF';
    const d = ciede2000(rgbToLab(run.color), rgbToLab(want));
    if (d > threshold)
      return fail(
        `'${brief(run.text, 40)}' is #${run.color}, ${d.toFixed(1)} from ${vowel ? 'red' : 'blue'} (threshold ${threshold})`,
      );
    words++;
  }
  return pass(`all ${words} words in tables are coloured by their first letter`);
}

registerMetricFamily('documents', {
  check_highlighted_words: checkHighlightedWords,
  evaluate_colored_words_in_tables: evaluateColoredWordsInTables,
});
