import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  findOfficeInstall,
  mergeProfile,
  officeProfileItems,
  OFFICE_PROFILE_DIR,
  OFFICE_PROFILE_FILE,
  prepareOfficeProfile,
  xcuItem,
} from './office-profile';
import { SandboxHome } from './sandbox-home';

const INSTALL = { program: '/opt/lo/program', version: '7.4', buildId: '40(Build:2)' };
let dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'proctor-office-profile-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('LibreOffice profile of a sandbox home', () => {
  it('sets the keys that keep dialogs away, as LibreOffice writes its items', () => {
    const items = officeProfileItems(INSTALL, 1_700_000_000);
    const byKey = Object.fromEntries(items.map((i) => [`${i.path}/${i.name}`, i.value]));
    expect(byKey).toMatchObject({
      '/org.openoffice.Office.Common/Misc/ShowTipOfTheDay': false,
      '/org.openoffice.Office.Common/Save/Document/WarnAlienFormat': false,
      '/org.openoffice.Office.Recovery/RecoveryInfo/Enabled': false,
      '/org.openoffice.Setup/Product/ooSetupLastVersion': '7.4',
      '/org.openoffice.Setup/Office/LastCompatibilityCheckID': '40(Build:2)',
      '/org.openoffice.Setup/Product/LastTimeDonateShown': 1_700_000_000,
    });
    expect(xcuItem({ path: '/a/B', name: 'C', value: 'x<&"' })).toBe(
      '<item oor:path="/a/B"><prop oor:name="C" oor:op="fuse"><value>x&lt;&amp;&quot;</value></prop></item>',
    );
  });

  it("merges into an existing profile: keeps its other items, replaces ours, drops a killed session's recovery list", () => {
    const old = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<oor:items xmlns:oor="http://openoffice.org/2001/registry">',
      '<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>true</value></prop></item>',
      '<item oor:path="/org.openoffice.Office.Writer/DefaultFont"><prop oor:name="Standard" oor:op="fuse"><value>Times New Roman</value></prop></item>',
      '<item oor:path="/org.openoffice.Office.Recovery/RecoveryList"><node oor:name="recovery_item_1" oor:op="replace"><prop oor:name="Title" oor:op="fuse"><value>a.xlsx</value></prop></node></item>',
      '</oor:items>',
    ].join('\n');
    const merged = mergeProfile(old, officeProfileItems(INSTALL));
    expect(merged).toContain('<prop oor:name="Standard" oor:op="fuse"><value>Times New Roman</value>');
    expect(merged).not.toContain('RecoveryList');
    expect(merged.match(/ShowTipOfTheDay/g)).toHaveLength(1);
    expect(merged).toContain('<prop oor:name="ShowTipOfTheDay" oor:op="fuse"><value>false</value>');
    expect(merged.trimEnd().endsWith('</oor:items>')).toBe(true);
  });

  it('writes the profile where LibreOffice reads it with HOME at the sandbox home, and only when LibreOffice is there', () => {
    const home = temp();
    const file = prepareOfficeProfile(home, INSTALL);
    expect(file).toBe(join(home, OFFICE_PROFILE_DIR, OFFICE_PROFILE_FILE));
    expect(file).toContain('/.config/libreoffice/4/user/registrymodifications.xcu');
    expect(readFileSync(file!, 'utf8')).toContain('WarnAlienFormat');
    expect(prepareOfficeProfile(temp(), null)).toBeUndefined();
  });

  it('reads the version and build of an install from its files', () => {
    const root = temp();
    mkdirSync(join(root, 'program'), { recursive: true });
    mkdirSync(join(root, 'share', 'registry'), { recursive: true });
    writeFileSync(join(root, 'program', 'soffice'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileSync(join(root, 'program', 'versionrc'), '[Version]\nbuildid=99(Build:1)\n');
    writeFileSync(
      join(root, 'share', 'registry', 'main.xcd'),
      '<x><prop oor:name="ooSetupVersion">\n  <value>24.2</value>\n</prop></x>',
    );
    expect(findOfficeInstall(join(root, 'program'))).toMatchObject({
      version: '24.2',
      buildId: '99(Build:1)',
    });
    expect(findOfficeInstall(temp())).toBeUndefined();
  });

  it.skipIf(!findOfficeInstall())(
    'gives every new sandbox home the profile for the installed LibreOffice (needs soffice)',
    () => {
      const home = SandboxHome.create();
      dirs.push(home.root);
      const xcu = readFileSync(join(home.root, OFFICE_PROFILE_DIR, OFFICE_PROFILE_FILE), 'utf8');
      expect(xcu).toContain(
        `<prop oor:name="ooSetupLastVersion" oor:op="fuse"><value>${findOfficeInstall()!.version}</value>`,
      );
    },
  );
});
