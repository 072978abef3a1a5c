// What a task needs that this machine may lack: an account, a proxy, an app. Such tasks are recorded `skipped`
// with the reason instead of failing somewhere in their setup.
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { Task } from '../../shared/task';

/**
 * App names used in `related_apps` → executables that provide them (any one suffices). `os` and the like need
 * nothing beyond the sandbox display. Apps not in this table are unknown and skip the task.
 */
export const appExecutables: Record<string, string[]> = {
  os: [],
  terminal: ['xterm'],
  xterm: ['xterm'],
  shell: [],
  bash: ['bash'],
  chromium: ['chromium', 'chromium-browser'],
  chrome: ['chromium', 'google-chrome', 'chromium-browser'],
  'google-chrome': ['google-chrome', 'chromium'],
  sqlite: ['sqlite3'],
  sqlite3: ['sqlite3'],
  mousepad: ['mousepad'],
  text_editor: ['mousepad', 'gedit'],
  gedit: ['gedit'],
  python: ['python3'],
  python3: ['python3'],
  duckdb: ['duckdb'],
  vscode: ['code'],
  vs_code: ['code'],
  jupyter: ['jupyter'],
  libreoffice_calc: ['soffice', 'libreoffice'],
  libreoffice_writer: ['soffice', 'libreoffice'],
  libreoffice_impress: ['soffice', 'libreoffice'],
  libreoffice_draw: ['soffice', 'libreoffice'],
  excel: ['soffice', 'libreoffice'],
  word: ['soffice', 'libreoffice'],
  powerpoint: ['soffice', 'libreoffice'],
  gimp: ['gimp'],
  vlc: ['vlc'],
  thunderbird: ['thunderbird'],
  firefox: ['firefox'],
  docker: ['docker'],
  git: ['git'],
};

/**
 * Apps that are LibreOffice's windows, and the library of the module each needs (Debian's libreoffice-calc,
 * -writer, -impress, -draw). Their tasks open documents in the GUI: a headless `soffice` is not enough.
 */
export const officeModules: Record<string, { module: string; library: string }> = {
  libreoffice_calc: { module: 'Calc', library: 'libsclo.so' },
  excel: { module: 'Calc', library: 'libsclo.so' },
  libreoffice_writer: { module: 'Writer', library: 'libswlo.so' },
  word: { module: 'Writer', library: 'libswlo.so' },
  libreoffice_impress: { module: 'Impress', library: 'libsdlo.so' },
  powerpoint: { module: 'Impress', library: 'libsdlo.so' },
  libreoffice_draw: { module: 'Draw', library: 'libsdlo.so' },
};

/**
 * LibreOffice's window plugins (VCL): GTK, KDE/Qt or plain X11. Debian's `-nogui` flavour has none of them, only
 * headless drawing, so it converts files but shows no window.
 */
export const OFFICE_WINDOW_PLUGINS = [
  'libvclplug_gtk3lo.so',
  'libvclplug_gtk4lo.so',
  'libvclplug_kf5lo.so',
  'libvclplug_qt5lo.so',
  'libvclplug_qt6lo.so',
  'libvclplug_genlo.so',
];

/** The full path of executable `name` on PATH, or undefined. */
export function whichOnPath(name: string, path: string = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not here
    }
  }
  return undefined;
}

/** True when `name` is an executable file on PATH. */
export function onPath(name: string, path: string = process.env.PATH ?? ''): boolean {
  return whichOnPath(name, path) !== undefined;
}

/**
 * Why the LibreOffice window `app` needs cannot open here (no soffice, no window plugin: a `-nogui` install, or
 * not the module), or undefined when it can. `program` is LibreOffice's program folder (default: where the
 * `soffice` on PATH lives).
 */
export function officeGuiMissing(app: string, program?: string): string | undefined {
  const need = officeModules[app];
  if (!need) return undefined;
  if (!program) {
    const exe = whichOnPath('soffice') ?? whichOnPath('libreoffice');
    if (!exe) return `app not installed: ${app} (LibreOffice ${need.module}: no soffice on PATH)`;
    try {
      program = dirname(realpathSync(exe));
    } catch {
      return `app not installed: ${app} (cannot resolve ${exe})`;
    }
  }
  if (!OFFICE_WINDOW_PLUGINS.some((p) => existsSync(join(program!, p)))) {
    return `app not installed: ${app} (LibreOffice in ${program} has no window plugin (${OFFICE_WINDOW_PLUGINS[0]} …): a headless-only (-nogui) install; install libreoffice-${need.module.toLowerCase()} and libreoffice-gtk3)`;
  }
  if (!existsSync(join(program, need.library))) {
    return `app not installed: ${app} (LibreOffice ${need.module} is missing: no ${need.library} in ${program}; install libreoffice-${need.module.toLowerCase()})`;
  }
  return undefined;
}

export type AppCheck = (app: string) => string | undefined;

/** The default check: the app's executables are on PATH; the reason when not. */
export const installedApp: AppCheck = (app) => {
  const key = app.toLowerCase().replace(/[\s-]+/g, '_');
  const exes = appExecutables[key] ?? appExecutables[app.toLowerCase()];
  if (exes === undefined)
    return `app not installed: ${app} (Proctor does not know how to provide it locally)`;
  if (exes.length > 0 && !exes.some((e) => onPath(e)))
    return `app not installed: ${app} (none of ${exes.join(', ')} is on PATH)`;
  return officeGuiMissing(officeModules[key] ? key : app.toLowerCase());
};

/** Why `task` cannot run here, or undefined when it can. */
export function skipReason(task: Task, appCheck: AppCheck = installedApp): string | undefined {
  if (task.needsAccount.length) return `needs account: ${task.needsAccount.join(', ')}`;
  if (task.needsProxy)
    return 'needs a proxy (the task sets `proxy`), which the local environment does not provide';
  const reasons = [...new Set(task.relatedApps)].map(appCheck).filter((r): r is string => r !== undefined);
  return reasons.length ? reasons.join('; ') : undefined;
}
