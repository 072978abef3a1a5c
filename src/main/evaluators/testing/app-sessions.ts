// Test fixtures: real GIMP and VLC writing their own config files in a sandbox home, for the getters and metrics
// that grade OSWorld's settings tasks. GIMP runs on an environment's sandbox display and is driven by keys as an
// agent would drive it, then quit with Ctrl+Q as OSWorld's postconfig does; VLC changes its settings through its
// own Lua configuration API (what its preference dialogs call) and saves vlcrc on exit.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Environment } from '../../env/environment';
import type { LocalEnvironment } from '../../env/local/local-environment';
import { removeTree } from '../../env/remove-tree';
import { poll } from '../../env/local/testing/poll';

const has = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const isRoot = process.getuid?.() === 0;

export const hasGimp = has('gimp') && has('convert');
export const hasVlc = has('vlc') && (!isRoot || has('setpriv'));
/** VLC's Qt interface plugin, without which vlcrc has no [qt] section (Debian's vlc-plugin-qt). */
export const hasVlcQt = [
  '/usr/lib/x86_64-linux-gnu/vlc/plugins/gui/libqt_plugin.so',
  '/usr/lib/aarch64-linux-gnu/vlc/plugins/gui/libqt_plugin.so',
].some(existsSync);

/** The ids of the visible windows whose title matches `pattern` (xdotool's regular expression) on the display. */
export function windowsNamed(env: LocalEnvironment, pattern: string): string[] {
  const r = spawnSync('xdotool', ['search', '--onlyvisible', '--name', pattern], {
    env: { ...process.env, ...env.displayEnv },
    encoding: 'utf8',
  });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean) : [];
}

function activate(env: LocalEnvironment, id: string): void {
  spawnSync('xdotool', ['windowactivate', '--sync', id], {
    env: { ...process.env, ...env.displayEnv },
    timeout: 10_000,
  });
}

/** Host path → modification time in ms, or 0 when absent. */
const mtime = (p: string): number => (existsSync(p) ? statSync(p).mtimeMs : 0);

export interface GimpSession {
  /** Activates the image window and performs `keys` on it (one `press` or `hotkey` action each). */
  keys(...keys: string[][]): Promise<void>;
  /** Waits for a visible window whose title matches `pattern`, activates it and gives its id. */
  window(pattern: string, ms?: number): Promise<string>;
  /** Waits until no visible window's title matches `pattern`. */
  gone(pattern: string, ms?: number): Promise<void>;
  /** Ctrl+Q; discards unsaved changes (Ctrl+D in "Quit GIMP") when asked; waits until GIMP has rewritten
   * sessionrc (it does on every exit; gimprc only when a setting changed since it was last saved) and has ended. */
  quit(): Promise<void>;
}

/** GIMP's config folder in the environment's home (host path). */
export const gimpConfigDir = (env: LocalEnvironment): string =>
  join(env.home.root, '.config', 'GIMP', '2.10');

/**
 * Starts real GIMP in `env` (inside its sandbox, as tasks start it) on a 320×240 image ImageMagick made at the
 * guest's ~/pic.png; resolves once the image window is up (the first start in a fresh home queries the plug-ins).
 */
export async function startGimp(env: LocalEnvironment): Promise<GimpSession> {
  const tmp = mkdtempSync(join(tmpdir(), 'proctor-gimp-pic-'));
  try {
    execFileSync('convert', ['-size', '320x240', 'xc:skyblue', `PNG24:${join(tmp, 'pic.png')}`]);
    await env.putFile('/home/user/pic.png', readFileSync(join(tmp, 'pic.png')));
  } finally {
    await removeTree(tmp);
  }
  await env.launch(['gimp', '--no-splash', '/home/user/pic.png']);
  const session: GimpSession = {
    async window(pattern, ms = 120_000) {
      const id = await poll(`a window named /${pattern}/`, ms, () => windowsNamed(env, pattern)[0]);
      activate(env, id);
      return id;
    },
    async gone(pattern, ms = 30_000) {
      await poll(`the window named /${pattern}/ to close`, ms, () =>
        windowsNamed(env, pattern).length === 0 ? true : undefined,
      );
    },
    async keys(...keys) {
      await session.window('pic.*GIMP$');
      for (const k of keys)
        await env.perform([k.length === 1 ? { type: 'press', keys: k } : { type: 'hotkey', keys: k }]);
    },
    async quit() {
      const sessionrc = join(gimpConfigDir(env), 'sessionrc');
      const before = mtime(sessionrc);
      await session.keys(['ctrl', 'q']);
      // An image with changes asks first; an unchanged one quits at once.
      await poll('GIMP to quit', 60_000, async () => {
        const ask = windowsNamed(env, '^Quit GIMP$')[0];
        if (ask) {
          activate(env, ask);
          await env.perform([{ type: 'hotkey', keys: ['ctrl', 'd'] }]);
        }
        return mtime(sessionrc) > before && windowsNamed(env, 'GIMP').length === 0 ? true : undefined;
      });
      // and its process has ended (a second GIMP would hand its image to a running one)
      await poll('the GIMP process to end', 30_000, async () =>
        (await env.run(['pgrep', '-x', 'gimp-2.10'], { shell: false })).exitCode === 1 ? true : undefined,
      );
    },
  };
  await session.window('pic.*GIMP$', 180_000);
  return session;
}

/** A setting VLC's Lua `vlc.config.set` takes: a string, integer or boolean. */
export type VlcSetting = string | number | boolean;

function luaValue(name: string, v: VlcSetting): string {
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  if (typeof v === 'string' && /^[\w/ +.;:-]*$/.test(v)) return `"${v}"`;
  throw new Error(`VLC setting '${name}': ${JSON.stringify(v)} is no simple string, integer or boolean`);
}

/**
 * Runs real VLC (no interface but a Lua one of the test's, as nobody when the test runs as root) in `env`'s home:
 * VLC sets `settings` through its configuration API and writes ~/.config/vlc/vlcrc as it exits. No settings:
 * `--reset-config`, so VLC writes its defaults.
 */
export async function vlcWritesConfig(
  env: Environment & { home: { root: string } },
  settings: Record<string, VlcSetting>,
): Promise<void> {
  const root = env.home.root;
  const intf = join(root, '.local', 'share', 'vlc', 'lua', 'intf');
  mkdirSync(intf, { recursive: true });
  mkdirSync(join(root, '.config', 'vlc'), { recursive: true });
  const lines = Object.entries(settings).map(([k, v]) => {
    if (!/^[a-z0-9-]+$/.test(k)) throw new Error(`VLC setting name '${k}' is not an option name`);
    return `vlc.config.set("${k}", ${luaValue(k, v)})`;
  });
  await env.putFile(
    '/home/user/.local/share/vlc/lua/intf/proctor_settings.lua',
    Buffer.from([...lines, 'vlc.misc.quit()', ''].join('\n')),
  );
  // nobody writes VLC's folders in the test's home
  for (const d of [
    root,
    join(root, '.config'),
    join(root, '.config', 'vlc'),
    join(root, '.local'),
    join(root, '.local', 'share'),
    join(root, '.local', 'share', 'vlc'),
  ])
    chmodSync(d, 0o777);
  const vlc = [
    'vlc',
    '-I',
    'luaintf',
    '--lua-intf',
    'proctor_settings',
    ...(lines.length ? [] : ['--reset-config']),
  ];
  const r = await env.run(
    isRoot ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups', ...vlc] : vlc,
    { shell: false, timeoutMs: 60_000 },
  );
  if (r.timedOut || !existsSync(join(root, '.config', 'vlc', 'vlcrc')))
    throw new Error(`VLC wrote no vlcrc (exit ${r.exitCode}): ${r.stderr.slice(-2000)}`);
}
