// OSWorld's getters on a REMOTE environment: one `proctor env serve` server (in-process, on a sandbox display) and an
// `osworld://` client connected to it. Each getter is asked through the client — everything it does goes over the
// protocol — and its answer is compared with what the same getter gives on the server's own local environment, or
// with the known truth (the bytes put there, the size xdotool gave, the text the terminal printed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '../../../shared/task';
import { createLocalEnvironment, type LocalEnvironment } from '../../env/local';
import { hasDisplayTools, hasMousepad } from '../../env/local/testing/apps';
import { createOsworldEnvironmentFromSpec, type OsworldEnvironment } from '../../env/osworld';
import { freePort } from '../../free-port';
import { startGuestServer, type GuestServer } from '../../guest-server';
import { getters, metrics } from '../catalog';
import type { GradingContext } from '../getter';
import { hasImpress, mediaDeck } from '../testing/impress';
import { chromium, eventually, setChromePrefs } from './chrome-testkit';
import { removeTree } from '../../env/remove-tree';
import { poll } from '../../env/local/testing/poll';

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const canRun = hasDisplayTools && hasMousepad;

const until = <T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> =>
  poll(what, ms, () => probe().catch(() => undefined), 250);

const PAGE = `<!doctype html><title>Remote flights</title>
<div class="date"> Fri, Nov 27, 2026 </div><span class="item">Miles</span><span class="item">Cash</span>
<p>Departure city: <b>Seattle</b></p><input id="q" value=" Paris ">`;

describe.skipIf(!canRun)(
  'OSWorld getters over the osworld protocol, against proctor env serve on a sandbox display',
  () => {
    let dir: string;
    let guest: GuestServer;
    let local: LocalEnvironment;
    let remote: OsworldEnvironment;
    let remoteCtx: GradingContext;
    let localCtx: GradingContext;
    let pages: Server;
    let pageBase: string;
    const task = (): Task => ({ dir, file: join(dir, 't.json') }) as Task;
    const get = (ctx: GradingContext, spec: Record<string, unknown>) =>
      getters.require(String(spec.type))({ type: String(spec.type), ...spec }, ctx);
    /** The getter's answer through the client and on the server's own environment. */
    const both = async (spec: Record<string, unknown>) => ({
      remote: await get(remoteCtx, spec),
      local: await get(localCtx, spec),
    });
    const windowOf = (cls: string) =>
      until(
        `a ${cls} window`,
        async () =>
          (await remote.run(['xdotool', 'search', '--onlyvisible', '--class', cls])).stdout
            .trim()
            .split('\n')
            .filter(Boolean)[0],
      );

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'proctor-remote-getters-'));
      pages = createServer((_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE),
      );
      await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
      pageBase = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
      guest = await startGuestServer({
        createEnvironment: () => createLocalEnvironment({ width: 1024, height: 768 }),
        port: 0,
        openWaitMs: 8000,
      });
      local = await guest.environment();
      const devtools = `http://127.0.0.1:${await freePort()}`;
      remote = await createOsworldEnvironmentFromSpec(
        `osworld://127.0.0.1:${guest.port}?browser=${encodeURIComponent(devtools)}`,
      );
      remoteCtx = { env: remote, task: task(), cacheDir: join(dir, 'cache-remote') };
      localCtx = { env: local, task: task(), cacheDir: join(dir, 'cache-local') };
    }, 120_000);

    afterAll(async () => {
      await remote?.close();
      await guest?.close();
      await new Promise((r) => pages?.close(r));
      if (dir) await removeTree(dir);
    });

    it('is an osworld client of a Proctor server', () => {
      expect(remote.kind).toBe('osworld');
      expect(remote.proctorInfo?.proctor).toBe(true);
    });

    it('vm_file and vm_command_line: the same bytes and output as on the server', async () => {
      const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
      await remote.putFile('/home/user/Desktop/data.bin', bytes);
      const file = await both({ type: 'vm_file', path: '/home/user/Desktop/data.bin', dest: 'data.bin' });
      expect(readFileSync(file.remote as string).equals(bytes)).toBe(true);
      expect(readFileSync(file.local as string).equals(bytes)).toBe(true);
      expect(
        (await both({ type: 'vm_file', path: '/home/user/Desktop/none.bin', dest: 'none.bin' })).remote,
      ).toBeUndefined();
      const line = await both({
        type: 'vm_command_line',
        command: 'echo "$HOME"; wc -c < ~/Desktop/data.bin',
        shell: true,
      });
      expect(line.remote).toBe('/home/user\n256\n');
      expect(line.remote).toBe(line.local);
      const argv = await both({ type: 'vm_command_line', command: ['printf', '%s|', 'a b', "it's"] });
      expect(argv.remote).toBe("a b|it's|");
      expect(argv.remote).toBe(argv.local);
      const err = await both({ type: 'vm_command_error', command: 'echo oops >&2', shell: true });
      expect(err.remote).toBe('oops\n');
      expect(err.remote).toBe(err.local);
    });

    it('vm_window_size reads the size xdotool gave a mousepad window', async () => {
      await remote.putFile('/home/user/notes.txt', Buffer.from('Proctor was here\n'));
      await remote.launch(['mousepad', '/home/user/notes.txt']);
      const id = await windowOf('mousepad');
      await remote.run(['xdotool', 'windowsize', '--sync', id, '500', '300']);
      const size = await until('the resize', async () => {
        const s = (await get(remoteCtx, { type: 'vm_window_size', app_class_name: 'MOUSEPAD' })) as
          { width: number } | undefined;
        return s?.width === 500 ? s : undefined;
      });
      expect(size).toEqual({ width: 500, height: 300 });
      expect(await get(localCtx, { type: 'vm_window_size', app_class_name: 'MOUSEPAD' })).toEqual(size);
      expect(await both({ type: 'vm_window_size', app_class_name: 'no-such-app' })).toEqual({
        remote: undefined,
        local: undefined,
      });
    }, 60_000);

    it('accessibility_tree gives XML that check_accessibility_tree scores as it scores the local tree', async () => {
      const xml = await until('mousepad in the remote tree', async () => {
        const x = (await get(remoteCtx, { type: 'accessibility_tree' })) as string;
        return x.includes('Proctor was here') ? x : undefined;
      });
      const localXml = (await get(localCtx, { type: 'accessibility_tree' })) as string;
      expect(xml.startsWith('<desktop-frame ')).toBe(true);
      const check = metrics.require('check_accessibility_tree');
      const score = async (x: string, rules: unknown[]) => (await check(x, rules, {}, remoteCtx)).score;
      const cases: [unknown[], number][] = [
        [
          [
            {
              selectors: ['application[name=mousepad] frame[st|active=true] text'],
              text: 'Proctor was here\n',
              exact: true,
            },
          ],
          1,
        ],
        [
          [
            {
              xpath: "//application[@name='mousepad']//text[@st:editable='true']",
              text: 'Proctor was here\n',
              exact: true,
            },
          ],
          1,
        ],
        [
          [
            {
              xpath:
                "//application[@name='mousepad']//frame[@st:active='true'][contains(@name, 'notes.txt')]",
            },
          ],
          1,
        ],
        [
          [
            {
              selectors: ['application[name=mousepad] frame[st|active=true] text'],
              text: 'Proctor was not here',
              exact: true,
            },
          ],
          0,
        ],
        [[{ selectors: ['application[name=gedit] text'] }], 0],
      ];
      for (const [rules, want] of cases) {
        expect(await score(xml, rules), JSON.stringify(rules)).toBe(want);
        expect(await score(localXml, rules), JSON.stringify(rules)).toBe(want);
      }
      // the element the rules find is written alike on both sides (position, size, states, text)
      const frameOf = (x: string) => /<frame [^>]*name="[^"]*notes\.txt[^"]*"[^>]*>/.exec(x)?.[0];
      expect(frameOf(xml)).toBeDefined();
      expect(frameOf(xml)).toBe(frameOf(localXml));
    }, 60_000);

    it.skipIf(!has('sakura'))(
      'vm_terminal_output reads the focused terminal of the active window, and none once another window is active',
      async () => {
        await remote.launch(['sakura', '-x', 'sh -c "echo proctor-remote-marker; exec sh"']);
        const id = await windowOf('sakura');
        await remote.activateWindow('sakura', { byClass: true });
        const out = await until('the terminal text', async () => {
          const t = await get(remoteCtx, { type: 'vm_terminal_output' });
          return typeof t === 'string' && t.includes('proctor-remote-marker') ? t : undefined;
        });
        expect(out.split('\n')[0]).toBe('proctor-remote-marker');
        expect(out).toBe(out.trimEnd());
        expect(await get(localCtx, { type: 'vm_terminal_output' })).toBe(out);
        // mousepad in front: no focused terminal in the active frame, on either side
        await remote.activateWindow('mousepad', { byClass: true });
        await until('sakura to lose focus locally', async () =>
          (await get(localCtx, { type: 'vm_terminal_output' })) === undefined ? true : undefined,
        );
        expect(await get(remoteCtx, { type: 'vm_terminal_output' })).toBeUndefined();
        await remote.run(['xdotool', 'windowclose', id]);
      },
      90_000,
    );

    it.skipIf(!has('gsettings') || !has('convert'))(
      'vm_wallpaper copies the picture gsettings names; an empty file when it is gone',
      async () => {
        const png = execFileSync('convert', ['-size', '64x48', 'gradient:red-blue', 'png:-']);
        await remote.putFile('/home/user/Pictures/wall.png', png);
        await remote.run([
          'gsettings',
          'set',
          'org.gnome.desktop.background',
          'picture-uri',
          'file:///home/user/Pictures/wall.png',
        ]);
        const got = await both({ type: 'vm_wallpaper', dest: 'wallpaper.png' });
        expect(readFileSync(got.remote as string).equals(png)).toBe(true);
        expect(readFileSync(got.local as string).equals(png)).toBe(true);
        await remote.run([
          'gsettings',
          'set',
          'org.gnome.desktop.background',
          'picture-uri',
          'file:///home/user/Pictures/gone.png',
        ]);
        expect(
          readFileSync((await get(remoteCtx, { type: 'vm_wallpaper', dest: 'wallpaper2.png' })) as string)
            .length,
        ).toBe(0);
      },
      60_000,
    );

    it.skipIf(!has('xdg-mime'))(
      'default_video_player gives the app xdg-mime names for most video types',
      async () => {
        const desktop =
          '[Desktop Entry]\nType=Application\nName=remoteplayer\nExec=true %U\nMimeType=video/mp4;video/webm;\n';
        await remote.putFile(
          '/home/user/.local/share/applications/remoteplayer.desktop',
          Buffer.from(desktop),
        );
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
        await remote.run(['xdg-mime', 'default', 'remoteplayer.desktop', ...many], { shell: false });
        expect(await both({ type: 'default_video_player' })).toEqual({
          remote: 'remoteplayer.desktop\n',
          local: 'remoteplayer.desktop\n',
        });
      },
      60_000,
    );

    it('list_directory gives the same folder tree', async () => {
      await remote.putFile('/home/user/Pictures/trip/a.jpg', Buffer.from('x'));
      await remote.putFile('/home/user/Pictures/trip/sub/b.jpg', Buffer.from('y'));
      const tree = await both({ type: 'list_directory', path: '/home/user/Pictures/trip' });
      expect(tree.remote).toEqual({
        type: 'directory',
        name: 'trip',
        children: [
          { type: 'file', name: 'a.jpg' },
          { type: 'directory', name: 'sub', children: [{ type: 'file', name: 'b.jpg' }] },
        ],
      });
      expect(tree.remote).toEqual(tree.local);
      expect(
        (await both({ type: 'list_directory', path: '/home/user/Pictures/nowhere' })).remote,
      ).toBeUndefined();
    });

    it('vm_screen_size, shortcuts_on_desktop, vlc_config and gimp_config_file read the same guest', async () => {
      expect(await both({ type: 'vm_screen_size' })).toEqual({
        remote: { width: 1024, height: 768 },
        local: { width: 1024, height: 768 },
      });
      const shortcut = '[Desktop Entry]\nName=Mail\nType=Application\nExec=true\n';
      await remote.putFile('/home/user/Desktop/mail.desktop', Buffer.from(shortcut));
      expect(await both({ type: 'shortcuts_on_desktop' })).toEqual({
        remote: { 'mail.desktop': shortcut },
        local: { 'mail.desktop': shortcut },
      });
      await remote.putFile('/home/user/.config/vlc/vlcrc', Buffer.from('[qt]\nqt-minimal-view=1\n'));
      await remote.putFile(
        '/home/user/.config/GIMP/2.10/sessionrc',
        Buffer.from('(session-info "toolbox")\n'),
      );
      for (const spec of [
        { type: 'vlc_config', dest: 'vlcrc' },
        { type: 'gimp_config_file', file_name: 'sessionrc', dest: 'sessionrc' },
      ]) {
        const got = await both(spec);
        expect(readFileSync(got.remote as string, 'utf8'), spec.type).toBe(
          readFileSync(got.local as string, 'utf8'),
        );
      }
      expect(
        readFileSync((await get(remoteCtx, { type: 'vlc_config', dest: 'vlcrc2' })) as string, 'utf8'),
      ).toBe('[qt]\nqt-minimal-view=1\n');
    });

    it.skipIf(!has('cvlc') || !has('ffmpeg'))(
      'vlc_playing_info asks the guest VLC what it plays',
      async () => {
        // (VLC runs on until the server closes, which ends every process of the episode)
        const song = execFileSync('ffmpeg', [
          '-nostdin',
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          'sine=frequency=440:duration=5',
          '-metadata',
          'title=Tone',
          '-f',
          'mp3',
          '-',
        ]);
        await remote.putFile('/tmp/remote-tone.mp3', song);
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
          '/tmp/remote-tone.mp3',
        ];
        // VLC will not run as root: a guest whose commands run as root starts it as nobody
        const root = (await remote.run('id -u')).stdout.trim() === '0';
        await remote.launch(
          root ? ['setpriv', '--reuid', '65534', '--regid', '65534', '--clear-groups', ...vlc] : vlc,
        );
        const spec = { type: 'vlc_playing_info', dest: 'status.xml', port };
        const xml = await until('VLC to play', async () => {
          const got = await get(remoteCtx, spec);
          const text = typeof got === 'string' ? readFileSync(got, 'utf8') : '';
          return text.includes('<state>playing</state>') && text.includes('remote-tone.mp3')
            ? got
            : undefined;
        });
        expect(
          (
            await metrics.require('is_vlc_playing')(
              xml,
              { type: 'file_name', file_name: 'remote-tone.mp3' },
              {},
              remoteCtx,
            )
          ).score,
        ).toBe(1);
        const localXml = readFileSync((await get(localCtx, spec)) as string, 'utf8');
        expect(localXml).toContain('remote-tone.mp3');
      },
      120_000,
    );

    it.skipIf(!has('xterm'))(
      'vscode_config types the command into the focused window through the protocol, then copies the file',
      async () => {
        // a terminal stands for VS Code's palette: what the keys type lands in a file (Ctrl+Shift+P as ^P)
        await remote.launch(['xterm', '-title', 'Palette', '-e', 'sh', '-c', 'cat > ~/palette.txt']);
        await until('the terminal', async () =>
          (await remote.run(['xdotool', 'search', '--onlyvisible', '--name', '^Palette$'])).exitCode === 0
            ? true
            : undefined,
        );
        await remote.activateWindow('Palette', { strict: true });
        await remote.putFile(
          '/home/user/.config/Code/User/settings.json',
          Buffer.from('{"editor.fontSize": 14}'),
        );
        const spec = {
          type: 'vscode_config',
          vscode_extension_command: 'Preferences: Open Settings',
          path: '/home/user/.config/Code/User/settings.json',
          dest: 'settings.json',
        };
        const typed = async (lines: number) =>
          until(
            'the typed command',
            async () => {
              const text = (await remote.getFile('/home/user/palette.txt'))?.toString('utf8') ?? '';
              return text.split('\n').length > lines ? text : undefined;
            },
            20_000,
          );
        expect(readFileSync((await get(remoteCtx, spec)) as string, 'utf8')).toBe('{"editor.fontSize": 14}');
        expect(await typed(1)).toBe('\x10Preferences: Open Settings\n');
        expect(readFileSync((await get(localCtx, spec)) as string, 'utf8')).toBe('{"editor.fontSize": 14}');
        expect(await typed(2)).toBe('\x10Preferences: Open Settings\n'.repeat(2));
        expect(await get(remoteCtx, { ...spec, path: '/home/user/missing.json' })).toBeUndefined();
        await remote.closeWindow('Palette', { strict: true });
      },
      90_000,
    );

    it.skipIf(!hasImpress || !has('ffmpeg') || !has('convert'))(
      'audio_in_slide and background_image_in_slide take the media of a deck in the guest home',
      async () => {
        const { deck: talk, png, wav } = mediaDeck(dir);
        await remote.putFile('/home/user/Desktop/talk.pptx', readFileSync(talk));
        await remote.putFile('/home/user/Music/beep.wav', wav);
        const deck = { ppt_file_path: '/home/user/Desktop/talk.pptx', slide_index: 0 };
        const audio = await both({ type: 'audio_in_slide', ...deck, dest: 'audio.wav' });
        expect(readFileSync(audio.remote as string).equals(wav)).toBe(true);
        expect(readFileSync(audio.local as string).equals(wav)).toBe(true);
        const bg = await both({ type: 'background_image_in_slide', ...deck, dest: 'bg.png' });
        expect(readFileSync(bg.remote as string).equals(png)).toBe(true);
        expect(readFileSync(bg.local as string).equals(png)).toBe(true);
        expect(await both({ type: 'audio_in_slide', ...deck, slide_index: 1, dest: 'a2.wav' })).toEqual({
          remote: undefined,
          local: undefined,
        });
        expect(
          (
            await both({
              type: 'audio_in_slide',
              ...deck,
              ppt_file_path: '/home/user/Desktop/none.pptx',
              dest: 'a3.wav',
            })
          ).remote,
        ).toBeUndefined();
      },
      180_000,
    );

    describe.skipIf(!existsSync(chromium))("the browser getters over the client's DevTools endpoint", () => {
      it("open_tabs_info and active_tab_html_parse read the guest browser's page", async () => {
        const endpoint = await remote.launchBrowser([`${pageBase}/flights`]);
        expect(remote.browserEndpoint()).toBe(endpoint);
        // the server's environment learnt the browser's endpoint from the launch
        expect(local.browserEndpoint()).toBe(endpoint);
        const tabs = await until('the page', async () => {
          const t = (await get(remoteCtx, { type: 'open_tabs_info' })) as { title: string; url: string }[];
          return t.some((x) => x.title === 'Remote flights') ? t : undefined;
        });
        expect(tabs).toContainEqual({ title: 'Remote flights', url: `${pageBase}/flights` });
        expect(await get(localCtx, { type: 'open_tabs_info' })).toEqual(tabs);
        const parse = {
          type: 'active_tab_html_parse',
          category: 'class',
          class_singleObject: { date: 'time' },
          class_multiObject: { item: { '0': 'first', '1': 'second' } },
        };
        expect(await both(parse)).toEqual({
          remote: { time: 'Fri, Nov 27, 2026', first: 'Miles', second: 'Cash' },
          local: { time: 'Fri, Nov 27, 2026', first: 'Miles', second: 'Cash' },
        });
      }, 90_000);

      it('enable_do_not_track reads the Preferences the guest browser wrote', async () => {
        // Chromium writes its Preferences a few seconds after it starts
        expect(
          await eventually(
            () => get(remoteCtx, { type: 'enable_do_not_track' }),
            () => true,
          ),
        ).toBe('false');
        await setChromePrefs(remoteCtx, { enable_do_not_track: true });
        expect(
          await eventually(
            () => get(remoteCtx, { type: 'enable_do_not_track' }),
            (v) => v === 'true',
          ),
        ).toBe('true');
        expect(await get(localCtx, { type: 'enable_do_not_track' })).toBe('true');
        expect(await both({ type: 'new_startup_page' })).toEqual({ remote: 'true', local: 'true' });
      }, 90_000);

      it('history reads the History database the guest browser wrote', async () => {
        const rows = (await eventually(
          () => get(remoteCtx, { type: 'history', dest: 'History' }),
          (v) => Array.isArray(v) && v.some((r) => Array.isArray(r) && r[0] === `${pageBase}/flights`),
        )) as unknown[][];
        expect(rows.find((r) => r[0] === `${pageBase}/flights`)?.[1]).toBe('Remote flights');
        expect(await get(localCtx, { type: 'history', dest: 'History' })).toEqual(rows);
      }, 90_000);
    });
  },
);
