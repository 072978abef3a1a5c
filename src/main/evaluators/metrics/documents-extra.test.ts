// compare_highlighted_text, compare_insert_equation and compare_contains_image on docx files LibreOffice saved
// (flat ODF sources; highlighting saved as w:highlight through LibreOffice's own export option, and once as its
// default shading; the equation as an embedded OLE object, which LibreOffice writes as w:object).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import {
  hasLibreOffice,
  odfTextNamespaces,
  saveManyWithLibreOffice,
  saveWithLibreOffice,
} from '../testing/libreoffice';

const tmp = tempDir();
afterAll(tmp.cleanup);

const NS = odfTextNamespaces;
const yellow =
  '<style:style style:name="T1" style:family="text"><style:text-properties fo:background-color="#ffff00"/></style:style>';
const fodt = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<office:document ${NS} office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.text">` +
  `<office:automatic-styles>${yellow}</office:automatic-styles><office:body><office:text>${body}</office:text></office:body></office:document>`;
const mark = (t: string) => `<text:span text:style-name="T1">${t}</text:span>`;
const frame = (inner: string) =>
  `<draw:frame draw:name="f" text:anchor-type="as-char" svg:width="2cm" svg:height="0.6cm">${inner}</draw:frame>`;
/** LibreOffice's own user setting: export character background as highlighting (w:highlight), not shading. */
const highlightingProfile = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Filter/Microsoft/Export"><prop oor:name="CharBackgroundToHighlighting" oor:op="fuse"><value>true</value></prop></item>
</oor:items>
`;

describe.skipIf(!hasLibreOffice)(
  'OSWorld docs.py highlight / equation / image metrics on files LibreOffice saved',
  () => {
    let f: Record<string, string> = {};
    beforeAll(() => {
      const png = join(tmp.dir, 'red.png');
      execFileSync('convert', ['-size', '8x6', 'xc:red', `PNG24:${png}`]);
      const b64 = readFileSync(png).toString('base64');
      const picture = frame(`<draw:image><office:binary-data>${b64}</office:binary-data></draw:image>`);
      // An embedded OLE object with Equation Editor 3.0's class id and a preview image, as a Word formula comes in
      const ole = Buffer.from('proctor test OLE payload '.repeat(24)).toString('base64');
      const equation = frame(
        `<draw:object-ole draw:class-id="0002CE02-0000-0000-C000-000000000046"><office:binary-data>${ole}</office:binary-data></draw:object-ole><draw:image><office:binary-data>${b64}</office:binary-data></draw:image>`,
      );
      const dir = join(tmp.dir, 'highlighting');
      mkdirSync(join(dir, 'lo-profile', 'user'), { recursive: true });
      writeFileSync(join(dir, 'lo-profile', 'user', 'registrymodifications.xcu'), highlightingProfile);
      f = saveManyWithLibreOffice(
        dir,
        {
          hlGold: fodt(
            `<text:p>First line ${mark('good point')}</text:p><text:p>Second ${mark('needs a source')} here</text:p>`,
          ),
          hlSame: fodt(
            `<text:p>First line, edited ${mark('good point')}</text:p><text:p>${mark('needs a source')}</text:p>`,
          ),
          hlFewer: fodt(
            `<text:p>First line ${mark('good point')}</text:p><text:p>Second #needs a source here</text:p>`,
          ),
          eqGold: fodt(`<text:p>Expand the square.</text:p><text:p>${equation}</text:p>`),
          eqSame: fodt(`<text:p>Expand the square.</text:p><text:p>${equation}</text:p>`),
          eqNone: fodt('<text:p>Expand the square.</text:p><text:p/>'),
          eqWords: fodt(`<text:p>Expand the cube.</text:p><text:p>${equation}</text:p>`),
          imgGold: fodt(`<text:p>Schedule:</text:p><text:p>${picture}</text:p><text:p>Textbooks</text:p>`),
          imgSame: fodt(
            `<text:p>Schedule:</text:p><text:p>${picture}</text:p><text:p>Textbooks, edited</text:p>`,
          ),
          imgNone: fodt(
            '<text:p>Schedule:</text:p><text:p>pasted nothing</text:p><text:p>Textbooks</text:p>',
          ),
          imgLate: fodt(
            `<text:p>Schedule:</text:p><text:p/><text:p>Textbooks</text:p><text:p>${picture}</text:p>`,
          ),
        },
        'docx',
      );
      // LibreOffice's default: character background saved as shading (w:shd), which the metric does not see
      f.hlShaded = saveWithLibreOffice(
        join(tmp.dir),
        'hlShaded',
        fodt(
          `<text:p>First line ${mark('good point')}</text:p><text:p>Second ${mark('needs a source')} here</text:p>`,
        ),
        'docx',
      );
    }, 240_000);

    it('are in the documents family', () => {
      for (const name of ['compare_highlighted_text', 'compare_insert_equation', 'compare_contains_image'])
        expect(metricFamilyOf(name), name).toBe('documents');
    });

    it('compare_highlighted_text: the same set of highlighted texts 1, one fewer 0, shading (LibreOffice default) 0', async () => {
      expect(readFileSync(f.hlGold).length).toBeGreaterThan(0);
      expect((await runMetric('compare_highlighted_text', f.hlSame, f.hlGold)).score).toBe(1);
      expect((await runMetric('compare_highlighted_text', f.hlGold, f.hlGold)).score).toBe(1);
      const fewer = await runMetric('compare_highlighted_text', f.hlFewer, f.hlGold);
      expect(fewer.score).toBe(0);
      expect(fewer.reason).toContain('needs a source');
      expect((await runMetric('compare_highlighted_text', f.hlShaded, f.hlGold)).score).toBe(0);
      // no highlighting on either side: two empty sets are equal
      expect((await runMetric('compare_highlighted_text', f.hlShaded, f.imgGold)).score).toBe(1);
      expect((await runMetric('compare_highlighted_text', undefined, f.hlGold)).score).toBe(0);
    });

    it('compare_insert_equation: an object at the same run of equal texts 1; no object, or other words, 0', async () => {
      expect((await runMetric('compare_insert_equation', f.eqSame, f.eqGold)).score).toBe(1);
      expect((await runMetric('compare_insert_equation', f.eqNone, f.eqGold)).score).toBe(0);
      const words = await runMetric('compare_insert_equation', f.eqWords, f.eqGold);
      expect(words.score).toBe(0);
      expect(words.reason).toMatch(/texts differ/);
      expect((await runMetric('compare_insert_equation', f.eqGold, undefined)).score).toBe(0);
    });

    it('compare_contains_image: images in the same runs 1, a missing one 0; runs past the shorter document are not looked at', async () => {
      expect((await runMetric('compare_contains_image', f.imgSame, f.imgGold)).score).toBe(1);
      const none = await runMetric('compare_contains_image', f.imgNone, f.imgGold);
      expect(none.score).toBe(0);
      expect(none.reason).toMatch(/paragraph 2, run 1/);
      expect((await runMetric('compare_contains_image', f.imgGold, f.imgNone)).score).toBe(0);
      // the image moved to a fourth paragraph the expected document lacks: not compared, as upstream's zip
      expect((await runMetric('compare_contains_image', f.imgLate, f.imgNone)).score).toBe(1);
      expect((await runMetric('compare_contains_image', f.imgGold, join(tmp.dir, 'absent.docx'))).score).toBe(
        0,
      );
    });
  },
);
