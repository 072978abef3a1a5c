// LibreOffice's user profile in a sandbox home, prepared so that nothing interrupts a task that a fresh OSWorld or
// Spider2-V VM would not show: no tip of the day, no "what's new" bar, no "keep current format" question when
// saving xlsx/docx/pptx, no document recovery after a killed session. Items of registrymodifications.xcu, written
// where LibreOffice looks with HOME set to the sandbox home (~/.config/libreoffice/4/user/).
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** The user profile folder, relative to the home (LibreOffice's default UserInstallation on Linux). */
export const OFFICE_PROFILE_DIR = '.config/libreoffice/4/user';
export const OFFICE_PROFILE_FILE = 'registrymodifications.xcu';

export type OfficeConfigValue = string | number | boolean;

/** One configuration property: its node path (as in the .xcu item), name and value. */
export interface OfficeProfileItem {
  path: string;
  name: string;
  value: OfficeConfigValue;
  /** Why the item is set (shown in the README and tests). */
  why: string;
}

/** The installed LibreOffice: its program folder, product version (`7.4`) and build id (`40(Build:2)`). */
export interface OfficeInstall {
  program: string;
  version: string;
  buildId?: string;
}

const installs = new Map<string, OfficeInstall | undefined>();

/** The LibreOffice whose `soffice` is on `path` (default PATH), or undefined when there is none. Asked once per path. */
export function findOfficeInstall(path: string = process.env.PATH ?? ''): OfficeInstall | undefined {
  if (installs.has(path)) return installs.get(path);
  let found: OfficeInstall | undefined;
  for (const dir of path.split(delimiter)) {
    if (!dir || !existsSync(join(dir, 'soffice'))) continue;
    try {
      const program = dirname(realpathSync(join(dir, 'soffice')));
      const xcd = readFileSync(join(program, '..', 'share', 'registry', 'main.xcd'), 'utf8');
      const version = /<prop oor:name="ooSetupVersion">\s*<value>([^<]+)<\/value>/.exec(xcd)?.[1];
      if (!version) continue;
      let buildId: string | undefined;
      try {
        buildId = /^buildid=(.+)$/m.exec(readFileSync(join(program, 'versionrc'), 'utf8'))?.[1]?.trim();
      } catch {
        // no versionrc: the compatibility check runs once at first start
      }
      found = { program, version, buildId };
      break;
    } catch {
      // not a LibreOffice install we can read
    }
  }
  installs.set(path, found);
  return found;
}

/**
 * When the "Get involved" / "Donate" bars count as last shown: 2100-01-01, so they never come due, and every home
 * gets the same profile (a clock value here made two setups of one task differ, which `review reset` flags).
 */
const BARS_LAST_SHOWN = 4_102_444_800;

/** The profile items Proctor sets, for the installed LibreOffice (`install`); `now` stands for the bars' last showing. */
export function officeProfileItems(install: OfficeInstall, now = BARS_LAST_SHOWN): OfficeProfileItem[] {
  const items: OfficeProfileItem[] = [
    {
      path: '/org.openoffice.Office.Common/Misc',
      name: 'ShowTipOfTheDay',
      value: false,
      why: 'no "Tip of the Day" dialog at start',
    },
    { path: '/org.openoffice.Office.Common/Misc', name: 'FirstRun', value: false, why: 'not a first run' },
    {
      path: '/org.openoffice.Office.Common/Save/Document',
      name: 'WarnAlienFormat',
      value: false,
      why: 'no "Use Excel 2007-365!/Keep current format" question on Ctrl+S of xlsx, docx, pptx',
    },
    {
      path: '/org.openoffice.Office.Recovery/RecoveryInfo',
      name: 'Enabled',
      value: false,
      why: 'no recovery list kept, so no "Document Recovery" dialog after a killed session',
    },
    {
      path: '/org.openoffice.Office.Recovery/AutoSave',
      name: 'Enabled',
      value: false,
      why: 'no timed recovery saves',
    },
    {
      path: '/org.openoffice.Setup/Office',
      name: 'ooSetupInstCompleted',
      value: true,
      why: 'the profile counts as set up',
    },
    {
      path: '/org.openoffice.Setup/Product',
      name: 'ooSetupLastVersion',
      value: install.version,
      why: `no "You are running version ${install.version} for the first time" bar`,
    },
    {
      path: '/org.openoffice.Setup/Product',
      name: 'LastTimeGetInvolvedShown',
      value: now,
      why: 'no "Get involved" bar',
    },
    {
      path: '/org.openoffice.Setup/Product',
      name: 'LastTimeDonateShown',
      value: now,
      why: 'no "Donate" bar',
    },
  ];
  if (install.buildId) {
    items.push({
      path: '/org.openoffice.Setup/Office',
      name: 'LastCompatibilityCheckID',
      value: install.buildId,
      why: 'no extension compatibility check at first start',
    });
  }
  return items;
}

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One `<item>` line as LibreOffice writes it. */
export function xcuItem(item: Pick<OfficeProfileItem, 'path' | 'name' | 'value'>): string {
  return `<item oor:path="${xmlEscape(item.path)}"><prop oor:name="${xmlEscape(item.name)}" oor:op="fuse"><value>${xmlEscape(String(item.value))}</value></prop></item>`;
}

const HEADER =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n';
const FOOTER = '</oor:items>\n';

/** The item line's path and property name (LibreOffice writes one item per line). */
function itemKey(line: string): { path: string; name?: string } | undefined {
  const m = /^<item oor:path="([^"]*)">(?:<(?:prop|node) oor:name="([^"]*)")?/.exec(line);
  return m ? { path: m[1], name: m[2] } : undefined;
}

/**
 * The registrymodifications.xcu text with `items` set: an existing profile (`existing`) keeps its other items,
 * loses any stale recovery list (a killed session's), and gets ours in place of its own values for them.
 */
export function mergeProfile(existing: string | undefined, items: OfficeProfileItem[]): string {
  const ours = new Set(items.map((i) => `${i.path}\0${i.name}`));
  const kept: string[] = [];
  if (existing && existing.includes('</oor:items>')) {
    for (const line of existing.split('\n')) {
      const key = itemKey(line.trim());
      if (!key) continue;
      if (key.path.startsWith('/org.openoffice.Office.Recovery/RecoveryList')) continue;
      if (key.name !== undefined && ours.has(`${key.path}\0${key.name}`)) continue;
      kept.push(line.trim());
    }
  }
  return HEADER + [...kept, ...items.map(xcuItem)].map((l) => l + '\n').join('') + FOOTER;
}

/**
 * Prepares LibreOffice's user profile under the host folder `homeRoot` (a sandbox home). Does nothing when no
 * LibreOffice is installed (`install` null). Returns the profile file written, if any.
 */
export function prepareOfficeProfile(
  homeRoot: string,
  install: OfficeInstall | null = findOfficeInstall() ?? null,
): string | undefined {
  if (!install) return undefined;
  const dir = join(homeRoot, OFFICE_PROFILE_DIR);
  const file = join(dir, OFFICE_PROFILE_FILE);
  mkdirSync(dir, { recursive: true });
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  writeFileSync(file, mergeProfile(existing, officeProfileItems(install)));
  return file;
}
