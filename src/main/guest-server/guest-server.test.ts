// `proctor env serve`'s server on a real sandbox display with a real Chromium, over real HTTP on 127.0.0.1 with
// plain fetch as the client: every endpoint's status codes and JSON shapes, OSWorld's python -c acting form,
// tokens, and reset. One sandbox display for the whole file (2 cores).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { CHROMIUM_FLAGS, createLocalEnvironment } from '../env/local';
import {
  EVENT_WAIT_MS,
  kioskLayout,
  startPageServer,
  waitFor,
  waitForPainted,
  type PageServer,
} from '../env/local/testing/page-server';
import { startGuestServer, type GuestServer } from './server';
import { guestClient, type GuestClient } from './testing/client';
import { freePort } from '../free-port';
import { removeTree } from '../env/remove-tree';

const missing = ['Xvfb', 'openbox', 'xdotool', 'chromium', 'mousepad'].filter(
  (t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0,
);
const why = missing.length ? `needs ${missing.join(', ')}` : '';
const hasRequests = spawnSync('python3', ['-c', 'import requests']).status === 0;

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe.skipIf(!!why)(`proctor env serve on a sandbox display ${why}`, () => {
  let server: GuestServer;
  let c: GuestClient;
  let page: PageServer;
  let downloads: string;
  const profile = mkdtempSync(join(tmpdir(), 'proctor-envserve-chromium-'));

  beforeAll(async () => {
    downloads = mkdtempSync(join(tmpdir(), 'proctor-envserve-downloads-'));
    writeFileSync(join(downloads, 'report.csv'), 'a,b\n1,2\n');
    writeFileSync(join(downloads, 'mapped.bin'), 'mapped bytes');
    writeFileSync(
      join(downloads, 'downloads.json'),
      JSON.stringify({ 'https://example.com/get?id=7': 'mapped.bin' }),
    );
    server = await startGuestServer({
      createEnvironment: () => createLocalEnvironment({ width: 1280, height: 800 }),
      port: 0,
      downloads: { dir: downloads },
      openWaitMs: 5000,
    });
    c = guestClient(server.url);
    page = await startPageServer();
  });

  afterAll(async () => {
    await server?.close();
    await page?.close();
    await removeTree(downloads);
    await removeTree(profile);
  });

  it('says it is Proctor, binds loopback and answers unknown endpoints and methods', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.token).toBeUndefined();
    expect((await c.get('/proctor/info')).json()).toMatchObject({
      proctor: true,
      reset: true,
      version: expect.any(String),
    });
    expect((await c.get('/platform')).text()).toBe('Linux');
    expect((await c.get('/nope')).status).toBe(404);
    expect((await c.get('/execute')).status).toBe(405);
    const big = await c.raw('POST', '/execute', {
      body: JSON.stringify({ command: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    const bad = await c.raw('POST', '/execute', {
      body: '{not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
  });

  it("launches Chromium, then clicks and types with OSWorld's python -c form", async () => {
    const cdp = await freePort();
    const launched = await c.post('/setup/launch', {
      command: [
        'chromium',
        ...CHROMIUM_FLAGS,
        '--kiosk',
        `--remote-debugging-port=${cdp}`,
        `--user-data-dir=${profile}`,
        page.url,
      ],
    });
    expect(launched.status).toBe(200);
    const layout = await waitFor(() => kioskLayout(page), 60_000, 'the test page in Chromium kiosk');
    await waitForPainted(async () => (await c.get('/screenshot')).body, layout);
    const b = page.report.layout!.button;
    const [x, y] = [Math.round(b.x + b.w / 2), Math.round(b.y + b.h / 2)];
    page.report.clicks.length = 0;
    const r = await c.pyautogui(`pyautogui.click(${x}, ${y})`);
    expect(r.status).toBe(200);
    expect(r.json()).toEqual({ status: 'success', output: '', error: '', returncode: 0 });
    expect(await waitFor(() => page.report.clicks[0], EVENT_WAIT_MS, 'the click')).toMatchObject({
      id: 'btn',
      screenX: x,
      screenY: y,
    });
    expect((await c.get('/cursor_position')).json()).toEqual([x, y]);
    const typed = await c.pyautogui(
      "pyautogui.click(300, 400)\ntime.sleep(0.2)\npyautogui.typewrite('hello env', interval=0.01)",
    );
    expect(typed.json()).toMatchObject({ returncode: 0 });
    await waitFor(() => page.report.text === 'hello env', EVENT_WAIT_MS, 'the typed text');
    // The list form as one string, split like a shell would.
    const asString = await c.post('/execute', {
      command: `python -c "import pyautogui; import time; pyautogui.FAILSAFE = False; pyautogui.moveTo(50, 60)"`,
    });
    expect(asString.json()).toMatchObject({ status: 'success', returncode: 0 });
    expect((await c.get('/cursor_position')).json()).toEqual([50, 60]);
    const asShellLine = await c.post('/execute', {
      command: `python3 -c 'import pyautogui; pyautogui.moveTo(55, 66)'`,
      shell: true,
    });
    expect(asShellLine.json()).toMatchObject({ status: 'success', returncode: 0 });
    expect((await c.get('/cursor_position')).json()).toEqual([55, 66]);
  });

  it("refuses code outside the whitelist with the parser's message, performing nothing", async () => {
    await c.pyautogui('pyautogui.moveTo(70, 80)');
    const r = await c.pyautogui("pyautogui.moveTo(500, 500)\nimport os\nos.system('touch /tmp/pwned')");
    expect(r.status).toBe(200);
    const j = r.json<{ returncode: number; error: string }>();
    expect(j.returncode).toBe(1);
    expect(j.error).toMatch(/line 2, column \d+: importing 'os' is not allowed/);
    expect((await c.get('/cursor_position')).json()).toEqual([70, 80]);
    expect((await c.post('/execute', { command: ['ls', '/tmp/pwned'] })).json()).toMatchObject({
      returncode: 2,
    });
  });

  it('draws the pointer into /screenshot', async () => {
    await c.pyautogui('pyautogui.moveTo(1000, 700)');
    const a = await c.get('/screenshot');
    expect(a.status).toBe(200);
    expect(a.type).toBe('image/png');
    expect(a.body.subarray(0, 4)).toEqual(PNG_MAGIC);
    expect(await sharp(a.body).metadata()).toMatchObject({ width: 1280, height: 800 });
    await c.pyautogui('pyautogui.moveTo(1200, 100)');
    const b = await c.get('/screenshot');
    // The arrow's black outline lies in a 12×19 box from the pointer; the page under it is white.
    const darkPixels = async (png: Buffer, left: number, top: number) => {
      const raw = await sharp(png)
        .extract({ left, top, width: 12, height: 19 })
        .removeAlpha()
        .raw()
        .toBuffer();
      let n = 0;
      for (let i = 0; i < raw.length; i += 3) if (raw[i] + raw[i + 1] + raw[i + 2] < 150) n++;
      return n;
    };
    expect(await darkPixels(a.body, 1000, 700)).toBeGreaterThan(15);
    expect(await darkPixels(b.body, 1000, 700)).toBe(0);
    expect(await darkPixels(b.body, 1200, 100)).toBeGreaterThan(15);
  });

  it('runs other commands: argv, strings split like shlex, shell lines, ~/ expansion, exit codes, timeouts', async () => {
    const home = (await c.post('/execute', { command: ['sh', '-c', 'printf %s "$HOME"'] })).json<{
      output: string;
    }>().output;
    expect((await c.post('/execute', { command: `echo "a  b" ~/x`, shell: false })).json()).toEqual({
      status: 'success',
      output: `a  b ${home}/x\n`,
      error: '',
      returncode: 0,
    });
    expect(
      (await c.post('/setup/execute', { command: 'echo $((1+2)) | cat', shell: true })).json(),
    ).toMatchObject({ output: '3\n', returncode: 0 });
    expect((await c.post('/execute', { command: ['sh', '-c', 'echo e >&2; exit 4'] })).json()).toEqual({
      status: 'success',
      output: '',
      error: 'e\n',
      returncode: 4,
    });
    const notFound = await c.post('/execute', { command: ['no-such-program-xyz'] });
    expect(notFound.status).toBe(500);
    expect(notFound.json()).toMatchObject({
      status: 'error',
      message: expect.stringContaining('no-such-program-xyz'),
    });
    expect((await c.post('/execute', { command: 42 })).status).toBe(400);
    expect((await c.post('/execute', { command: 'echo "open' })).status).toBe(400);
  });

  it('runs a command and waits for its verification', async () => {
    const ok = await c.post('/execute_with_verification', {
      command: 'touch /tmp/verified',
      shell: true,
      verification: { command_success: { command: 'test -e /tmp/verified', shell: true } },
    });
    expect(ok.status).toBe(200);
    expect(ok.json()).toMatchObject({
      status: 'success',
      returncode: 0,
      verification: 'passed',
      wait_time: expect.any(Number),
    });
    const bad = await c.post('/setup/execute_with_verification', {
      command: ['true'],
      verification: { window_exists: { window_name: 'No Such Window 4711' } },
      max_wait_time: 1,
      check_interval: 0.3,
    });
    expect(bad.status).toBe(500);
    expect(bad.json()).toMatchObject({ status: 'verification_failed' });
  });

  it("gives the accessibility tree in OSWorld's XML, with the browser's page from CDP", async () => {
    const r = await c.get('/accessibility');
    expect(r.status).toBe(200);
    const at = r.json<{ AT: string }>().AT;
    expect(at).toMatch(
      /^<desktop-frame xmlns:attr="https:\/\/accessibility\.ubuntu\.example\.org\/ns\/attributes"/,
    );
    expect(at).toMatch(
      /<push-button name="Press me"[^>]* cp:screencoord="\(\d+, \d+\)" cp:size="\(161, 61\)"/,
    );
    expect(at.endsWith('</desktop-frame>')).toBe(true);
    expect((await c.get('/terminal')).json()).toEqual({ output: null, status: 'success' });
  });

  it('answers sizes and the desktop path', async () => {
    expect((await c.post('/screen_size')).json()).toEqual({ width: 1280, height: 800 });
    expect((await c.form('/window_size', { app_class_name: 'chromium' })).json()).toEqual({
      width: 1280,
      height: 800,
    });
    expect((await c.form('/window_size', {})).status).toBe(400);
    expect((await c.form('/window_size', { app_class_name: 'nosuchclass' })).status).toBe(404);
    expect((await c.post('/desktop_path')).json()).toEqual({ desktop_path: '/home/user/Desktop' });
  });

  it('uploads, lists and serves files within the guest home and /tmp only', async () => {
    const form = new FormData();
    form.append('file_path', '/home/user/docs/deep/notes.txt');
    form.append('file_data', new Blob([Buffer.from('line one\nline two\n')]), 'notes.txt');
    const up = await c.multipart('/setup/upload', form);
    expect([up.status, up.text()]).toEqual([200, 'File uploaded successfully']);
    const got = await c.form('/file', { file_path: '~/docs/deep/notes.txt' });
    expect([got.status, got.text()]).toEqual([200, 'line one\nline two\n']);
    expect((await c.form('/file', { file_path: '$HOME/docs/deep/notes.txt' })).text()).toBe(
      'line one\nline two\n',
    );
    const none = await c.form('/file', { file_path: '/home/user/nope.txt' });
    expect([none.status, none.json()]).toEqual([404, { error: 'File not found' }]);
    expect((await c.form('/file', {})).status).toBe(400);
    expect((await c.form('/file', { file_path: '/etc/passwd' })).status).toBe(403);
    expect((await c.form('/file', { file_path: '/home/user/../../etc/passwd' })).status).toBe(403);
    const escape = new FormData();
    escape.append('file_path', '/etc/proctor-escape');
    escape.append('file_data', new Blob([Buffer.from('x')]), 'x');
    expect((await c.multipart('/setup/upload', escape)).status).toBe(403);
    expect((await c.multipart('/setup/upload', new FormData())).status).toBe(400);

    const tree = await c.post('/list_directory', { path: '/home/user' });
    expect(tree.status).toBe(200);
    // Chromium and mousepad keep their settings in the home's dot folders; the test looks at the rest.
    const listed = tree.json<{ directory_tree: { children: { name: string }[] } }>();
    listed.directory_tree.children = listed.directory_tree.children.filter((k) => !k.name.startsWith('.'));
    expect(listed).toEqual({
      directory_tree: {
        type: 'directory',
        name: 'user',
        children: [
          { type: 'directory', name: 'Desktop', children: [] },
          {
            type: 'directory',
            name: 'docs',
            children: [{ type: 'directory', name: 'deep', children: [{ type: 'file', name: 'notes.txt' }] }],
          },
        ],
      },
    });
    expect((await c.post('/list_directory', {})).status).toBe(400);
    expect((await c.post('/list_directory', { path: '~/docs/deep/notes.txt' })).status).toBe(400);
  });

  it('takes downloads from the downloads folder, naming a missing URL', async () => {
    expect(
      (
        await c.post('/setup/download_file', {
          url: 'https://example.com/files/report.csv',
          path: '/tmp/r.csv',
        })
      ).status,
    ).toBe(200);
    expect((await c.form('/file', { file_path: '/tmp/r.csv' })).text()).toBe('a,b\n1,2\n');
    expect(
      (await c.post('/setup/download_file', { url: 'https://example.com/get?id=7', path: '~/m.bin' })).status,
    ).toBe(200);
    expect((await c.form('/file', { file_path: '~/m.bin' })).text()).toBe('mapped bytes');
    const miss = await c.post('/setup/download_file', {
      url: 'https://example.com/absent.xlsx',
      path: '~/a.xlsx',
    });
    expect(miss.status).toBe(500);
    expect(miss.text()).toContain('https://example.com/absent.xlsx');
    expect((await c.post('/setup/download_file', { url: 'https://example.com/x' })).status).toBe(400);
  });

  it('opens a file in its app and activates and closes its window', async () => {
    const r = await c.post('/setup/open_file', { path: '/home/user/docs/deep/notes.txt' });
    expect(r.status).toBe(200);
    expect(
      (
        await c.post('/execute_with_verification', {
          command: ['true'],
          verification: { window_exists: { window_name: 'notes' } },
          max_wait_time: 10,
        })
      ).status,
    ).toBe(200);
    expect((await c.post('/setup/activate_window', { window_name: 'notes' })).status).toBe(200);
    expect((await c.post('/setup/activate_window', { window_name: 'No Such Window 4711' })).status).toBe(404);
    expect((await c.post('/setup/activate_window', {})).status).toBe(400);
    expect((await c.post('/setup/close_window', { window_name: 'notes' })).status).toBe(200);
    expect((await c.post('/setup/open_file', { path: '/home/user/missing.txt' })).status).toBe(404);
    expect((await c.post('/setup/open_file', {})).status).toBe(400);
  });

  it('changes and serves the wallpaper', async () => {
    expect((await c.post('/wallpaper')).status).toBe(404);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file_path', '/home/user/wall.png');
    form.append('file_data', new Blob([png]), 'wall.png');
    await c.multipart('/setup/upload', form);
    expect((await c.post('/setup/change_wallpaper', { path: '/home/user/nope.png' })).status).toBe(404);
    expect((await c.post('/setup/change_wallpaper', {})).status).toBe(400);
    expect((await c.post('/setup/change_wallpaper', { path: '~/wall.png' })).status).toBe(200);
    const w = await c.post('/wallpaper');
    expect([w.status, w.type]).toEqual([200, 'image/png']);
    expect(w.body.equals(png)).toBe(true);
  });

  it('records the screen with ffmpeg, or says plainly that it cannot', async () => {
    const hasFfmpeg = spawnSync('sh', ['-c', 'command -v ffmpeg']).status === 0;
    const start = await c.post('/start_recording');
    if (!hasFfmpeg) {
      expect(start.status).toBe(500);
      expect(start.json()).toMatchObject({
        status: 'error',
        message: expect.stringContaining('ffmpeg is not installed'),
      });
      expect((await c.post('/end_recording')).status).toBe(400);
      return;
    }
    expect(start.status).toBe(200);
    expect((await c.post('/start_recording')).status).toBe(400);
    const end = await c.post('/end_recording');
    expect([end.status, end.type]).toEqual([200, 'video/mp4']);
  });

  it('answers /run_python and /run_bash_script properly', async () => {
    expect(
      (await c.post('/run_python', { code: 'import sys\nprint(6*7)\nprint("w", file=sys.stderr)' })).json(),
    ).toEqual({
      status: 'success',
      message: expect.any(String),
      need_more: false,
      output: '42\n',
      error: 'w\n',
      return_code: 0,
    });
    const failed = (await c.post('/run_python', { code: '1/0' })).json();
    expect(failed).toMatchObject({
      status: 'error',
      need_more: false,
      return_code: 1,
      error: expect.stringContaining('ZeroDivisionError'),
    });
    expect((await c.post('/run_python', {})).status).toBe(400);

    await c.post('/execute', { command: ['mkdir', '-p', '/home/user/work'] });
    const bash = await c.post('/run_bash_script', {
      script: 'echo out\necho err >&2\npwd | sed "s#.*/##"\nexit 3',
      working_dir: '/home/user/work',
    });
    expect([bash.status, bash.json()]).toEqual([
      200,
      { status: 'error', output: 'out\nerr\nwork\n', error: '', returncode: 3 },
    ]);
    expect((await c.post('/run_bash_script', { script: 'echo fine' })).json()).toEqual({
      status: 'success',
      output: 'fine\n',
      error: '',
      returncode: 0,
    });
    const slow = await c.post('/run_bash_script', { script: 'echo started; sleep 20', timeout: 1 });
    expect(slow.status).toBe(500);
    expect(slow.json()).toMatchObject({
      status: 'error',
      output: 'started\n',
      error: expect.stringContaining('timed out'),
    });
    expect((await c.post('/run_bash_script', {})).status).toBe(400);
  });

  it.skipIf(spawnSync('sh', ['-c', 'command -v google-chrome']).status === 0)(
    "launches Chromium for OSWorld's google-chrome where Chrome is absent",
    async () => {
      const port = await freePort();
      const r = await c.post('/setup/launch', {
        command: [
          'google-chrome',
          `--remote-debugging-port=${port}`,
          '--user-data-dir=/tmp/proctor-gc-profile',
          'about:blank',
        ],
      });
      expect(r.status).toBe(200);
      const end = Date.now() + 60_000;
      let version: { Browser?: string } | undefined;
      while (!version && Date.now() < end) {
        version = await fetch(`http://127.0.0.1:${port}/json/version`).then(
          (x) => x.json() as Promise<{ Browser?: string }>,
          () => undefined,
        );
        if (!version) await new Promise((res) => setTimeout(res, 250));
      }
      expect(version?.Browser).toMatch(/Chrom/);
    },
  );

  it.skipIf(!hasRequests)(
    "serves a Python client that calls it the way OSWorld's controllers do (requests)",
    async () => {
      // The calls' shapes as OSWorld's PythonController and SetupController make them: JSON bodies with a
      // content-type header, form fields (data=), multipart uploads (files=) and plain GETs.
      const script = [
        'import json, sys, requests',
        'u = sys.argv[1]',
        'h = {"Content-Type": "application/json"}',
        'out = {}',
        'r = requests.get(u + "/screenshot", timeout=10); out["shot"] = [r.status_code, r.content[:4] == b"\\x89PNG"]',
        'cmd = ["python", "-c", "import pyautogui; import time; pyautogui.FAILSAFE = False; pyautogui.moveTo(321, 123)"]',
        'r = requests.post(u + "/execute", headers=h, data=json.dumps({"command": cmd, "shell": False}), timeout=90); out["exec"] = r.json()',
        'r = requests.get(u + "/cursor_position"); out["cursor"] = r.json()',
        'r = requests.post(u + "/setup/upload", data={"file_path": "/home/user/py/up.bin"}, files={"file_data": ("up.bin", b"\\x00\\x01py")}); out["upload"] = [r.status_code, r.text]',
        'r = requests.post(u + "/file", data={"file_path": "/home/user/py/up.bin"}); out["file"] = [r.status_code, list(r.content)]',
        'r = requests.post(u + "/list_directory", headers=h, data=json.dumps({"path": "/home/user/py"})); out["tree"] = r.json()',
        'r = requests.post(u + "/screen_size"); out["size"] = r.json()',
        'r = requests.get(u + "/accessibility"); out["at"] = r.json()["AT"][:14]',
        'r = requests.post(u + "/run_bash_script", headers=h, data=json.dumps({"script": "echo hi", "timeout": 5})); out["bash"] = r.json()',
        'print(json.dumps(out))',
      ].join('\n');
      const child = spawn('python3', ['-c', script, server.url], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise((r) => child.once('close', r));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(JSON.parse(stdout)).toEqual({
        shot: [200, true],
        exec: { status: 'success', output: '', error: '', returncode: 0 },
        cursor: [321, 123],
        upload: [200, 'File uploaded successfully'],
        file: [200, [0, 1, 112, 121]],
        tree: {
          directory_tree: { type: 'directory', name: 'py', children: [{ type: 'file', name: 'up.bin' }] },
        },
        size: { width: 1280, height: 800 },
        at: '<desktop-frame',
        bash: { status: 'success', output: 'hi\n', error: '', returncode: 0 },
      });
    },
  );

  it('requires a bearer token in token mode, compared exactly', async () => {
    const token = 'a-test-token-of-enough-length';
    const env = await server.environment();
    const guarded = await startGuestServer({
      createEnvironment: () => createLocalEnvironment({ display: env.display }),
      port: 0,
      requireToken: true,
      token,
      allowPaths: [downloads],
    });
    try {
      expect(guarded.token).toBe(token);
      expect((await guestClient(guarded.url).get('/screenshot')).status).toBe(401);
      expect((await guestClient(guarded.url, token + 'x').get('/platform')).status).toBe(401);
      expect((await guestClient(guarded.url, token.slice(0, -1)).get('/platform')).status).toBe(401);
      const ok = guestClient(guarded.url, token);
      expect((await ok.get('/platform')).text()).toBe('Linux');
      // Without a downloads folder the guest fetches the URL itself (here a page on 127.0.0.1).
      expect((await ok.post('/setup/download_file', { url: page.url, path: '/tmp/page.html' })).status).toBe(
        200,
      );
      expect((await ok.form('/file', { file_path: '/tmp/page.html' })).text()).toContain('Press me');
      // --allow-paths widens the file endpoints to a host folder (the main server refuses it).
      expect((await ok.form('/file', { file_path: join(downloads, 'report.csv') })).text()).toBe(
        'a,b\n1,2\n',
      );
      expect((await c.form('/file', { file_path: join(downloads, 'report.csv') })).status).toBe(404); // the guest's own /tmp
      expect((await ok.form('/file', { file_path: '/etc/hostname' })).status).toBe(403);
    } finally {
      await guarded.close();
    }
    await expect(
      startGuestServer({
        createEnvironment: () => createLocalEnvironment({ display: env.display }),
        port: 0,
        host: '0.0.0.0',
      }).then((s) => s.close().then(() => s.token)),
    ).resolves.toMatch(/^[\w-]{16,}$/);
  });

  it('resets to a fresh home and display, ending what the episode started; calls during the reset wait', async () => {
    const before = await server.environment();
    const home = before.home.root; // the home's folder on the host (inside a namespace sandbox $HOME is /home/user)
    expect(spawnSync('pgrep', ['-f', basename(profile)]).status).toBe(0); // Chromium of the launch test is running
    const [reset, during] = await Promise.all([
      c.post('/proctor/reset'),
      new Promise((r) => setTimeout(r, 50)).then(() => c.post('/screen_size')),
    ]);
    expect(reset.status).toBe(200);
    expect(during.json()).toEqual({ width: 1280, height: 800 });
    const after = await server.environment();
    expect(after).not.toBe(before);
    expect(reset.json()).toEqual({ status: 'success', display: after.display });
    expect(after.home.root).not.toBe(home);
    expect((await c.form('/file', { file_path: '~/docs/deep/notes.txt' })).status).toBe(404);
    // a fresh home: the Desktop, and what the desktop's own programs keep there (openbox's ~/.cache)
    const tree = (await c.post('/list_directory', { path: '~' })).json<{
      directory_tree: { name: string; children: { name: string; children?: unknown[] }[] };
    }>().directory_tree;
    expect(tree.name).toBe('user');
    expect(tree.children.filter((e) => !e.name.startsWith('.'))).toEqual([
      { type: 'directory', name: 'Desktop', children: [] },
    ]);
    await waitFor(
      () => spawnSync('pgrep', ['-f', basename(profile)]).status === 1,
      15_000,
      'Chromium to be ended',
    );
    expect((await c.get('/screenshot')).status).toBe(200);
  });
});
