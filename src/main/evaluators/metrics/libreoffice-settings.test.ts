// Tests: the OSWorld metrics that read LibreOffice's user config, registrymodifications.xcu — find_default_font
// (documents family) and check_presenter_console_disable, check_auto_saving_time (slides family) — graded on the
// file LibreOffice itself wrote: one profile where LibreOffice set what the tasks ask (Impress "disable the
// presenter console", Impress 2cd43775 "enable auto-save every 3min", Writer "make Times New Roman the default
// font") through its configuration API, one where LibreOffice started and quit untouched. Two launches, at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';
import { libreOfficeConfigMissing, libreOfficeWritesConfig } from '../testing/libreoffice-config';

const tmp = tempDir();
afterAll(tmp.cleanup);

const missing = libreOfficeConfigMissing;

describe.skipIf(missing !== undefined)(
  `OSWorld settings metrics on the registrymodifications.xcu LibreOffice wrote${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let changed = '';
    let untouched = '';
    beforeAll(async () => {
      [changed, untouched] = await Promise.all([
        libreOfficeWritesConfig(tmp.dir, 'changed', {
          '/org.openoffice.Office.Impress/Misc/Start': { EnablePresenterScreen: false },
          // Tools > Options > Load/Save > General: "Save AutoRecovery information every 3 minutes" sets both
          '/org.openoffice.Office.Common/Save/Document': { AutoSave: true, AutoSaveTimeIntervall: 3 },
          '/org.openoffice.Office.Writer/DefaultFont': { Standard: 'Times New Roman' },
        }),
        libreOfficeWritesConfig(tmp.dir, 'untouched', {}),
      ]);
    }, 300_000);

    it('LibreOffice wrote the changed settings as fuse items, and none of them into the untouched profile', () => {
      const text = readFileSync(changed, 'utf8');
      expect(text).toContain(
        '<item oor:path="/org.openoffice.Office.Impress/Misc/Start"><prop oor:name="EnablePresenterScreen" oor:op="fuse"><value>false</value></prop></item>',
      );
      expect(text).toContain(
        '<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSaveTimeIntervall" oor:op="fuse"><value>3</value></prop></item>',
      );
      expect(text).toContain(
        '<item oor:path="/org.openoffice.Office.Writer/DefaultFont"><prop oor:name="Standard" oor:op="fuse"><value>Times New Roman</value></prop></item>',
      );
      const plain = readFileSync(untouched, 'utf8');
      expect(plain).toContain('<oor:items');
      expect(plain).not.toMatch(/EnablePresenterScreen|AutoSaveTimeIntervall|DefaultFont/);
    });

    it('check_presenter_console_disable: 1 once EnablePresenterScreen is false; 0 on the untouched profile', async () => {
      expect(metricFamilyOf('check_presenter_console_disable')).toBe('slides');
      expect((await runMetric('check_presenter_console_disable', changed, {})).score).toBe(1);
      const plain = await runMetric('check_presenter_console_disable', untouched, {});
      expect(plain.score).toBe(0);
      expect(plain.reason).toMatch(/not set/);
      expect(
        (await runMetric('check_presenter_console_disable', join(tmp.dir, 'absent.xcu'), {})).score,
      ).toBe(0);
    });

    it("check_auto_saving_time: the task's {minutes: 3} scores 1; another interval, the untouched profile and no file 0", async () => {
      expect(metricFamilyOf('check_auto_saving_time')).toBe('slides');
      expect((await runMetric('check_auto_saving_time', changed, { minutes: 3 })).score).toBe(1);
      expect((await runMetric('check_auto_saving_time', changed, { minutes: 10 })).score).toBe(0);
      // LibreOffice's default interval (10) is not written while unchanged, so OSWorld finds no value: 0
      const plain = await runMetric('check_auto_saving_time', untouched, { minutes: 10 });
      expect(plain.score).toBe(0);
      expect(plain.reason).toMatch(/not set/);
      expect(
        (await runMetric('check_auto_saving_time', join(tmp.dir, 'absent.xcu'), { minutes: 3 })).score,
      ).toBe(0);
    });

    it("find_default_font: 1 for the font LibreOffice saved as Writer's default; another font and the untouched profile 0", async () => {
      expect(metricFamilyOf('find_default_font')).toBe('documents');
      expect((await runMetric('find_default_font', changed, { font_name: 'Times New Roman' })).score).toBe(1);
      expect((await runMetric('find_default_font', changed, { font_name: 'Liberation Serif' })).score).toBe(
        0,
      );
      // Writer's built-in default (Liberation Serif) is not in the file either
      expect((await runMetric('find_default_font', untouched, { font_name: 'Liberation Serif' })).score).toBe(
        0,
      );
      expect(
        (await runMetric('find_default_font', join(tmp.dir, 'absent.xcu'), { font_name: 'Times New Roman' }))
          .score,
      ).toBe(0);
    });
  },
);
