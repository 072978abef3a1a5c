import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { metricFamilyOf } from '../catalog';
import { runMetric, tempDir } from '../testing/fixtures';

const tmp = tempDir();
afterAll(tmp.cleanup);

/** registrymodifications.xcu in LibreOffice's registry format. */
const xcu = (items: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n${items}\n</oor:items>\n`;

describe('OSWorld slides metrics', () => {
  it('check_presenter_console_disable reads EnablePresenterScreen', async () => {
    expect(metricFamilyOf('check_presenter_console_disable')).toBe('slides');
    const off = join(tmp.dir, 'off.xcu');
    writeFileSync(off, xcu('<item oor:path="/org.openoffice.Office.Impress/Misc/Start"><prop oor:name="EnablePresenterScreen" oor:op="fuse"><value>false</value></prop></item>'));
    const on = join(tmp.dir, 'on.xcu');
    writeFileSync(on, xcu('<item oor:path="/org.openoffice.Office.Impress/Misc/Start"><prop oor:name="EnablePresenterScreen" oor:op="fuse"><value>true</value></prop></item>'));
    const unset = join(tmp.dir, 'unset.xcu');
    writeFileSync(unset, xcu('<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse"><value>false</value></prop></item>'));
    expect((await runMetric('check_presenter_console_disable', off, {})).score).toBe(1);
    expect((await runMetric('check_presenter_console_disable', on, {})).score).toBe(0);
    expect((await runMetric('check_presenter_console_disable', unset, {})).score).toBe(0);
  });
});
