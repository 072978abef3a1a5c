// OSWorld's getters for desktop apps' state (desktop_env/evaluators/getters/vlc.py and vscode.py): what VLC is
// playing (its HTTP interface's status.xml), the default video player (xdg-mime), and a VS Code file after
// running a command-palette command. All reach the machine only through the Environment: VLC's HTTP interface
// is asked from the guest itself (curl, else Python), so it works locally and over OSWorld's protocol alike.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GetterSpec } from '../../../shared/task';
import { registerFamilyGetter } from '../family';
import { specString, type GradingContext } from '../getter';
import { safeFileName } from '../task-files';
import { fetchGuestFile } from './file';
import { commandOutput } from './general';
import { sleepUnlessAborted } from '../../sleep';

/** OSWorld's VLC HTTP port (DesktopEnv's vlc_port) and the password its VM image sets. */
const VLC_PORT = 8080;
const VLC_PASSWORD = 'password';

/** Prints the body of GET $1 with basic auth (empty user, password $2) when it answers 200; fails otherwise. */
const FETCH_STATUS = [
  'if command -v curl >/dev/null 2>&1; then exec curl -sf --max-time 10 -u ":$2" "$1"; fi',
  "exec python3 -c 'import base64,sys,urllib.request as u",
  'r=u.Request(sys.argv[1],headers={"Authorization":"Basic "+base64.b64encode((":"+sys.argv[2]).encode()).decode()})',
  'sys.stdout.buffer.write(u.urlopen(r,timeout=10).read())\' "$1" "$2"',
].join('\n');

const sleep = sleepUnlessAborted;

/**
 * vlc_playing_info `{dest}` — VLC's /requests/status.xml from its HTTP interface on the guest (port 8080), saved in
 * the cache as `dest`; its host path, or undefined when VLC does not answer. As OSWorld: the passwords tried are
 * $OSWORLD_VLC_PASSWORD (when set) then `password`, five rounds one second apart. Proctor extensions: `port` and
 * `password` in the spec.
 */
async function vlcPlayingInfo(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const port =
    typeof spec.port === 'number' && Number.isInteger(spec.port) && spec.port > 0 && spec.port < 65536
      ? spec.port
      : VLC_PORT;
  const passwords = [
    ...new Set(
      [
        typeof spec.password === 'string' ? spec.password : process.env.OSWORLD_VLC_PASSWORD,
        VLC_PASSWORD,
      ].filter((p): p is string => !!p),
    ),
  ];
  const url = `http://localhost:${port}/requests/status.xml`;
  for (let attempt = 0; attempt < 5 && !ctx.signal?.aborted; attempt++) {
    for (const password of passwords) {
      const r = await ctx.env.run(['sh', '-c', FETCH_STATUS, 'sh', url, password], {
        shell: false,
        timeoutMs: 30_000,
      });
      if (r.exitCode === 0 && !r.timedOut) {
        await mkdir(ctx.cacheDir, { recursive: true });
        const host = join(
          ctx.cacheDir,
          safeFileName(typeof spec.dest === 'string' ? spec.dest : undefined, 'status.xml'),
        );
        await writeFile(host, r.stdout);
        return host;
      }
    }
    if (attempt < 4) await sleep(1000, ctx.signal);
  }
  return undefined;
}

/** The video MIME subtypes OSWorld asks xdg-mime about, in its order: each twice (its list has the duplicates),
 * but x-ogm+ogg once. The repeats only weigh the counts. */
const twice = (types: string[]) => types.flatMap((t) => [t, t]);
const VIDEO_TYPES = [
  ...twice([
    '3gp',
    '3gpp',
    '3gpp2',
    'avi',
    'divx',
    'dv',
    'fli',
    'flv',
    'mp2t',
    'mp4',
    'mp4v-es',
    'mpeg',
    'mpeg-system',
    'msvideo',
    'ogg',
    'quicktime',
    'vnd.divx',
    'vnd.mpegurl',
    'vnd.rn-realvideo',
    'webm',
    'x-anim',
    'x-avi',
    'x-flc',
    'x-fli',
    'x-flv',
    'x-m4v',
    'x-matroska',
    'x-mpeg',
    'x-mpeg-system',
    'x-mpeg2',
    'x-ms-asf',
    'x-ms-asf-plugin',
    'x-ms-asx',
    'x-ms-wm',
    'x-ms-wmv',
    'x-ms-wmx',
    'x-ms-wvx',
    'x-msvideo',
    'x-nsv',
    'x-ogm',
  ]),
  'x-ogm+ogg',
  ...twice(['x-theora', 'x-theora+ogg']),
];

/**
 * default_video_player — the answer of `xdg-mime query default video/<type>` most often given over OSWorld's video
 * types (first seen wins a tie), as the command printed it (trailing newline kept, as OSWorld's /execute output);
 * `unknown` when no type has one. The queries run in one guest command, each answer ended by a NUL.
 */
async function defaultVideoPlayer(_spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const script = 'for t in "$@"; do xdg-mime query default "video/$t" 2>/dev/null; printf "\\0"; done';
  const out = await commandOutput(ctx, ['sh', '-c', script, 'sh', ...VIDEO_TYPES], false);
  const counts = new Map<string, number>();
  for (const app of out.split('\0').slice(0, VIDEO_TYPES.length))
    if (app) counts.set(app, (counts.get(app) ?? 0) + 1);
  let best: [string, number] | undefined;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return best ? best[0] : 'unknown';
}

/**
 * vscode_config `{vscode_extension_command, path, dest}` — runs a command from VS Code's palette (Ctrl+Shift+P, the
 * command typed, Enter, as OSWorld replays it on Linux), waits a second, then copies the guest file `path` to the
 * cache as `dest`; its host path, or undefined when it does not exist.
 */
async function vscodeConfig(spec: GetterSpec, ctx: GradingContext): Promise<unknown> {
  const command = specString(spec, 'vscode_extension_command');
  const path = specString(spec, 'path');
  await ctx.env.perform([
    { type: 'hotkey', keys: ['ctrl', 'shift', 'p'] },
    { type: 'write', text: command },
    { type: 'press', keys: ['enter'] },
  ]);
  await sleep(1000, ctx.signal);
  return fetchGuestFile(ctx, path, typeof spec.dest === 'string' ? spec.dest : undefined);
}

registerFamilyGetter('vlc', 'vlc_playing_info', ['commands'], vlcPlayingInfo);
registerFamilyGetter('os', 'default_video_player', ['commands'], defaultVideoPlayer);
registerFamilyGetter('vscode', 'vscode_config', ['screen', 'files'], vscodeConfig);
