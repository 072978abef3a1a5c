import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { hasLibreOffice, odfTextNamespaces, saveManyWithLibreOffice } from '../testing/libreoffice';
import { ciede2000, rgbToLab } from './documents-marks';

const tmp = tempDir();
afterAll(tmp.cleanup);

const page = (body: string) => `<!doctype html><html><body>${body}</body></html>`;
const paras = (lines: string[]) => lines.map((l) => `<p>${l}</p>`).join('');
const NS = odfTextNamespaces;
/** A flat ODF text document: automatic styles, master styles (footers) and body. */
const fodt = (body: string, styles = '', master = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<office:document ${NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">` +
  `<office:automatic-styles><style:page-layout style:name="pm1"><style:page-layout-properties fo:page-width="21cm" fo:page-height="29.7cm" fo:margin-left="2cm" fo:margin-right="2cm"/><style:footer-style/></style:page-layout>${styles}</office:automatic-styles>` +
  `<office:master-styles><style:master-page style:name="Standard" style:page-layout-name="pm1">${master}</style:master-page></office:master-styles>` +
  `<office:body><office:text>${body}</office:text></office:body></office:document>`;
const tabStyle = (stops: string) =>
  `<style:style style:name="P1" style:family="paragraph"><style:paragraph-properties><style:tab-stops>${stops}</style:tab-stops></style:paragraph-properties></style:style>`;
const tabbed =
  '<text:p text:style-name="P1">Alpha beta<text:tab/>Gamma<text:tab/>Delta</text:p><text:p>Closing line</text:p>';
const yellow =
  '<style:style style:name="T1" style:family="text"><style:text-properties fo:background-color="#ffff00"/></style:style>';
const picture = (b64: string) =>
  `<text:p>Figure:<draw:frame draw:name="img1" text:anchor-type="as-char" svg:width="1cm" svg:height="0.75cm"><draw:image><office:binary-data>${b64}</office:binary-data></draw:image></draw:frame></text:p>`;
const coloured = (cells: [string, string][]) =>
  `<p>Colour the words</p><table border="1"><tr>${cells.map(([w, c]) => `<td><font color="${c}">${w}</font></td>`).join('')}</tr></table>`;

describe.skipIf(!hasLibreOffice)('OSWorld docs.py metrics on files LibreOffice saved', () => {
  let f: Record<string, string> = {};
  beforeAll(() => {
    const png = (color: string) => {
      const p = join(tmp.dir, `${color}.png`);
      // truecolour: PIL compares a palette PNG's indices, which two one-colour squares share (see compare_docx_images)
      execFileSync('convert', ['-size', '8x6', `xc:${color}`, `PNG24:${p}`]);
      return readFileSync(p).toString('base64');
    };
    const [red, blue] = [png('red'), png('blue')];
    const refs = ['Smith, J. (2020). Writing tests. Press.', 'Doe, A. (2019). Saving documents. Books.'];
    const trains = ['08:00:00, T1, S1, P1', '09:00:00, T2, S2, P2'];
    f = saveManyWithLibreOffice(
      tmp.dir,
      {
        lines: page(paras(['Hello world', 'Second part'])),
        linesSpaced: page(paras(['Hello&nbsp;&nbsp;world', '', 'Second part'])),
        linesOther: page(paras(['Hello there', 'Second part'])),
        refsGold: page(paras(['Intro text', 'References', ...refs])),
        refsSame: page(paras(['Intro changed', 'References', ...refs])),
        refsNear: page(paras(['Intro text', 'References', refs[0], 'Doe, B. (2018). Saving files. Books.'])),
        refsNone: page(paras(['Intro text', ...refs])),
        noRefs: page(paras(['Intro text'])),
        trainGold: page(paras(trains)),
        trainInitial: page(paras([...trains, '08:30:00, T1, S3, P3'])),
        trainExtra: page(paras([...trains, '10:00:00, T3, S1, P1'])),
        places: page(paras(['Paris London', 'Tokyo'])),
        placesNear: page(paras(['Paris Londn Tokio'])),
        placesTwo: page(paras(['Paris London'])),
        colours: page(
          coloured([
            ['apple', '#ff0000'],
            ['banana', '#0000ff'],
            ['Egg', '#f50000'],
          ]),
        ),
        coloursWrong: page(
          coloured([
            ['apple', '#ff0000'],
            ['banana', '#ff0000'],
            ['Egg', '#f50000'],
          ]),
        ),
        coloursPlain: page(
          '<p>Colour the words</p><table border="1"><tr><td>apple</td><td>banana</td><td>Egg</td></tr></table>',
        ),
        tabsGold: fodt(
          tabbed,
          tabStyle(
            '<style:tab-stop style:position="5cm" style:type="right"/><style:tab-stop style:position="8cm"/>',
          ),
        ),
        tabsNear: fodt(
          tabbed,
          tabStyle(
            '<style:tab-stop style:position="6cm" style:type="right"/><style:tab-stop style:position="8cm"/>',
          ),
        ),
        tabsCentred: fodt(
          tabbed,
          tabStyle(
            '<style:tab-stop style:position="5cm" style:type="center"/><style:tab-stop style:position="8cm"/>',
          ),
        ),
        footerNumber: fodt(
          '<text:p>Body text</text:p>',
          '',
          '<style:footer><text:p>Page <text:page-number text:select-page="current">1</text:page-number></text:p></style:footer>',
        ),
        footerWords: fodt(
          '<text:p>Body text</text:p>',
          '',
          '<style:footer><text:p>Page</text:p></style:footer>',
        ),
        noFooter: fodt('<text:p>Body text</text:p>'),
        imgRed: fodt(picture(red)),
        imgRed2: fodt(`<text:p>Other words</text:p>${picture(red)}`),
        imgBlue: fodt(picture(blue)),
      },
      'docx',
    );
    const odt = saveManyWithLibreOffice(
      tmp.dir,
      {
        marked: fodt(
          '<text:p>Plain <text:span text:style-name="T1">marked</text:span> text</text:p>',
          yellow,
        ),
        unmarked: fodt('<text:p>Plain <text:span>marked</text:span> text</text:p>'),
        reworded: fodt('<text:p>Plain other text</text:p>'),
      },
      'odt',
    );
    f = { ...f, ...odt };
  }, 240_000);

  it('are in the documents family', () => {
    for (const name of [
      'check_highlighted_words',
      'check_tabstops',
      'compare_docx_files_and_ignore_new_lines',
      'compare_docx_images',
      'compare_references',
      'evaluate_colored_words_in_tables',
      'has_page_numbers_in_footers',
      'compare_unique_train_records',
      'fuzzy_place_math',
    ]) {
      expect(metricFamilyOf(name), name).toBe('documents');
    }
  });

  it('compare_docx_files_and_ignore_new_lines: blank lines and blanks do not count, words do', async () => {
    expect((await runMetric('compare_docx_files_and_ignore_new_lines', f.linesSpaced, f.lines)).score).toBe(
      1,
    );
    expect((await runMetric('compare_docx_files_and_ignore_new_lines', f.linesOther, f.lines)).score).toBe(0);
    // paragraph by paragraph the no-break spaces count
    expect(
      (
        await runMetric('compare_docx_files_and_ignore_new_lines', f.linesSpaced, f.lines, {
          ignore_blanks: false,
        })
      ).score,
    ).toBe(0);
    expect(
      (await runMetric('compare_docx_files_and_ignore_new_lines', f.lines, f.lines, { ignore_blanks: false }))
        .score,
    ).toBe(1);
    expect((await runMetric('compare_docx_files_and_ignore_new_lines', f.marked, f.marked)).score).toBe(0);
  });

  it('compare_references: equal references 1, one changed a fraction, a missing section 0', async () => {
    expect((await runMetric('compare_references', f.refsSame, f.refsGold)).score).toBe(1);
    // OSWorld's compare_references (python-docx 0.8.11, fuzz.ratio) on the same files: 0.8157894736842106
    expect((await runMetric('compare_references', f.refsNear, f.refsGold)).score).toBeCloseTo(
      0.8157894736842106,
      12,
    );
    expect((await runMetric('compare_references', f.refsNone, f.refsGold)).score).toBe(0);
    expect((await runMetric('compare_references', f.noRefs, f.refsNone)).score).toBe(1);
    expect(
      (await runMetric('compare_references', f.refsNear, f.refsGold, { reference_base_result: 0.95 })).score,
    ).toBe(0);
  });

  it('compare_unique_train_records: the gold ids once each, from lines of the initial file', async () => {
    const files = [f.trainGold, f.trainInitial];
    expect((await runMetric('compare_unique_train_records', f.trainGold, files)).score).toBe(1);
    expect((await runMetric('compare_unique_train_records', f.trainInitial, files)).score).toBe(0);
    expect((await runMetric('compare_unique_train_records', f.trainExtra, files)).score).toBe(0);
    expect((await runMetric('compare_unique_train_records', f.trainGold, f.trainGold)).score).toBe(0);
  });

  it('fuzzy_place_math: three words, each scored by its best answer', async () => {
    const rules = { expected: ['Paris', 'London', 'Tokyo'] };
    expect((await runMetric('fuzzy_place_math', f.places, rules)).score).toBe(1);
    expect((await runMetric('fuzzy_place_math', f.placesNear, rules)).score).toBeCloseTo(
      (1 + 10 / 11 + 0.8) / 3,
      12,
    );
    expect((await runMetric('fuzzy_place_math', f.placesTwo, rules)).score).toBe(0);
  });

  it('evaluate_colored_words_in_tables: vowels red, the rest blue, within CIEDE2000 3.5', async () => {
    expect((await runMetric('evaluate_colored_words_in_tables', f.colours, f.coloursPlain)).score).toBe(1);
    expect((await runMetric('evaluate_colored_words_in_tables', f.coloursWrong, f.coloursPlain)).score).toBe(
      0,
    );
    expect(
      (await runMetric('evaluate_colored_words_in_tables', f.colours, f.coloursPlain, { threshold: 1 }))
        .score,
    ).toBe(0);
    expect(
      (await runMetric('evaluate_colored_words_in_tables', f.coloursPlain, f.coloursPlain)).reason,
    ).toMatch(/no colour of its own/);
    expect((await runMetric('evaluate_colored_words_in_tables', f.colours, f.lines)).score).toBe(0);
  });

  it("ciede2000 matches Sharma et al.'s test pairs as scikit-image computes them", () => {
    expect(ciede2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(ciede2000([50, -1.3802, -84.2814], [50, 0, -82.7485])).toBeCloseTo(1.0, 4);
    expect(ciede2000([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 4);
    // sRGB red and blue in CIELAB (D65): Lindbloom's reference values
    rgbToLab('FF0000').forEach((v, i) => expect(v).toBeCloseTo([53.2408, 80.0925, 67.2032][i], 2));
    rgbToLab('0000FF').forEach((v, i) => expect(v).toBeCloseTo([32.297, 79.1875, -107.8602][i], 2));
  });

  it('check_tabstops: same stops 1, a stop moved by 1 cm a fraction, another alignment 0', async () => {
    expect((await runMetric('check_tabstops', f.tabsGold, f.tabsGold)).score).toBe(1);
    // one of two paragraphs has a stop 1 cm off on a 17 cm wide text area; OSWorld (python-docx 0.8.11) on the
    // same files: 0.9705851836480598
    expect((await runMetric('check_tabstops', f.tabsNear, f.tabsGold)).score).toBeCloseTo(
      0.9705851836480598,
      12,
    );
    expect((await runMetric('check_tabstops', f.tabsCentred, f.tabsGold)).score).toBe(0);
    expect(
      (await runMetric('check_tabstops', f.tabsGold, f.tabsGold, { word_number_split_by_tabstop: 2 })).score,
    ).toBe(1);
    expect(
      (await runMetric('check_tabstops', f.tabsGold, f.tabsGold, { word_number_split_by_tabstop: 3 })).score,
    ).toBe(0);
    expect(
      (
        await runMetric('check_tabstops', f.tabsGold, f.tabsGold, {
          word_number_split_by_tabstop: 1,
          index: 1,
        })
      ).score,
    ).toBe(0);
    expect((await runMetric('check_tabstops', f.lines, f.tabsGold)).score).toBe(0);
  });

  it('has_page_numbers_in_footers: a page number field 1, words only or no footer 0', async () => {
    expect((await runMetric('has_page_numbers_in_footers', f.footerNumber, {})).score).toBe(1);
    expect((await runMetric('has_page_numbers_in_footers', f.footerWords, {})).score).toBe(0);
    expect((await runMetric('has_page_numbers_in_footers', f.noFooter, {})).score).toBe(0);
  });

  it('compare_docx_images: the same pixels 1, another colour or no image 0', async () => {
    expect((await runMetric('compare_docx_images', f.imgRed2, f.imgRed)).score).toBe(1);
    expect((await runMetric('compare_docx_images', f.imgBlue, f.imgRed)).score).toBe(0);
    expect((await runMetric('compare_docx_images', f.noFooter, f.imgRed)).score).toBe(0);
  });

  it('check_highlighted_words and compare_docx_files read .odt as odfpy does', async () => {
    expect((await runMetric('compare_docx_files', f.unmarked, f.marked)).score).toBe(1);
    expect((await runMetric('compare_docx_files', f.reworded, f.marked)).score).toBe(0);
    expect((await runMetric('check_highlighted_words', f.unmarked, f.marked)).score).toBe(1);
    expect((await runMetric('check_highlighted_words', f.marked, f.marked)).score).toBe(0);
    expect((await runMetric('check_highlighted_words', f.reworded, f.marked)).score).toBe(0);
    // equal .odt texts, but python-docx cannot open them: 0, not an error
    expect((await runMetric('compare_line_spacing', f.unmarked, f.marked)).score).toBe(0);
    expect((await runMetric('check_italic_font_size_14', f.unmarked, f.marked)).score).toBe(0);
  });
});
