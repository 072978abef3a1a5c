// Test helper: a LibreOffice user profile for a sandbox home, so that nothing a fresh benchmark VM would not show
// interrupts a test (tip of the day, "keep current format" when saving xlsx, document recovery, what's-new bar).
// Test-local on purpose: the sandbox's own prepared profile is another module's work; these tests only need quiet.
import { spawnSync } from 'node:child_process';
import type { Environment } from '../../env/environment';

/** Why GUI LibreOffice Calc cannot run here (Debian's `libreoffice-calc`, not the `-nogui` flavour), or ''. */
export const noGuiCalc =
  spawnSync('sh', ['-c', 'command -v soffice xdg-open Xvfb openbox xdotool && dpkg -s libreoffice-calc'])
    .status === 0
    ? ''
    : 'needs GUI LibreOffice Calc (libreoffice-calc), xdg-open, Xvfb, openbox and xdotool';

const item = (path: string, name: string, value: string): string =>
  `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`;

/** The version LibreOffice reports (e.g. `7.4`), for its "first run of this version" bar. */
function libreOfficeVersion(): string {
  const out = spawnSync('soffice', ['--version'], { encoding: 'utf8', timeout: 60_000 }).stdout ?? '';
  return /LibreOffice (\d+\.\d+)/.exec(out)?.[1] ?? '7.4';
}

/** Puts the guest's `~/.config/libreoffice/4/user/registrymodifications.xcu` with quiet settings (through the
 * environment, so the sandbox's user owns the profile folder and LibreOffice can write to it). */
export async function putQuietCalcProfile(env: Pick<Environment, 'putFile'>): Promise<void> {
  const items = [
    item('/org.openoffice.Office.Common/Misc', 'ShowTipOfTheDay', 'false'),
    item('/org.openoffice.Office.Common/Misc', 'FirstRun', 'false'),
    item('/org.openoffice.Office.Common/Save/Document', 'WarnAlienFormat', 'false'),
    item('/org.openoffice.Office.Recovery/RecoveryInfo', 'Enabled', 'false'),
    item('/org.openoffice.Office.Recovery/AutoSave', 'Enabled', 'false'),
    item('/org.openoffice.Setup/Office', 'ooSetupInstCompleted', 'true'),
    item('/org.openoffice.Setup/Product', 'ooSetupLastVersion', libreOfficeVersion()),
  ];
  await env.putFile(
    '/home/user/.config/libreoffice/4/user/registrymodifications.xcu',
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n${items.join('\n')}\n</oor:items>\n`,
    ),
  );
}
