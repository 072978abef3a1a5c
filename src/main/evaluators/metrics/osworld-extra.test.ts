// fuzzy_match, compare_answer, is_included_all_json_objects and check_strikethrough as OSWorld scores them; the
// strikethrough deck is written by the real LibreOffice Impress.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departures, metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { fodp, hasImpress, saveAsPptx } from '../testing/impress';

const tmp = tempDir();
afterAll(tmp.cleanup);
const file = (name: string, text: string): string => {
  const p = join(tmp.dir, name);
  writeFileSync(p, text);
  return p;
};

describe('the four names OSWorld has and Proctor lacked', () => {
  it('are registered in their families', () => {
    expect(
      ['fuzzy_match', 'is_included_all_json_objects', 'compare_answer', 'check_strikethrough'].map(
        metricFamilyOf,
      ),
    ).toEqual(['os', 'os', 'vscode', 'slides']);
  });
  it("and, like compare_config and check_cell's value, list no departure", () => {
    const names = new Set([
      'fuzzy_match',
      'is_included_all_json_objects',
      'compare_answer',
      'check_strikethrough',
      'compare_config',
    ]);
    expect(departures().filter((d) => names.has(d.metric))).toEqual([]);
    expect(
      departures().filter(
        (d) =>
          d.metric === 'compare_table' &&
          /check_cell(?!'s value)/.test(d.case) &&
          !/style props/.test(d.case),
      ),
    ).toEqual([]);
  });
});

describe("fuzzy_match scores rapidfuzz's fuzz.ratio / 100", () => {
  const cases: [string, unknown, string, number][] = [
    ['equal texts: 1', 'Hello World', 'Hello World', 1],
    ['case is not folded (processor None): "hello" vs "HELLO" is 0', 'hello', 'HELLO', 0],
    ['2·LCS / (len a + len b): "kitten" vs "sitting" = 2·4 / 13', 'kitten', 'sitting', 8 / 13],
    ['code points, not UTF-16 units: "a😀" vs "a" = 2·1 / 3', 'a😀', 'a', 2 / 3],
    ['None scores 0', null, 'x', 0],
  ];
  it.each(cases)('%s', async (_name, result, want, score) => {
    expect((await runMetric('fuzzy_match', result, { expected: want })).score).toBeCloseTo(score, 10);
  });
});

describe("compare_answer is Python's == on the answer", () => {
  const cases: [string, unknown, unknown, number][] = [
    ['the same text: 1', '42', '42', 1],
    ['no trimming: "42\\n" is not "42"', '42\n', '42', 0],
    ['a str never equals a number: "42" vs 42 is 0', '42', 42, 0],
    ['True == 1 in Python', true, 1, 1],
    ['an empty answer scores 0 (not actual)', '', '', 0],
  ];
  it.each(cases)('%s', async (_name, result, want, score) => {
    expect((await runMetric('compare_answer', result, { expected: want })).score).toBe(score);
  });
});

describe('is_included_all_json_objects: every key of the first file in the second, equal by Python ==', () => {
  const second = file(
    'second.json',
    '{"name": "proctor", "port": 8080, "debug": true, "tags": ["a", "b"], "extra": 1}',
  );
  const cases: [string, string, number][] = [
    ['a subset of keys with equal values: 1', '{"name": "proctor", "tags": ["a", "b"]}', 1],
    ['8080.0 == 8080 and 1 == True in Python: 1', '{"port": 8080.0, "debug": 1}', 1],
    ['a value differs: 0', '{"port": 8081}', 0],
    ['a key is missing from the second: 0', '{"host": "x"}', 0],
    ['nested values compare whole: a shorter list is 0', '{"tags": ["a"]}', 0],
    ['an empty object is included: 1', '{}', 1],
    [
      'Python: 8080 == 8080.0000000000001 is False (a float that is not whole): 0',
      '{"port": 8080.0000000001}',
      0,
    ],
    [
      "Python: 1 == True inside a list, and ['a', 'b'] == ['a', 'b']: 1",
      '{"tags": ["a", "b"], "extra": true}',
      1,
    ],
  ];
  it.each(cases)('%s', async (_name, first, score) => {
    expect(
      (
        await runMetric(
          'is_included_all_json_objects',
          file(`first-${score}-${first.length}.json`, first),
          second,
        )
      ).score,
    ).toBe(score);
  });
  it("Python: json.loads('[NaN]') == json.loads('[NaN]') (one NaN object), but NaN == NaN is False; 2**64 == 1.8446744073709552e19", async () => {
    const nans = file('nans.json', '{"l": [NaN], "n": NaN, "big": 18446744073709551616}');
    expect(
      (
        await runMetric(
          'is_included_all_json_objects',
          file('nan-l.json', '{"l": [NaN], "big": 1.8446744073709552e19}'),
          nans,
        )
      ).score,
    ).toBe(1);
    const top = await runMetric('is_included_all_json_objects', file('nan-n.json', '{"n": NaN}'), nans);
    expect([top.score, top.reason]).toEqual([0, "key 'n': nan vs nan"]);
  });
  it('a file that is not a JSON object scores 0, naming it', async () => {
    const out = await runMetric('is_included_all_json_objects', file('list.json', '[1, 2]'), second);
    expect(out.score).toBe(0);
    expect(out.reason).toMatch(/not a JSON object/);
  });
});

describe.skipIf(!hasImpress)('check_strikethrough on a deck LibreOffice Impress saved as pptx', () => {
  let deck = '';
  let plain = '';
  beforeAll(async () => {
    const styles =
      '<style:style style:name="T1" style:family="text"><style:text-properties style:text-line-through-style="solid" style:text-line-through-type="single"/></style:style><style:style style:name="T2" style:family="text"><style:text-properties fo:font-weight="bold"/></style:style>';
    const text =
      '<text:p><text:span text:style-name="T1">old price</text:span> new</text:p><text:p><text:span text:style-name="T2">kept</text:span></text:p>';
    const pages = `<draw:page draw:name="p1" draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="20cm" svg:height="3cm" presentation:class="outline"><draw:text-box>${text}</draw:text-box></draw:frame><draw:custom-shape svg:x="2cm" svg:y="8cm" svg:width="3cm" svg:height="3cm"><draw:enhanced-geometry draw:type="rectangle"/></draw:custom-shape></draw:page>`;
    deck = saveAsPptx(join(tmp.dir, 'impress'), { deck: fodp({ pages, styles }) }).deck;
    // the same deck with the strike attributes Impress writes on every run (noStrike too) removed, as a run
    // PowerPoint or python-pptx writes without one looks
    const zip = await JSZip.loadAsync(readFileSync(deck));
    const slide = await zip.file('ppt/slides/slide1.xml')!.async('string');
    zip.file('ppt/slides/slide1.xml', slide.replace(/ strike="noStrike"/g, ''));
    plain = join(tmp.dir, 'plain.pptx');
    writeFileSync(plain, await zip.generateAsync({ type: 'nodebuffer' }));
  }, 200_000);

  const rule = (shapes: number[], paragraphs: number[]) => ({
    slide_index_s: [0],
    shape_index_s: shapes,
    paragraph_index_s: paragraphs,
  });
  it('the struck-through first run passes', async () => {
    expect((await runMetric('check_strikethrough', deck, rule([0], [0]))).score).toBe(1);
  });
  it('upstream tests only that a:rPr has a strike attribute: Impress writes strike="noStrike" on every run, so an unstruck run passes too', async () => {
    expect((await runMetric('check_strikethrough', deck, rule([0], [0, 1]))).score).toBe(1);
  });
  it('a run without the attribute fails, naming the paragraph', async () => {
    const out = await runMetric('check_strikethrough', plain, rule([0], [0, 1]));
    expect(out.score).toBe(0);
    expect(out.reason).toMatch(/paragraph 1: the first run has no strike attribute/);
    expect((await runMetric('check_strikethrough', plain, rule([0], [0]))).score).toBe(1);
  });
  it('a paragraph with no run, a missing shape or slide scores 0 (upstream catches the IndexError); negative indices count from the end', async () => {
    expect((await runMetric('check_strikethrough', deck, rule([1], [0]))).reason).toMatch(/has no run/);
    expect((await runMetric('check_strikethrough', deck, rule([5], [0]))).score).toBe(0);
    expect(
      (await runMetric('check_strikethrough', deck, { ...rule([0], [0]), slide_index_s: [3] })).score,
    ).toBe(0);
    expect((await runMetric('check_strikethrough', deck, rule([-2], [-2]))).score).toBe(1);
  });
});
