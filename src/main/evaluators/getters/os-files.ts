// OSWorld's getters for the machine and app config files (families `os`, `vlc`, `gimp`): command errors, the
// screen size, VLC's and GIMP's config files, and files from the cloud (`cloud_file`, which honours the run's
// --downloads folder as setup does). All reach the machine only through the Environment.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GetterSpec } from '../../../shared/task';
import { fetchDownload } from '../../downloads';
import { registerFamilyGetter } from '../family';
import { specString, type GradingContext } from '../getter';
import { safeFileName } from '../task-files';
import { loadBook } from '../metrics/table';
import { fetchGuestFile, fileLists, givenIndexes, pickGiven } from './file';
import { commandOutput } from './general';
// OSWorld's time getter, in its own module
import './os-time';

/** vm_command_error `{command, shell?}` — the command's standard error (OSWorld's /execute `error`). */
async function vmCommandError(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const command = spec.command;
  if (
    typeof command !== 'string' &&
    !(Array.isArray(command) && command.every((c) => typeof c === 'string'))
  ) {
    throw new Error(`getter 'vm_command_error' needs 'command' as a string or a list of strings`);
  }
  const r = await ctx.env.run(command as string | string[], {
    shell: spec.shell === true || typeof command === 'string',
    timeoutMs: 300_000,
  });
  if (r.timedOut) throw new Error(`command ${JSON.stringify(command)} timed out`);
  return r.stderr;
}

/** vm_screen_size — `{width, height}` of the screen in pixels. */
async function vmScreenSize(_spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const s = await ctx.env.screen();
  return { width: s.width, height: s.height };
}

/** A file under the guest's home, copied to the cache as `dest`: `$HOME/rel` as the guest's commands see it
 * (OSWorld's /home/user), else `~/rel` (a sandboxed local home maps it). Undefined when absent. */
async function homeFile(ctx: GradingContext, rel: string, dest: string): Promise<string | undefined> {
  const home = (await commandOutput(ctx, 'printf %s "$HOME"').catch(() => '')).trim();
  for (const base of [home, '~']) {
    if (!base) continue;
    const got = await fetchGuestFile(ctx, `${base}/${rel}`, dest).catch(() => undefined);
    if (got) return got;
  }
  return undefined;
}

/** vlc_config `{dest}` — VLC's ~/.config/vlc/vlcrc copied to the cache; its host path. */
async function vlcConfig(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  return homeFile(ctx, '.config/vlc/vlcrc', typeof spec.dest === 'string' ? spec.dest : 'vlcrc');
}

/** gimp_config_file `{file_name, dest}` — ~/.config/GIMP/2.10/<file_name> copied to the cache; its host path. */
async function gimpConfigFile(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const name = specString(spec, 'file_name');
  if (name.includes('..') || name.startsWith('/'))
    throw new Error(`getter 'gimp_config_file': file_name '${name}' must be a name in GIMP's config folder`);
  return homeFile(ctx, `.config/GIMP/2.10/${name}`, typeof spec.dest === 'string' ? spec.dest : name);
}

/**
 * cloud_file `{path, dest, multi?, gives?}` — the file at URL `path` saved in the cache as `dest`; its host path.
 * With `multi`, `path` and `dest` are lists and `gives` (default `[0]`) the indexes returned: one path when one is
 * given, else a list (givenIndexes / pickGiven, as vm_file). A file already in the cache is not fetched again; with
 * --downloads nothing is fetched, and a missing file is an error naming its URL.
 */
async function cloudFile(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const { paths, dests } = fileLists(spec, 'cloud_file', true);
  await mkdir(ctx.cacheDir, { recursive: true });
  const out: string[] = [];
  for (const [i, url] of paths.entries()) {
    const host = join(ctx.cacheDir, safeFileName(dests[i], `download-${i}`));
    out.push(host);
    if (existsSync(host)) continue;
    await writeFile(host, await fetchDownload(url, { downloads: ctx.downloads, signal: ctx.signal }));
  }
  return pickGiven(out, givenIndexes(spec));
}

interface TreeNode {
  type: 'directory' | 'file';
  name: string;
  children?: TreeNode[];
}

/**
 * list_directory `{path}` — the folder as a tree `{type: directory, name, children: [{type: file | directory, name,
 * children?}]}` (OSWorld's /list_directory), listed with `find` on the guest; undefined when it is no folder.
 */
async function listDirectory(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const path = specString(spec, 'path');
  const r = await ctx.env.run(
    ['find', path.replace(/\/+$/, '') || '/', '-mindepth', '1', '-printf', '%y %P\\0'],
    { shell: false, timeoutMs: 120_000 },
  );
  if (r.exitCode !== 0 && !r.stdout) return undefined;
  const root: TreeNode = {
    type: 'directory',
    name: path.replace(/\/+$/, '').split('/').pop() || '/',
    children: [],
  };
  const dirs = new Map<string, TreeNode>([['', root]]);
  const entries = r.stdout
    .split('\0')
    .filter(Boolean)
    .map((e) => ({ kind: e[0], rel: e.slice(2) }))
    .sort((a, b) => a.rel.split('/').length - b.rel.split('/').length || a.rel.localeCompare(b.rel));
  for (const { kind, rel } of entries) {
    const cut = rel.lastIndexOf('/');
    const parent = dirs.get(cut < 0 ? '' : rel.slice(0, cut));
    if (!parent) continue;
    const node: TreeNode =
      kind === 'd'
        ? { type: 'directory', name: rel.slice(cut + 1), children: [] }
        : { type: 'file', name: rel.slice(cut + 1) };
    parent.children!.push(node);
    if (kind === 'd') dirs.set(rel, node);
  }
  return root;
}

/** shortcuts_on_desktop — `{file name: content}` of the `.desktop` files in ~/Desktop. The home is `$HOME` as the
 * guest's commands see it, else OSWorld's `/home/user` (which a sandboxed local home maps). */
async function shortcutsOnDesktop(_spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const home = (await commandOutput(ctx, 'printf %s "$HOME"').catch(() => '')).trim();
  for (const base of [...new Set([home, '/home/user'])]) {
    if (!base) continue;
    const listing = await ctx.env.run(
      [
        'find',
        `${base}/Desktop`,
        '-mindepth',
        '1',
        '-maxdepth',
        '1',
        '-name',
        '*.desktop',
        '-printf',
        '%f\\0',
      ],
      { shell: false, timeoutMs: 60_000 },
    );
    const names = listing.stdout.split('\0').filter(Boolean);
    if (!names.length) continue;
    const out: Record<string, string> = {};
    for (const name of names) {
      const data = await ctx.env.getFile(`${base}/Desktop/${name}`).catch(() => undefined);
      if (data !== undefined) out[name] = data.toString('utf8');
    }
    return out;
  }
  return {};
}

/** A cell as pandas' `astype(str)` shows it: integers without a decimal point, floats with one, empty as `nan`. */
function pandasText(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'nan';
  if (typeof v === 'number') return String(v);
  if (v instanceof Date)
    return v
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '');
  if (typeof v === 'object' && v !== null && 'result' in v)
    return pandasText((v as { result: unknown }).result);
  if (typeof v === 'object' && v !== null && 'text' in v) return String((v as { text: unknown }).text);
  return String(v);
}

/**
 * content_from_vm_file `{path, file_type: xlsx, file_content: last_row}` — the guest workbook's last row of its first
 * sheet as texts (pandas' read_excel with a header row, then astype(str)). Undefined when the file is absent.
 */
async function contentFromVmFile(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const path = specString(spec, 'path');
  if (spec.file_type !== 'xlsx' || spec.file_content !== 'last_row') {
    throw new Error(
      `getter 'content_from_vm_file': only file_type 'xlsx' with file_content 'last_row' is defined (as in OSWorld)`,
    );
  }
  const host = await fetchGuestFile(ctx, path, path.split('/').pop());
  if (!host) return undefined;
  const book = await loadBook(host);
  if (typeof book === 'string') throw new Error(`getter 'content_from_vm_file': ${book}`);
  const sheet = book.worksheets[0];
  if (!sheet || sheet.rowCount < 2) throw new Error(`getter 'content_from_vm_file': ${path} has no data row`);
  const width = sheet.getRow(1).cellCount;
  const last = sheet.getRow(sheet.rowCount);
  return Array.from({ length: width }, (_, i) => pandasText(last.getCell(i + 1).value));
}

registerFamilyGetter('os', 'vm_command_error', ['commands'], vmCommandError);
registerFamilyGetter('os', 'vm_screen_size', ['screen'], vmScreenSize);
registerFamilyGetter('vlc', 'vlc_config', ['files', 'commands'], vlcConfig);
registerFamilyGetter('gimp', 'gimp_config_file', ['files', 'commands'], gimpConfigFile);
registerFamilyGetter('os', 'cloud_file', ['downloads'], cloudFile);
registerFamilyGetter('os', 'list_directory', ['commands'], listDirectory);
registerFamilyGetter('sheets', 'content_from_vm_file', ['files'], contentFromVmFile);
registerFamilyGetter('os', 'shortcuts_on_desktop', ['files', 'commands'], shortcutsOnDesktop);
