// Which program `open` starts for a file, as a task's VM would (xdg-open has no desktop to ask here): office
// documents in LibreOffice (Calc, Writer, Impress, Draw, on the profile prepared in the sandbox home), web pages
// and PDFs in Chromium, plain text in mousepad. And the window title LibreOffice then shows, which tasks' steps
// name (`activate_window` 'SalesRep.xlsx - LibreOffice Calc').
import { posix } from 'node:path';
import type { Environment } from '../environment';

/** LibreOffice's modules by file type, as OSWorld's and Spider2-V's Ubuntu VMs open them. */
const OFFICE_TYPES: Record<'calc' | 'writer' | 'impress' | 'draw', string[]> = {
  calc: ['.xlsx', '.xlsm', '.xls', '.xlsb', '.xltx', '.ods', '.ots', '.fods', '.csv', '.tsv'],
  writer: ['.docx', '.docm', '.doc', '.dotx', '.odt', '.ott', '.fodt', '.rtf'],
  impress: ['.pptx', '.pptm', '.ppt', '.ppsx', '.pps', '.potx', '.odp', '.otp', '.fodp'],
  draw: ['.odg', '.otg', '.fodg', '.vsd', '.vsdx'],
};

/** The window title suffix of each module (LibreOffice 7.x: `<file name> - LibreOffice Calc`). */
export const OFFICE_TITLES: Record<keyof typeof OFFICE_TYPES, string> = {
  calc: 'LibreOffice Calc',
  writer: 'LibreOffice Writer',
  impress: 'LibreOffice Impress',
  draw: 'LibreOffice Draw',
};

/**
 * Programs by file type (lower-case extension with its dot); the file's path is appended. LibreOffice starts
 * without its splash window (`--nologo`): under load the splash, a second window titled "LibreOffice", lingered
 * beside the document for over a second, in the first screenshots and in window lists.
 */
export const OPENERS: Record<string, string[]> = {
  '.html': ['chromium'],
  '.htm': ['chromium'],
  '.pdf': ['chromium'],
  '.txt': ['mousepad'],
  '.md': ['mousepad'],
  '.py': ['mousepad'],
  '.sql': ['mousepad'],
  '.json': ['mousepad'],
  '.yml': ['mousepad'],
  '.yaml': ['mousepad'],
  '.sh': ['mousepad'],
  ...Object.fromEntries(
    Object.entries(OFFICE_TYPES).flatMap(([module, exts]) =>
      exts.map((ext) => [ext, ['soffice', '--nologo', `--${module}`]]),
    ),
  ),
};

/** The LibreOffice module that opens `path`, by its extension; undefined for other files. */
export function officeModule(path: string): keyof typeof OFFICE_TYPES | undefined {
  const ext = posix.extname(path).toLowerCase();
  for (const [module, exts] of Object.entries(OFFICE_TYPES))
    if (exts.includes(ext)) return module as keyof typeof OFFICE_TYPES;
  return undefined;
}

/**
 * The title of the window LibreOffice shows for the document at `path` (`SalesRep.xlsx - LibreOffice Calc`), or
 * undefined when LibreOffice does not open it. A file the user may not write shows `name (read-only) - …`.
 */
export function officeWindowTitle(path: string, o: { readOnly?: boolean } = {}): string | undefined {
  const module = officeModule(path);
  if (!module) return undefined;
  return `${posix.basename(path)}${o.readOnly ? ' (read-only)' : ''} - ${OFFICE_TITLES[module]}`;
}

/** Visible windows' titles on the environment's display (xdotool, run in the guest), in stacking order. */
export async function windowTitles(env: Pick<Environment, 'run'>): Promise<string[]> {
  const r = await env.run(
    [
      'sh',
      '-c',
      'for w in $(xdotool search --onlyvisible --name . 2>/dev/null); do xdotool getwindowname "$w" 2>/dev/null; done',
    ],
    { timeoutMs: 10_000 },
  );
  return r.stdout.split('\n').filter((t) => t.length > 0);
}

/**
 * Waits until a visible window is titled exactly `title` (or, with `strict: false`, has it in its title); the
 * titles then on screen. Throws after `timeoutMs` naming the title and what was on screen instead.
 */
export async function waitForWindowTitle(
  env: Pick<Environment, 'run'>,
  title: string,
  o: { strict?: boolean; timeoutMs?: number; everyMs?: number } = {},
): Promise<string[]> {
  const strict = o.strict ?? true;
  const end = Date.now() + (o.timeoutMs ?? 30_000);
  let seen: string[];
  for (;;) {
    seen = await windowTitles(env);
    if (seen.some((t) => (strict ? t === title : t.includes(title)))) return seen;
    if (Date.now() > end) break;
    await new Promise((r) => setTimeout(r, o.everyMs ?? 150));
  }
  throw new Error(
    `no window titled ${strict ? 'exactly ' : ''}'${title}' appeared within ${o.timeoutMs ?? 30_000} ms; on screen: ${
      seen.length ? seen.map((t) => `'${t}'`).join(', ') : 'no window'
    }`,
  );
}

/**
 * Moves the pointer over the window titled exactly `title` and back to where it was. GUI LibreOffice (gtk3)
 * learns where the window manager put its window from pointer events: until the pointer has moved over it, its
 * AT-SPI boxes are off by the window manager's offset (measured: 25 px too high under openbox's title bar), so
 * Set-of-Mark marks and clicks on them miss. Call once after the window appears, before observing.
 */
export async function settleWindowGeometry(
  env: Pick<Environment, 'run' | 'perform'>,
  title: string,
  o: { windowId?: string } = {},
): Promise<void> {
  const script = o.windowId
    ? 'xdotool getmouselocation --shell; xdotool getwindowgeometry --shell "$1"'
    : 'xdotool getmouselocation --shell; xdotool search --onlyvisible --name "$1" getwindowgeometry --shell';
  const r = await env.run(['sh', '-c', script, 'sh', o.windowId ?? titlePattern(title, true)], {
    timeoutMs: 10_000,
  });
  const num = (key: string): number[] =>
    [...r.stdout.matchAll(new RegExp(`^${key}=(-?\\d+)$`, 'gm'))].map((m) => Number(m[1]));
  const [px, wx] = num('X');
  const [py, wy] = num('Y');
  const [w] = num('WIDTH');
  const [h] = num('HEIGHT');
  if ([px, py, wx, wy, w, h].some((v) => v === undefined || Number.isNaN(v)))
    throw new Error(
      `no window titled exactly '${title}' to settle (xdotool: ${r.stdout.trim() || r.stderr.trim()})`,
    );
  const cx = wx + Math.floor(w / 2);
  const cy = wy + Math.floor(h / 2);
  await env.perform([
    { type: 'moveTo', x: cx === px && cy === py ? cx + 1 : cx, y: cy },
    { type: 'moveTo', x: px, y: py },
  ]);
}

/**
 * An xdotool title (or class) pattern that matches `title` literally: contained, or whole when strict. Slashes
 * and tildes go in brackets so that a title naming a guest path (`~/Desktop/a.csv - Mousepad`) is never taken
 * for a path by the host fallback's rewriting of command text.
 */
export function titlePattern(title: string, strict: boolean): string {
  const literal = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[/~]/g, '[$&]');
  return strict ? `^${literal}$` : literal;
}
