// The app getters over the local environments: a real VLC (cvlc with its HTTP interface on 127.0.0.1) playing a
// file ffmpeg made, xdg-mime's defaults in the sandbox home, and the VS Code palette keys typed on a sandbox
// display into a real Chromium page standing for VS Code's palette.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createShellEnvironment, type ShellEnvironment } from '../../env/local/shell-environment';
import { createLocalEnvironment, type LocalEnvironment } from '../../env/local/local-environment';
import { CHROMIUM_FLAGS } from '../../env/local/browser';
import { waitFor } from '../../env/local/testing/page-server';
import { poll } from '../../env/local/testing/poll';
import { getterNeedsOf, getters, metrics } from '../catalog';
import type { GradingContext } from '../getter';
import type { Task } from '../../../shared/task';
import { removeTree } from '../../env/remove-tree';

const has = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const isRoot = process.getuid?.() === 0;

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('OSWorld app getters over the local shell environment', () => {
  let env: ShellEnvironment;
  let ctx: GradingContext;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-app-getters-'));
    env = await createShellEnvironment();
    ctx = { env, task: { dir, file: join(dir, 't.json') } as Task, cacheDir: join(dir, 'cache') };
  });
  afterAll(async () => {
    await env?.close();
    await removeTree(dir);
  });

  it('are in their families with their needs', () => {
    expect(getterNeedsOf('vlc_playing_info')).toEqual({ family: 'vlc', needs: ['commands'] });
    expect(getterNeedsOf('default_video_player')).toEqual({ family: 'os', needs: ['commands'] });
    expect(getterNeedsOf('vscode_config')?.family).toBe('vscode');
  });

  it.skipIf(!has('cvlc') || !has('ffmpeg') || (isRoot && !has('setpriv')))(
    'vlc_playing_info reads what a real VLC plays and feeds is_vlc_playing',
    async () => {
      // The guest's /tmp/tone.mp3, readable by nobody (the sandbox folders are the test's own).
      const song = join(env.home.tmp, 'tone.mp3');
      execFileSync('ffmpeg', [
        '-nostdin',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:duration=5',
        '-metadata',
        'title=Tone',
        song,
      ]);
      for (const p of [env.home.root, env.home.tmp]) chmodSync(p, 0o755);
      chmodSync(song, 0o644);
      const port = await freePort();
      const vlc = [
        'cvlc',
        '-I',
        'http',
        '--http-host',
        '127.0.0.1',
        '--http-port',
        String(port),
        '--http-password',
        'password',
        '--no-video',
        '--aout',
        'dummy',
        '--loop',
        '/tmp/tone.mp3',
      ];
      await env.launch(
        isRoot ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups', ...vlc] : vlc,
      );
      const spec = { type: 'vlc_playing_info', dest: 'status.xml', port };
      // The getter takes the first status VLC answers; poll until VLC has started playing.
      let got: unknown;
      let xml = '';
      for (let i = 0; i < 30 && !xml.includes('<state>playing</state>'); i++) {
        got = await getters.require('vlc_playing_info')(spec, ctx);
        xml = typeof got === 'string' ? readFileSync(got, 'utf8') : '';
        if (!xml.includes('tone.mp3')) await new Promise((r) => setTimeout(r, 500));
      }
      expect(xml, xml).toContain('<state>playing</state>');
      expect(xml).toContain('tone.mp3');
      expect(
        (await metrics.require('is_vlc_playing')(got, { type: 'file_name', file_name: 'tone.mp3' }, {}, ctx))
          .score,
      ).toBe(1);
      expect(
        (await metrics.require('is_vlc_playing')(got, { type: 'file_name', file_name: 'other.mp3' }, {}, ctx))
          .score,
      ).toBe(0);
      // No VLC on a port: five rounds, then undefined (the metric then scores 0).
      expect(
        await getters.require('vlc_playing_info')({ ...spec, port: await freePort() }, ctx),
      ).toBeUndefined();
    },
    120_000,
  );

  it.skipIf(!has('xdg-mime'))(
    'default_video_player gives the app xdg-mime names for most video types',
    async () => {
      for (const app of ['myplayer', 'otherplayer']) {
        const desktop = `[Desktop Entry]\nType=Application\nName=${app}\nExec=true %U\nMimeType=video/mp4;video/webm;\n`;
        await env.putFile(`/home/user/.local/share/applications/${app}.desktop`, Buffer.from(desktop));
      }
      const many = [
        'mp4',
        'webm',
        'x-matroska',
        'quicktime',
        'x-msvideo',
        'mpeg',
        'ogg',
        'x-flv',
        'x-ms-wmv',
        '3gpp',
      ].map((t) => `video/${t}`);
      await env.run(['xdg-mime', 'default', 'myplayer.desktop', ...many], { shell: false });
      expect(await getters.require('default_video_player')({ type: 'default_video_player' }, ctx)).toBe(
        'myplayer.desktop\n',
      );
      // Most types move to the other player: the majority decides.
      await env.run(['xdg-mime', 'default', 'otherplayer.desktop', ...many.slice(3)], { shell: false });
      expect(await getters.require('default_video_player')({ type: 'default_video_player' }, ctx)).toBe(
        'otherplayer.desktop\n',
      );
    },
    60_000,
  );
});

/** A page standing for VS Code's command palette: Ctrl+Shift+P opens it (the page keeps the keys from the browser),
 * Enter runs what was typed — here, reports it to the test's server. */
const PALETTE = `<!doctype html><html><body style="margin:0"><input id="palette" style="position:absolute;left:0;top:0;width:600px;height:40px;display:none">
<script>
const box = document.getElementById('palette');
const post = (what) => fetch('/ran', { method: 'POST', body: what });
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey && e.shiftKey && e.key.toLowerCase() === 'p') { e.preventDefault(); box.style.display = 'block'; box.value = ''; box.focus(); }
  else if (e.key === 'Enter' && document.activeElement === box) { post(box.value); box.style.display = 'none'; }
});
window.addEventListener('load', () => fetch('/ready', { method: 'POST' }));
document.addEventListener('mousedown', () => document.hasFocus() && fetch('/focused', { method: 'POST' }));
</script></body></html>`;

async function servePalette(): Promise<{
  url: string;
  ran: string[];
  ready: () => boolean;
  focused: () => boolean;
  close: () => Promise<void>;
}> {
  const ran: string[] = [];
  let ready = false;
  let focused = false;
  const server = createHttpServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      if (req.url === '/ran') ran.push(body);
      if (req.url === '/ready') ready = true;
      if (req.url === '/focused') focused = true;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(req.method === 'GET' ? PALETTE : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    ran,
    ready: () => ready,
    focused: () => focused,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const missing = ['Xvfb', 'openbox', 'xdotool', 'chromium'].filter((t) => !has(t));

describe.skipIf(missing.length > 0)('vscode_config on a sandbox display', () => {
  let env: LocalEnvironment;
  let page: Awaited<ReturnType<typeof servePalette>>;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'proctor-vscode-getter-'));
    env = await createLocalEnvironment({ width: 1024, height: 768 });
    page = await servePalette();
    await env.launch([
      'chromium',
      ...CHROMIUM_FLAGS,
      '--kiosk',
      '--user-data-dir=/tmp/chromium-profile',
      page.url,
    ]);
    await waitFor(() => page.ready(), 90_000, 'the palette page in Chromium kiosk');
  }, 120_000);
  afterAll(async () => {
    await env?.close();
    await page?.close();
    await removeTree(dir);
  });

  it('runs the command from the palette in the focused window, then copies the file', async () => {
    // The getter types into the focused window, as OSWorld's does: the page must have the keyboard first (under
    // load Chromium's window takes a moment to, and a Ctrl+Shift+P before that is Chromium's own print shortcut).
    await poll('the palette page to take the keyboard', 30_000, async () => {
      await env.perform([{ type: 'click', x: 500, y: 400 }]);
      await new Promise((r) => setTimeout(r, 300));
      return page.focused() ? true : undefined;
    });
    await env.putFile('/home/user/.config/Code/User/settings.json', Buffer.from('{"editor.fontSize": 14}'));
    const ctx: GradingContext = {
      env,
      task: { dir, file: join(dir, 't.json') } as Task,
      cacheDir: join(dir, 'cache'),
    };
    const spec = {
      type: 'vscode_config',
      vscode_extension_command: 'Preferences: Open Settings',
      path: '/home/user/.config/Code/User/settings.json',
      dest: 'settings.json',
    };
    const got = await getters.require('vscode_config')(spec, ctx);
    expect(readFileSync(got as string, 'utf8')).toBe('{"editor.fontSize": 14}');
    await waitFor(() => page.ran.length > 0, 20_000, 'the palette command to run');
    expect(page.ran).toEqual(['Preferences: Open Settings']);
    expect(
      await getters.require('vscode_config')({ ...spec, path: '/home/user/missing.json' }, ctx),
    ).toBeUndefined();
    await waitFor(() => page.ran.length > 1, 20_000, 'the second palette command');
    expect(page.ran).toEqual(['Preferences: Open Settings', 'Preferences: Open Settings']);
  }, 120_000);
});
