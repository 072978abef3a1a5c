// OSWorld's getters for the desktop itself (family `os`): the focused terminal's text, a window's size, the
// wallpaper file, and the accessibility tree as OSWorld's XML. All reach the machine only through the Environment
// (its accessibility tree, commands and files), so they read a local sandbox display and a remote OSWorld VM alike.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GetterSpec } from '../../../shared/task';
import { MissingCapabilityError, type AccessibilityNode, type Environment } from '../../env/environment';
import { accessibilityXml } from '../../observe/osworld-xml';
import { focusedTerminalText } from '../../observe/terminal-text';
import { registerFamilyGetter } from '../family';
import { specString, type GradingContext } from '../getter';
import { safeFileName } from '../task-files';

/** An environment whose server reads the terminal itself (the osworld kind's GET /terminal). */
interface TerminalReader {
  terminalOutput(): Promise<string | null>;
}
function readsTerminal(env: Environment): env is Environment & TerminalReader {
  return typeof (env as Partial<TerminalReader>).terminalOutput === 'function';
}

/** An environment whose server writes the accessibility XML itself (the osworld kind's GET /accessibility). */
interface TreeXmlReader {
  accessibilityTreeXml(): Promise<string>;
}
function readsTreeXml(env: Environment): env is Environment & TreeXmlReader {
  return typeof (env as Partial<TreeXmlReader>).accessibilityTreeXml === 'function';
}

async function treeOf(ctx: GradingContext, getter: string): Promise<AccessibilityNode[]> {
  if (!ctx.env.capabilities.has('accessibility'))
    throw new MissingCapabilityError('accessibility', ctx.env.kind);
  try {
    return await ctx.env.accessibilityTree();
  } catch (e) {
    throw new Error(`getter '${getter}': cannot read the accessibility tree: ${(e as Error).message}`, {
      cause: e,
    });
  }
}

/** Python's str.rstrip(): trailing whitespace off. */
const rstrip = (s: string): string => s.replace(/\s+$/u, '');

/**
 * vm_terminal_output — the text of the focused terminal, trailing whitespace stripped; undefined (OSWorld's None)
 * unless exactly one is found. OSWorld's server reads it over AT-SPI: in the application's frame that has the
 * `active` state, the one `terminal` element with the `focused` state. On the osworld kind the server's own
 * GET /terminal answers (an OSWorld VM does exactly that, and `proctor env serve` runs the same walk,
 * observe/terminal-text.ts); elsewhere that walk runs over the Environment's tree. Departure: OSWorld looks only in `gnome-terminal-server`; here any application's terminal counts (a sandbox runs
 * other VTE terminals), and Proctor's AT-SPI reader takes at most the first 10,000 characters of a node's text.
 */
async function vmTerminalOutput(_spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  if (readsTerminal(ctx.env)) {
    const out = await ctx.env.terminalOutput();
    return typeof out === 'string' ? rstrip(out) : undefined;
  }
  return focusedTerminalText(await treeOf(ctx, 'vm_terminal_output'));
}

/** Lists the window manager's client windows: id, WM_CLASS line and `Width Height` (xprop and xwininfo). */
const LIST_CLIENTS = [
  'for id in $(xprop -root -notype _NET_CLIENT_LIST | sed -n "s/^[^#]*# //p" | tr "," " "); do',
  '  c=$(xprop -id "$id" -notype WM_CLASS 2>/dev/null)',
  '  g=$(xwininfo -id "$id" 2>/dev/null | sed -n "s/^ *\\(Width\\|Height\\): *\\([0-9]*\\).*/\\2/p" | tr "\\n" " ")',
  '  printf "%s\\t%s\\t%s\\n" "$id" "$c" "$g"',
  'done',
].join('\n');

/**
 * vm_window_size `{app_class_name}` — `{width, height}` of the first client window (in the window manager's
 * _NET_CLIENT_LIST order) whose WM_CLASS instance or class name equals `app_class_name` ignoring case, as OSWorld's
 * /window_size reads it (the window's own geometry, frame excluded); undefined (None) when no window matches.
 */
async function vmWindowSize(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const want = specString(spec, 'app_class_name').toLowerCase();
  const r = await ctx.env.run(['/bin/sh', '-c', LIST_CLIENTS], { shell: false, timeoutMs: 60_000 });
  if (r.timedOut) throw new Error(`getter 'vm_window_size': listing the windows timed out`);
  if (r.exitCode !== 0 && !r.stdout)
    throw new Error(`getter 'vm_window_size': cannot list the windows (xprop, xwininfo): ${r.stderr.trim()}`);
  for (const line of r.stdout.split('\n')) {
    const [, wmClass = '', geometry = ''] = line.split('\t');
    const names = [...wmClass.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].toLowerCase());
    if (!names.includes(want)) continue;
    const [width, height] = geometry.trim().split(/\s+/).map(Number);
    if (Number.isInteger(width) && Number.isInteger(height)) return { width, height };
  }
  return undefined;
}

/**
 * vm_wallpaper `{dest}` — the wallpaper file copied to the cache as `dest`; its host path. Found as OSWorld's
 * server finds it on Linux: `gsettings get org.gnome.desktop.background picture-uri`, `file://` and quotes taken
 * out (no URL decoding). As OSWorld, when there is no wallpaper (gsettings fails, or the file is gone) the file
 * written is empty and its path is still returned.
 */
async function vmWallpaper(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const host = join(ctx.cacheDir, safeFileName(specString(spec, 'dest'), 'wallpaper'));
  const r = await ctx.env.run(['gsettings', 'get', 'org.gnome.desktop.background', 'picture-uri'], {
    shell: false,
    timeoutMs: 60_000,
  });
  const path = r.exitCode === 0 ? r.stdout.trim().replaceAll('file://', '').replaceAll("'", '') : '';
  const data = path ? await ctx.env.getFile(path).catch(() => undefined) : undefined;
  await mkdir(ctx.cacheDir, { recursive: true });
  await writeFile(host, data ?? Buffer.alloc(0));
  return host;
}

/**
 * accessibility_tree — the whole screen's accessibility tree as OSWorld's XML (a `<desktop-frame>` of
 * `<application>`s; states `st:`, attributes `attr:`, position and size `cp:`; a node's text as element text),
 * written from the Environment's tree by the same writer as the guest server's GET /accessibility. On the osworld
 * kind it is the XML the server wrote, as it came (as OSWorld's getter returns it): read back into nodes and written
 * again it would lose what the node model does not keep (an element text's trailing newline, `val:` and `act:`).
 * Departure (local environments): it is Proctor's tree (AT-SPI for native apps, DevTools for the browser's pages with
 * roles mapped to AT-SPI tags), and value (`val:`) and action (`act:`) attributes are not written.
 */
async function accessibilityTree(_spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  if (readsTreeXml(ctx.env) && ctx.env.capabilities.has('accessibility')) {
    try {
      return await ctx.env.accessibilityTreeXml();
    } catch (e) {
      throw new Error(
        `getter 'accessibility_tree': cannot read the accessibility tree: ${(e as Error).message}`,
        { cause: e },
      );
    }
  }
  const nodes = await treeOf(ctx, 'accessibility_tree');
  const screen = await ctx.env.screen().catch(() => ({ width: 0, height: 0 }));
  return accessibilityXml(nodes, screen);
}

registerFamilyGetter('os', 'vm_terminal_output', ['accessibility'], vmTerminalOutput);
registerFamilyGetter('os', 'vm_window_size', ['commands'], vmWindowSize);
registerFamilyGetter('os', 'vm_wallpaper', ['commands', 'files'], vmWallpaper);
registerFamilyGetter('os', 'accessibility_tree', ['accessibility'], accessibilityTree);
