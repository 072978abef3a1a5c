import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { fodp, hasImpress, saveAsPptx } from '../testing/impress';

const tmp = tempDir();
afterAll(tmp.cleanup);

// check_presenter_console_disable and check_auto_saving_time are graded on the registrymodifications.xcu
// LibreOffice wrote itself in libreoffice-settings.test.ts.
describe('OSWorld slides metrics on the accessibility tree', () => {
  it('check_left_panel looks for the "Slides View" document frame', async () => {
    expect(metricFamilyOf('check_left_panel')).toBe('slides');
    const tree = (name: string) =>
      `<desktop-frame xmlns:st="uri:deskat:state.at-spi.gnome.org" name="Desktop"><application name="soffice"><frame name="Impress"><panel><document-frame name="${name}" st:visible="true"/></panel></frame></application></desktop-frame>`;
    expect((await runMetric('check_left_panel', tree('Slides View'), {})).score).toBe(1);
    expect((await runMetric('check_left_panel', tree('Outline View'), {})).score).toBe(0);
    expect((await runMetric('check_left_panel', '<not closed', {})).score).toBe(0);
  });
});

// Flat ODF sources for LibreOffice Impress. Text styles: B bold blue 24pt DejaVu Sans, I italic underlined,
// BI bold italic underlined, R red; pr1 makes a frame a presentation object (a placeholder in pptx).
const STYLES = `
<style:style style:name="bgRed" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#ff0000" presentation:transition-type="automatic" smil:type="fade" smil:subtype="crossfade"/></style:style>
<style:style style:name="bgGreen" style:family="drawing-page"><style:drawing-page-properties draw:fill="solid" draw:fill-color="#00ff00"/></style:style>
<style:style style:name="dissolve" style:family="drawing-page"><style:drawing-page-properties smil:type="dissolve"/></style:style>
<style:style style:name="pr1" style:family="presentation"><style:graphic-properties draw:fill="none"/></style:style>
<style:style style:name="B" style:family="text"><style:text-properties fo:font-weight="bold" fo:color="#0000ff" style:font-name="DejaVu Sans" fo:font-size="24pt"/></style:style>
<style:style style:name="I" style:family="text"><style:text-properties fo:font-style="italic" style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"/></style:style>
<style:style style:name="BI" style:family="text"><style:text-properties fo:font-weight="bold" fo:font-style="italic" style:text-underline-style="solid" style:text-underline-width="auto" style:text-underline-color="font-color"/></style:style>
<style:style style:name="R" style:family="text"><style:text-properties fo:color="#ff0000"/></style:style>
<style:style style:name="center" style:family="paragraph"><style:paragraph-properties fo:text-align="center"/></style:style>
<style:style style:name="plain" style:family="paragraph"><style:paragraph-properties/></style:style>`;

interface DeckChanges {
  worldStyle?: string;
  boxX?: number;
  note?: string;
  cellStyle?: string;
  extraSlide?: boolean;
  subLevel?: boolean;
  /** The paragraph style of the text box's first paragraph (default centred). */
  firstParagraph?: string;
}

/** A two-slide deck: a red background, a title placeholder, a text box of formatted runs and notes on slide 1; a
 * table and a bulleted outline on slide 2 (dissolve transition). */
function deck(c: DeckChanges = {}): string {
  const notes = `<presentation:notes><draw:page-thumbnail presentation:class="page" svg:x="2cm" svg:y="2cm" svg:width="17cm" svg:height="9cm"/><draw:frame presentation:style-name="pr1" draw:layer="layout" presentation:class="notes" svg:x="2cm" svg:y="12cm" svg:width="17cm" svg:height="12cm"><draw:text-box><text:p>${c.note ?? 'Mention the figures'}</text:p></draw:text-box></draw:frame></presentation:notes>`;
  const sub =
    c.subLevel === false
      ? ''
      : '<text:list><text:list-item><text:p>sub point</text:p></text:list-item></text:list>';
  return fodp({
    styles: STYLES,
    pages: `
<draw:page draw:name="p1" draw:style-name="bgRed" draw:master-page-name="Default">
 <draw:frame presentation:style-name="pr1" draw:layer="layout" presentation:class="title" svg:x="2cm" svg:y="1cm" svg:width="20cm" svg:height="2cm"><draw:text-box><text:p>Quarterly report</text:p></draw:text-box></draw:frame>
 <draw:frame svg:x="${c.boxX ?? 2}cm" svg:y="5cm" svg:width="12cm" svg:height="3cm"><draw:text-box><text:p text:style-name="${c.firstParagraph ?? 'center'}"><text:span text:style-name="B">Hello</text:span> <text:span text:style-name="${c.worldStyle ?? 'I'}">world</text:span></text:p><text:p>Second line</text:p></draw:text-box></draw:frame>
 ${notes}
</draw:page>
<draw:page draw:name="p2" draw:style-name="dissolve" draw:master-page-name="Default">
 <draw:frame svg:x="1cm" svg:y="1cm" svg:width="12cm" svg:height="3cm"><table:table><table:table-column/><table:table-column/><table:table-row><table:table-cell><text:p><text:span text:style-name="${c.cellStyle ?? 'B'}">A</text:span></text:p></table:table-cell><table:table-cell><text:p>B</text:p></table:table-cell></table:table-row></table:table></draw:frame>
 <draw:frame presentation:style-name="pr1" draw:layer="layout" presentation:class="outline" svg:x="2cm" svg:y="5cm" svg:width="20cm" svg:height="8cm"><draw:text-box><text:list><text:list-item><text:p>point one</text:p>${sub}</text:list-item></text:list></draw:text-box></draw:frame>
</draw:page>
${c.extraSlide ? '<draw:page draw:name="p3" draw:master-page-name="Default"><draw:frame svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="2cm"><draw:text-box><text:p>More</text:p></draw:text-box></draw:frame></draw:page>' : ''}`,
  });
}

const PNG = execFileSync('convert', ['-size', '40x30', 'xc:orange', 'png:-']).toString('base64');
const picture = (x: number, y: number, w: number, h: number) =>
  `<draw:frame svg:x="${x}cm" svg:y="${y}cm" svg:width="${w}cm" svg:height="${h}cm"><draw:image><office:binary-data>${PNG}</office:binary-data></draw:image></draw:frame>`;
const onePage = (content: string, style = '') =>
  `<draw:page draw:name="p1" ${style} draw:master-page-name="Default">${content}</draw:page>`;
/** A master whose outline text (the last text of the master part) has the given colour. */
const outlineColour = (colour: string) =>
  `<style:style style:name="Default-outline1" style:family="presentation"><style:text-properties fo:color="${colour}"/></style:style>`;

describe.skipIf(!hasImpress)('OSWorld slides metrics on presentations LibreOffice Impress saved', () => {
  let f: Record<string, string>;
  beforeAll(() => {
    // two pages: LibreOffice 7.4 then writes the master's title and outline placeholders (it leaves them out of a
    // one-page deck)
    const text =
      '<draw:frame svg:x="2cm" svg:y="2cm" svg:width="10cm" svg:height="2cm"><draw:text-box><text:p>Page</text:p></draw:text-box></draw:frame>';
    const titled = onePage(text) + onePage(text).replace('"p1"', '"p2"');
    f = saveAsPptx(join(tmp.dir, 'decks'), {
      base: deck(),
      same: deck(),
      bold: deck({ worldStyle: 'BI' }),
      moved: deck({ boxX: 3 }),
      notes: deck({ note: 'Something else' }),
      extra: deck({ extraSlide: true }),
      cell: deck({ cellStyle: 'R' }),
      flat: deck({ subLevel: false }),
      left: deck({ firstParagraph: 'plain' }),
      portrait: fodp({
        width: 15.75,
        height: 28,
        styles: STYLES,
        pages: onePage('', 'draw:style-name="bgGreen"'),
      }),
      picSmall: fodp({ pages: onePage(picture(2, 2, 10, 7.5)) }),
      picFull: fodp({ pages: onePage(picture(0.2, 0.1, 27.8, 15.6)) }),
      redMaster: fodp({ styles: STYLES, pages: titled }).replace(
        '<office:styles/>',
        `<office:styles>${outlineColour('#ff0000')}</office:styles>`,
      ),
      blueMaster: fodp({ styles: STYLES, pages: titled }).replace(
        '<office:styles/>',
        `<office:styles>${outlineColour('#0000ff')}</office:styles>`,
      ),
    });
  }, 180_000);

  it('compare_pptx_files scores 1 for two saves of the same deck and 0 for each examined difference', async () => {
    expect(metricFamilyOf('compare_pptx_files')).toBe('slides');
    expect(await runMetric('compare_pptx_files', f.same, f.base)).toMatchObject({ score: 1 });
    const bold = await runMetric('compare_pptx_files', f.bold, f.base);
    expect(bold).toMatchObject({
      score: 0,
      reason: expect.stringMatching(/slide 1, shape 2: paragraph 1, run 'world': bold/),
    });
    expect((await runMetric('compare_pptx_files', f.bold, f.base, { examine_font_bold: false })).score).toBe(
      1,
    );
    expect((await runMetric('compare_pptx_files', f.moved, f.base)).reason).toMatch(
      /slide 1, shape 2: position\/size/,
    );
    expect((await runMetric('compare_pptx_files', f.moved, f.base, { examine_shape: false })).score).toBe(1);
    // a shift under the tolerance counts as the same place
    expect(
      (await runMetric('compare_pptx_files', f.moved, f.base, { approximately_tolerance: 0.5 })).score,
    ).toBe(1);
    expect((await runMetric('compare_pptx_files', f.notes, f.base)).reason).toMatch(
      /notes 'Something else' against 'Mention the figures'/,
    );
    expect((await runMetric('compare_pptx_files', f.notes, f.base, { examine_note: false })).score).toBe(1);
    expect((await runMetric('compare_pptx_files', f.extra, f.base)).reason).toMatch(/3 slides against 2/);
    expect(
      (await runMetric('compare_pptx_files', f.extra, f.base, { examine_number_of_slides: false })).score,
    ).toBe(1);
  });

  it('compare_pptx_files compares table runs whatever examine_text says, and the slide bullets', async () => {
    const cell = await runMetric('compare_pptx_files', f.cell, f.base, { examine_text: false });
    expect(cell).toMatchObject({
      score: 0,
      reason: expect.stringMatching(/slide 2, shape 1: cell \(0, 0\), run 'A': colour FF0000 against 0000FF/),
    });
    expect((await runMetric('compare_pptx_files', f.cell, f.base, { examine_color_rgb: false })).score).toBe(
      0,
    ); // bold differs too
    expect((await runMetric('compare_pptx_files', f.flat, f.base)).reason).toMatch(
      /slide 2, shape 2: text 'point one' against 'point one\nsub point'/,
    );
  });

  it('compare_pptx_files compares paragraph alignment, left when unset', async () => {
    // the left paragraph has no a:pPr, the centred one has: OSWorld's bullet reading sees level 'No Level' against
    // '0', at the slide's first run already
    expect((await runMetric('compare_pptx_files', f.left, f.base)).reason).toMatch(
      /slide 1, shape 1: paragraph 1, run 'Quarterly report': the slide's bullets differ/,
    );
    const noBullets = { examine_bullets: false };
    expect((await runMetric('compare_pptx_files', f.left, f.base, noBullets)).reason).toMatch(
      /slide 1, shape 2: paragraph 1: alignment l against ctr/,
    );
    expect(
      (await runMetric('compare_pptx_files', f.left, f.base, { ...noBullets, examine_alignment: false }))
        .score,
    ).toBe(1);
  });

  it('compare_pptx_files reads a missing result as the empty default template', async () => {
    expect((await runMetric('compare_pptx_files', undefined, f.base)).reason).toMatch(/0 slides against 2/);
    expect((await runMetric('compare_pptx_files', join(tmp.dir, 'not-there.pptx'), f.base)).score).toBe(0);
  });

  it('check_slide_orientation_Portrait compares the slide size', async () => {
    expect(metricFamilyOf('check_slide_orientation_Portrait')).toBe('slides');
    expect((await runMetric('check_slide_orientation_Portrait', f.portrait, {})).score).toBe(1);
    expect((await runMetric('check_slide_orientation_Portrait', f.base, {})).score).toBe(0);
  });

  it('check_transition finds the transition element of the slide part', async () => {
    expect(metricFamilyOf('check_transition')).toBe('slides');
    expect(
      (await runMetric('check_transition', f.base, { slide_idx: 0, transition_type: 'fade' })).score,
    ).toBe(1);
    expect(
      (await runMetric('check_transition', f.base, { slide_idx: 1, transition_type: 'dissolve' })).score,
    ).toBe(1);
    expect(
      (await runMetric('check_transition', f.base, { slide_idx: 0, transition_type: 'dissolve' })).score,
    ).toBe(0);
    expect(
      (await runMetric('check_transition', f.portrait, { slide_idx: 0, transition_type: 'fade' })).score,
    ).toBe(0);
    expect(
      (await runMetric('check_transition', f.base, { slide_idx: 5, transition_type: 'fade' })).reason,
    ).toMatch(/slide6\.xml does not exist/);
  });

  it('evaluate_presentation_fill_to_rgb_distance averages the background distances (fractional)', async () => {
    expect(metricFamilyOf('evaluate_presentation_fill_to_rgb_distance')).toBe('slides');
    expect(
      (await runMetric('evaluate_presentation_fill_to_rgb_distance', f.portrait, { rgb: [0, 255, 0] })).score,
    ).toBe(1);
    // still the original colour: the full distance
    expect(
      (
        await runMetric('evaluate_presentation_fill_to_rgb_distance', f.portrait, {
          rgb: [0, 255, 0],
          original_rgb: [0, 255, 0],
        })
      ).score,
    ).toBe(0);
    // slide 1 red (distance 0), slide 2 without a background of its own or on the master (distance 1)
    expect(
      (await runMetric('evaluate_presentation_fill_to_rgb_distance', f.base, { rgb: [255, 0, 0] })).score,
    ).toBeCloseTo(0.5, 9);
    expect(
      (await runMetric('evaluate_presentation_fill_to_rgb_distance', f.portrait, { rgb: [0, 0, 255] })).score,
    ).toBeCloseTo(1 - Math.sqrt(2 / 3), 9);
  });

  it('check_image_stretch_and_center finds the original picture filling the slide', async () => {
    expect(metricFamilyOf('check_image_stretch_and_center')).toBe('slides');
    expect((await runMetric('check_image_stretch_and_center', f.picFull, f.picSmall)).score).toBe(1);
    const small = await runMetric('check_image_stretch_and_center', f.picSmall, f.picSmall);
    expect(small.score).toBe(0);
    expect(small.reason).toMatch(/does not fill/);
    const none = await runMetric('check_image_stretch_and_center', f.base, f.picSmall);
    expect(none.score).toBe(0);
    expect(none.reason).toMatch(/no picture with the original image/);
  });

  it('check_page_number_colors reads the master second-to-last colour with its shifted channels', async () => {
    expect(metricFamilyOf('check_page_number_colors')).toBe('slides');
    expect((await runMetric('check_page_number_colors', f.redMaster, { color: 'red' })).score).toBe(1);
    expect((await runMetric('check_page_number_colors', f.redMaster, { color: 'black' })).score).toBe(0);
    expect((await runMetric('check_page_number_colors', f.base, { color: 'black' })).score).toBe(1);
    expect((await runMetric('check_page_number_colors', f.base, { color: 'red' })).score).toBe(0);
    // 0000ff is read as (0x00, 0x0f, 0xf): not blue by OSWorld's reading
    expect((await runMetric('check_page_number_colors', f.blueMaster, { color: 'blue' })).score).toBe(0);
  });
});
