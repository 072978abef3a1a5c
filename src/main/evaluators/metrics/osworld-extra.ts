// Four OSWorld metrics the registry lacked: fuzzy_match and is_included_all_json_objects (general.py, family os),
// compare_answer (vscode.py) and check_strikethrough (slides.py: a pptx run's a:rPr carries a `strike` attribute).
import { registerMetricFamily } from '../family';
import { fail, pass, verdict, type MetricOutcome } from '../metric';
import { brief, isRecord } from './inputs';
import { fuzzRatio } from './ooxml';
import { NS, kids, path, readPptx } from './pptx';
import { slideShapes } from './pptx-shapes';
import { readPythonText } from '../python/read-text';
import { registerPythonValued } from '../python/task-floats';
import { isPyDict, pyEquals, pyJsonLoads, pyRepr, pyTruthy } from '../python/value';

/** A value as Python's repr() prints it (True, 1.0, None), cut to `max` characters. */
const show = (v: unknown, max = 160) => brief(pyRepr(v), max);

/** fuzzy_match — `result`: a text; `expected`: `{expected: text}`. The score is rapidfuzz's fuzz.ratio / 100 (2·LCS
 * over both lengths, code points, no case folding): a fraction, not 0 or 1. A result of None scores 0, as rapidfuzz
 * gives 0 for None. */
async function fuzzyMatch(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!isRecord(expected) || !('expected' in expected))
    return fail(`the rule ${brief(expected)} has no 'expected' (OSWorld raises KeyError)`);
  const want = expected.expected;
  if (result === null || result === undefined || want === null || want === undefined)
    return fail('rapidfuzz scores 0 against None');
  if (typeof result !== 'string' || typeof want !== 'string')
    return fail(`fuzzy_match compares texts; got ${brief(result)} and ${brief(want)}`);
  const score = fuzzRatio(result, want);
  return {
    score,
    reason: `fuzz.ratio('${brief(result, 60)}', '${brief(want, 60)}') = ${(score * 100).toFixed(1)}`,
  };
}

/** compare_answer — `result`: a value (usually a command's output); `expected`: `{expected: value}`. 1 when the
 * result equals it by Python's `==` (no trimming, True == 1); an empty or missing result scores 0. */
async function compareAnswer(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!pyTruthy(result)) return fail('empty result (OSWorld scores 0)');
  if (!isRecord(expected) || !('expected' in expected))
    return fail(`the rule ${brief(expected)} has no 'expected' (OSWorld raises KeyError)`);
  return verdict(
    pyEquals(result, expected.expected),
    `the answer equals ${show(expected.expected)}`,
    `got ${show(result)}, expected ${show(expected.expected)}`,
  );
}

async function jsonObject(path: unknown, which: string): Promise<Record<string, unknown> | string> {
  const read = await readPythonText(path);
  if ('error' in read) return `${which}: ${read.error}`;
  const parsed = pyJsonLoads(read.text);
  if (!parsed) return `${which} ${String(path)} is not JSON (json.load raises)`;
  if (!isPyDict(parsed.value))
    return `${which} ${String(path)} holds ${show(parsed.value)}, not a JSON object (.keys() raises)`;
  return parsed.value;
}

/**
 * is_included_all_json_objects — two JSON files, in OSWorld's order of arguments: every top-level key of the
 * first (`result`, which upstream names the gold file) is in the second (`expected`) with a value equal by
 * Python's `==` (1.0 == 1, True == 1; nested values compared whole). A missing path scores 0.
 */
async function isIncludedAllJsonObjects(result: unknown, expected: unknown): Promise<MetricOutcome> {
  if (!pyTruthy(result) || !pyTruthy(expected)) return fail('a file path is missing (OSWorld scores 0)');
  const first = await jsonObject(result, 'the first file');
  if (typeof first === 'string') return fail(first);
  const second = await jsonObject(expected, 'the second file');
  if (typeof second === 'string') return fail(second);
  for (const [key, value] of Object.entries(first)) {
    if (!Object.prototype.hasOwnProperty.call(second, key))
      return fail(`key '${key}' is missing from the second file`);
    if (!pyEquals(value, second[key])) return fail(`key '${key}': ${show(value)} vs ${show(second[key])}`);
  }
  return pass(`all ${Object.keys(first).length} keys of the first file are in the second with equal values`);
}

/** A list of indices from the rule, Python-style (negative counts from the end). */
const indexList = (v: unknown): number[] | undefined =>
  Array.isArray(v) && v.every((x) => Number.isInteger(x)) ? (v as number[]) : undefined;
const at = <T>(list: readonly T[], i: number): T | undefined => list[i < 0 ? list.length + i : i];

/**
 * check_strikethrough — `result`: a pptx; `expected`: `{slide_index_s, shape_index_s, paragraph_index_s}`. For every
 * slide × shape × paragraph named, the paragraph's first run (a:r) must have a `strike` attribute on its a:rPr —
 * any value, `noStrike` included, as upstream tests the attribute's presence. A missing slide, shape, text frame,
 * paragraph or run scores 0 (upstream catches the error); empty lists score 1.
 */
async function checkStrikethrough(result: unknown, expected: unknown): Promise<MetricOutcome> {
  const pres = await readPptx(result);
  if (typeof pres === 'string') return fail(`${pres} (python-pptx raises; OSWorld's evaluation stops)`);
  const r = isRecord(expected) ? expected : {};
  const slides = indexList(r.slide_index_s);
  const shapes = indexList(r.shape_index_s);
  const paras = indexList(r.paragraph_index_s);
  if (!slides || !shapes || !paras)
    return fail(
      `the rule needs slide_index_s, shape_index_s and paragraph_index_s as lists of integers (got ${brief(expected)})`,
    );
  for (const s of slides) {
    const slide = at(pres.slides, s);
    if (!slide) return fail(`slide ${s} does not exist (${pres.slides.length} slides)`);
    const tree = slideShapes(slide);
    for (const k of shapes) {
      const shape = at(tree, k);
      if (!shape) return fail(`slide ${s} has no shape ${k} (${tree.length} shapes)`);
      if (shape.localName !== 'sp')
        return fail(`slide ${s} shape ${k} is a ${shape.localName}, which has no text frame`);
      const paragraphs = kids(path(shape, 'p:txBody'), NS.a, 'p');
      for (const p of paras) {
        const para = at(paragraphs, p);
        if (!para) return fail(`slide ${s} shape ${k} has no paragraph ${p}`);
        const run = kids(para, NS.a, 'r')[0];
        if (!run) return fail(`slide ${s} shape ${k} paragraph ${p} has no run`);
        const rPr = kids(run, NS.a, 'rPr')[0];
        if (!rPr || !rPr.hasAttribute('strike'))
          return fail(`slide ${s} shape ${k} paragraph ${p}: the first run has no strike attribute`);
      }
    }
  }
  return pass(
    `the first run of every paragraph named is struck through (${slides.length} slide(s), ${shapes.length} shape(s), ${paras.length} paragraph(s))`,
  );
}

registerMetricFamily('os', {
  fuzzy_match: fuzzyMatch,
  is_included_all_json_objects: isIncludedAllJsonObjects,
});
registerMetricFamily('vscode', { compare_answer: compareAnswer });
registerPythonValued('compare_answer');
registerMetricFamily('slides', { check_strikethrough: checkStrikethrough });
