import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installedApp, officeGuiMissing, onPath, skipReason } from './needs';
import type { Task } from '../../shared/task';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});
/** A LibreOffice program folder holding `files`. */
const program = (...files: string[]) => {
  const d = mkdtempSync(join(tmpdir(), 'proctor-lo-program-'));
  dirs.push(d);
  for (const f of files) writeFileSync(join(d, f), '');
  return d;
};

describe('GUI LibreOffice detection', () => {
  it("says a headless-only (-nogui) install lacks the app a task's window needs", () => {
    const nogui = program('soffice', 'libsclo.so', 'libswlo.so', 'libsdlo.so');
    expect(officeGuiMissing('libreoffice_calc', nogui)).toMatch(
      /no window plugin .*-nogui.*install libreoffice-calc and libreoffice-gtk3/,
    );
    expect(officeGuiMissing('excel', nogui)).toMatch(/^app not installed: excel /);
  });

  it('says which module is missing when the window plugin is there', () => {
    const calcOnly = program('soffice', 'libvclplug_gtk3lo.so', 'libsclo.so');
    expect(officeGuiMissing('libreoffice_calc', calcOnly)).toBeUndefined();
    expect(officeGuiMissing('libreoffice_writer', calcOnly)).toMatch(
      /LibreOffice Writer is missing: no libswlo.so .*install libreoffice-writer/,
    );
    expect(officeGuiMissing('gimp', calcOnly)).toBeUndefined(); // not a LibreOffice app
  });

  it.skipIf(!onPath('soffice'))('judges the LibreOffice installed here by its files (needs soffice)', () => {
    const task = {
      needsAccount: [],
      needsProxy: false,
      relatedApps: ['libreoffice_calc', 'excel'],
    } as unknown as Task;
    const here = officeGuiMissing('libreoffice_calc');
    expect(installedApp('libreoffice_calc')).toBe(here);
    expect(skipReason(task)).toBe(here ? [here, officeGuiMissing('excel')].join('; ') : undefined);
  });
});
