// The osworld environment against a fake OSWorld server on 127.0.0.1: each Environment method's mapping onto
// the endpoints, the retry and timeout rules (shortened), error messages naming endpoint and status, the
// readiness probe, the bearer token and the reset capability.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { EnvironmentError } from '../../errors';
import {
  createOsworldEnvironment,
  waitUntilReady,
  type OsworldEnvironment,
  type OsworldEnvironmentOptions,
} from './osworld-environment';
import { createOsworldEnvironmentFromSpec, OsworldHttpError, type OsworldTiming } from './index';
import { FakeOsworldServer, type FakeOsworldOptions } from './testing/fake-osworld-server';
import { SAMPLE_ACCESSIBILITY_XML } from './testing/sample-accessibility';

const FAST: OsworldTiming = {
  attempts: 3,
  retryDelayMs: 30,
  screenshotTimeoutMs: 800,
  readTimeoutMs: 800,
  readTotalMs: 3_000,
  executeTimeoutMs: 5_000,
  controlTimeoutMs: 800,
  uploadTimeoutMs: 3_000,
  openTimeoutMs: 3_000,
  readyTimeoutMs: 3_000,
  readyIntervalMs: 50,
};

let server: FakeOsworldServer;
let env: OsworldEnvironment | undefined;

async function setup(
  opts: FakeOsworldOptions = {},
  envOpts: Partial<OsworldEnvironmentOptions> = {},
): Promise<OsworldEnvironment> {
  server = await FakeOsworldServer.start({ accessibilityXml: SAMPLE_ACCESSIBILITY_XML, ...opts });
  env = await createOsworldEnvironment({ host: '127.0.0.1', port: server.port, timing: FAST, ...envOpts });
  return env;
}

afterEach(async () => {
  await env?.close();
  env = undefined;
  await server?.close();
});

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the call to fail');
}

describe('osworld environment: method → endpoint', () => {
  beforeEach(async () => {
    await setup({
      width: 320,
      height: 200,
      windows: ['Untitled 1 - LibreOffice Calc', 'Terminal'],
      programs: ['gedit'],
    });
  });

  it('is the osworld kind with every capability', () => {
    expect(env!.kind).toBe('osworld');
    expect([...env!.capabilities].sort()).toEqual([
      'accessibility',
      'browser',
      'files',
      'input',
      'launch',
      'screenshot',
      'shell',
      'windows',
    ]);
    expect(env!.url).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('screen() is POST /screen_size, asked once', async () => {
    expect(await env!.screen()).toEqual({ width: 320, height: 200, scale: 1 });
    await env!.screen();
    expect(server.requests.filter((r) => r.path === '/screen_size').map((r) => r.method)).toEqual(['POST']);
  });

  it('screenshot() is GET /screenshot, the PNG as the server sent it', async () => {
    const s = await env!.screenshot();
    expect(s).toMatchObject({ format: 'png', width: 320, height: 200, toScreen: 1 });
    expect(s.data.equals(server.screenshotPng)).toBe(true);
  });

  it('screenshot() resizes and re-encodes when asked, keeping the factor back to the screen', async () => {
    const s = await env!.screenshot({ format: 'jpeg', quality: 60, maxWidth: 160 });
    expect(s).toMatchObject({ format: 'jpeg', width: 160, height: 100, toScreen: 2 });
    const meta = await sharp(s.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 160, 100]);
    const big = await env!.screenshot({ maxWidth: 1000 });
    expect(big).toMatchObject({ format: 'png', width: 320, toScreen: 1 });
  });

  it('accessibilityTree() is GET /accessibility, parsed', async () => {
    const apps = await env!.accessibilityTree();
    expect(apps.map((a) => a.name)).toEqual(['gnome-shell', 'soffice']);
  });

  it('perform() sends pyautogui code to /execute in OSWorld form and sleeps on the client', async () => {
    await env!.perform([
      { type: 'click', x: 10, y: 20 },
      { type: 'write', text: 'hi' },
      { type: 'sleep', seconds: 0.05 },
      { type: 'press', keys: ['enter'] },
      { type: 'DONE' },
    ]);
    expect(server.pyautoguiCode).toEqual([
      "pyautogui.click(10, 20)\npyautogui.write('hi')",
      "pyautogui.press('enter')",
    ]);
    const exec = server.requests.find((r) => r.path === '/execute')!;
    expect(exec.json).toEqual({
      command: [
        'python3',
        '-c',
        "import pyautogui; import time; pyautogui.FAILSAFE = False; pyautogui.click(10, 20)\npyautogui.write('hi')",
      ],
      shell: false,
    });
  });

  it('perform() reports the guest error of failing pyautogui code, and never retries it', async () => {
    server.pyautoguiResult = {
      returncode: 1,
      error: 'Traceback (most recent call last):\n  ...\nKeyError: nope',
    };
    const e = await rejection(env!.perform([{ type: 'click', x: 1, y: 1 }]));
    expect(e).toBeInstanceOf(EnvironmentError);
    expect(e.message).toMatch(/pyautogui code exited with 1: KeyError: nope/);
    expect(server.count('/execute')).toBe(1);
  });

  it('perform() refuses a bad action without calling the server', async () => {
    await expect(
      env!.perform([
        { type: 'click', x: 1, y: 1 },
        { type: 'press', keys: ['nosuchkey'] },
      ]),
    ).rejects.toThrow(/nosuchkey/);
    expect(server.count('/execute')).toBe(0);
  });

  it('run() maps /execute answers onto CommandResult', async () => {
    expect(await env!.run('echo out; echo err >&2; exit 3')).toEqual({
      stdout: 'out\n',
      stderr: 'err\n',
      exitCode: 3,
      timedOut: false,
    });
    expect(await env!.run(['printf', '%s', 'a b'])).toMatchObject({ stdout: 'a b', exitCode: 0 });
    expect(server.requests.filter((r) => r.path === '/execute').map((r) => r.json)).toEqual([
      { command: 'echo out; echo err >&2; exit 3', shell: true },
      { command: ['printf', '%s', 'a b'], shell: false },
    ]);
  });

  it('run() honours cwd, env and timeoutMs through the guest command', async () => {
    expect((await env!.run('pwd', { cwd: '/tmp' })).stdout).toBe('/tmp\n');
    expect((await env!.run(['sh', '-c', 'echo "$A-$B"'], { env: { A: 'x y', B: "it's" } })).stdout).toBe(
      "x y-it's\n",
    );
    expect(await env!.run('sleep 5', { timeoutMs: 300 })).toMatchObject({ exitCode: null, timedOut: true });
  });

  it('run() of a program that does not exist is exit code 127 with the server message', async () => {
    const r = await env!.run(['definitely-not-a-program-xyz']);
    expect(r).toMatchObject({ exitCode: 127, timedOut: false });
    expect(r.stderr).toMatch(/No such file or directory: 'definitely-not-a-program-xyz'/);
    expect(server.count('/execute')).toBe(1);
  });

  it('putFile() uploads multipart to /setup/upload; getFile() reads /file, undefined on 404 without retrying', async () => {
    const data = Buffer.from([0, 1, 2, 255, 10, 13]);
    await env!.putFile('/home/user/Desktop/data.bin', data);
    expect(server.files.get('/home/user/Desktop/data.bin')?.equals(data)).toBe(true);
    expect((await env!.getFile('~/Desktop/data.bin'))?.equals(data)).toBe(true);
    expect(server.requests.find((r) => r.path === '/file')?.form).toEqual({
      file_path: '~/Desktop/data.bin',
    });
    expect(await env!.getFile('/home/user/missing.txt')).toBeUndefined();
    expect(server.count('/file')).toBe(2);
  });

  it('launch() is /setup/launch and does not wait; cwd goes through sh', async () => {
    await env!.launch(['gedit', '/tmp/x.txt']);
    await env!.launch(['ls'], { cwd: '/tmp' });
    expect(server.launched).toEqual([
      ['gedit', '/tmp/x.txt'],
      ['sh', '-c', 'cd -- "$0" && exec "$@"', '/tmp', 'ls'],
    ]);
  });

  it('open() is /setup/open_file for paths and programs; URLs go to xdg-open', async () => {
    server.files.set('/home/user/report.docx', Buffer.from('x'));
    await env!.open('/home/user/report.docx');
    await env!.open('file:///home/user/report.docx');
    await env!.open('gedit');
    await env!.open('https://example.org/a?b=c');
    expect(server.opened).toEqual(['/home/user/report.docx', '/home/user/report.docx', 'gedit']);
    expect(server.launched).toEqual([['xdg-open', 'https://example.org/a?b=c']]);
    const e = await rejection(env!.open('/home/user/nothing.txt'));
    expect(e.message).toMatch(
      /POST \/setup\/open_file answered HTTP 404: Application\/file not found: \/home\/user\/nothing\.txt/,
    );
  });

  it('activateWindow() / closeWindow() send wmctrl-style window_name, strict, by_class', async () => {
    await env!.activateWindow('Calc');
    await env!.closeWindow('Terminal', { strict: true });
    await env!.activateWindow('libreoffice', { byClass: true });
    expect(server.windowCalls).toEqual([
      { path: '/setup/activate_window', json: { window_name: 'Calc', strict: false, by_class: false } },
      { path: '/setup/close_window', json: { window_name: 'Terminal', strict: true, by_class: false } },
      { path: '/setup/activate_window', json: { window_name: 'libreoffice', strict: false, by_class: true } },
    ]);
    expect(server.windows).toEqual(['Untitled 1 - LibreOffice Calc']);
  });

  it("browserEndpoint() is the guest's DevTools at host:9222 unless set", () => {
    expect(env!.browserEndpoint()).toBe('http://127.0.0.1:9222');
    env!.setBrowserEndpoint!('http://127.0.0.1:1337');
    expect(env!.browserEndpoint()).toBe('http://127.0.0.1:1337');
  });

  it('terminalOutput() is GET /terminal', async () => {
    expect(await env!.terminalOutput()).toBeNull();
  });

  it('reset() says the operator must restore a snapshot when the server is plain OSWorld', async () => {
    expect(env!.canReset).toBe(false);
    await expect(env!.reset()).rejects.toThrow(
      /cannot reset its machine .*the operator must restore the VM snapshot/,
    );
  });

  it('close() ends the environment: later calls fail clearly', async () => {
    await env!.close();
    await expect(env!.screenshot()).rejects.toThrow(
      /osworld environment http:\/\/127\.0\.0\.1:\d+ is closed/,
    );
  });
});

describe('osworld environment: missing windows', () => {
  it('a 404 for a window is an error naming the window', async () => {
    await setup({ windows: [], missingWindowStatus: 404 });
    const e = await rejection(env!.activateWindow('Nope', { strict: true }));
    expect(e).toBeInstanceOf(OsworldHttpError);
    expect(e.message).toMatch(/POST \/setup\/activate_window: no window titled exactly 'Nope' \(HTTP 404\)/);
    expect(server.count('/setup/activate_window')).toBe(1);
  });
});

describe('osworld environment: retries, timeouts and errors', () => {
  beforeEach(async () => {
    await setup();
  });

  it('retries /screenshot on a non-200 and succeeds on the third attempt', async () => {
    server.failNext('/screenshot', 2, 500);
    const s = await env!.screenshot();
    expect(s.width).toBe(320);
    expect(server.count('/screenshot')).toBe(1 + 3); // readiness probe + 3 attempts
  });

  it('retries /screenshot when the body is not an image, then names the endpoint and the reason', async () => {
    server.misbehave('/screenshot', 3, { kind: 'non-image' });
    const e = await rejection(env!.screenshot());
    expect(e).toBeInstanceOf(OsworldHttpError);
    expect(e.message).toMatch(
      /GET \/screenshot answered HTTP 200 but the body is not a PNG or JPEG image .*text\/html.*\(3 attempts/,
    );
    expect((e as OsworldHttpError).status).toBe(200);
  });

  it('gives up after 3 attempts, naming endpoint and status', async () => {
    server.failNext('/accessibility', 5, 503, 'Service Unavailable');
    const e = await rejection(env!.accessibilityTree());
    expect(e.message).toMatch(
      new RegExp(
        `osworld server http://127\\.0\\.0\\.1:${server.port}: GET /accessibility answered HTTP 503: Service Unavailable \\(3 attempts`,
      ),
    );
    expect((e as OsworldHttpError).status).toBe(503);
    expect((e as OsworldHttpError).endpoint).toBe('GET /accessibility');
    expect(server.count('/accessibility')).toBe(3);
  });

  it('does not ask again after a 4xx, which would not change', async () => {
    server.failNext('/terminal', 1, 400, JSON.stringify({ error: 'bad request' }));
    const e = await rejection(env!.terminalOutput());
    expect(e.message).toMatch(/GET \/terminal answered HTTP 400: \{"error":"bad request"\} \(1 attempt\)/);
    expect(server.count('/terminal')).toBe(1);
  });

  it('times a hung /screenshot out per attempt and retries it', async () => {
    server.hang('/screenshot', 2);
    const s = await env!.screenshot();
    expect(s.format).toBe('png');
    expect(server.count('/screenshot')).toBe(1 + 3);
  });

  it('a hung endpoint fails after the bounded attempts with a timeout message', async () => {
    server.hang('/screen_size');
    const e = await rejection(env!.screen());
    expect(e.message).toMatch(/POST \/screen_size did not answer within \d+ ms \(3 attempts over/);
    expect(server.count('/screen_size')).toBe(3);
  });

  it('bounds the whole call: no further attempt once the total is spent', async () => {
    await env!.close();
    env = await createOsworldEnvironment({
      host: '127.0.0.1',
      port: server.port,
      timing: { ...FAST, attempts: 10, readTimeoutMs: 300, readTotalMs: 1_000 },
    });
    server.hang('/accessibility');
    const e = await rejection(env.accessibilityTree());
    expect(e.message).toMatch(/GET \/accessibility did not answer within \d+ ms \(\d attempts over/);
    // 10 attempts of 300 ms do not fit in 1 s
    expect(server.count('/accessibility')).toBeGreaterThanOrEqual(2);
    expect(server.count('/accessibility')).toBeLessThanOrEqual(4);
  });

  it('close() ends a call in flight', async () => {
    server.hang('/accessibility');
    const pending = rejection(env!.accessibilityTree());
    while (server.count('/accessibility') === 0) await new Promise((r) => setTimeout(r, 10));
    await env!.close();
    expect((await pending).message).toMatch(
      /the osworld environment http:\/\/127\.0\.0\.1:\d+ is closed \(GET \/accessibility\)/,
    );
    expect(server.count('/accessibility')).toBe(1);
  });

  it('never repeats /execute after a timeout (the command may be running)', async () => {
    await env!.close();
    env = await createOsworldEnvironment({
      host: '127.0.0.1',
      port: server.port,
      timing: { ...FAST, executeTimeoutMs: 300 },
    });
    server.hang('/execute');
    const e = await rejection(env.perform([{ type: 'click', x: 1, y: 1 }]));
    expect(e.message).toMatch(/POST \/execute did not answer within 300 ms \(1 attempt\)/);
    expect(server.count('/execute')).toBe(1);
  });

  it('never repeats /execute after a 500 from the server: it is the answer', async () => {
    server.failNext(
      '/execute',
      1,
      500,
      JSON.stringify({ status: 'error', message: "Command 'x' timed out after 120 seconds" }),
    );
    expect(await env!.run('sleep 1000')).toMatchObject({ timedOut: true, exitCode: null });
    expect(server.count('/execute')).toBe(1);
  });

  it('retries a connection reset for reads but not for /execute', async () => {
    server.misbehave('/terminal', 1, { kind: 'reset-connection' });
    expect(await env!.terminalOutput()).toBeNull();
    expect(server.count('/terminal')).toBe(2);
    server.misbehave('/execute', 1, { kind: 'reset-connection' });
    const e = await rejection(env!.run(['true']));
    expect(e.message).toMatch(/POST \/execute could not be reached \(\w+\) \(1 attempt\)/);
    expect(server.count('/execute')).toBe(1);
  });

  it('retries an upload after a failure', async () => {
    server.failNext('/setup/upload', 2, 500);
    await env!.putFile('/tmp/a.txt', Buffer.from('abc'));
    expect(server.files.get('/tmp/a.txt')?.toString()).toBe('abc');
    expect(server.count('/setup/upload')).toBe(3);
  });

  it('an unreachable server is an error naming the server and the network failure', async () => {
    const port = server.port;
    await env!.close();
    env = undefined;
    await server.close();
    const e = await rejection(
      waitUntilReady(`http://127.0.0.1:${port}`, { timing: { ...FAST, readyTimeoutMs: 300 } }),
    );
    expect(e).toBeInstanceOf(EnvironmentError);
    expect(e.message).toMatch(
      new RegExp(
        `the osworld server http://127\\.0\\.0\\.1:${port} is not ready: GET /screenshot gave no PNG within 0\\.3 s; last: .*could not be reached \\(ECONNREFUSED\\)`,
      ),
    );
    server = await FakeOsworldServer.start();
  });
});

describe('osworld environment: readiness', () => {
  it('waits until /screenshot answers a PNG', async () => {
    server = await FakeOsworldServer.start();
    server.failNext('/screenshot', 3, 502);
    server.misbehave('/screenshot', 2, { kind: 'non-image' });
    await waitUntilReady(server.url, { timing: FAST });
    expect(server.count('/screenshot')).toBe(6);
  });

  it('gives up after its bound, telling the last answer', async () => {
    server = await FakeOsworldServer.start();
    server.misbehave('/screenshot', 1000, { kind: 'non-image' });
    const e = await rejection(
      createOsworldEnvironment({
        host: '127.0.0.1',
        port: server.port,
        timing: { ...FAST, readyTimeoutMs: 300 },
      }),
    );
    expect(e.message).toMatch(
      /is not ready: GET \/screenshot gave no PNG within 0\.3 s; last: .*GET \/screenshot answered HTTP 200 but the body is not a PNG/,
    );
  });
});

describe('osworld environment: Proctor servers of the protocol', () => {
  it('sends the bearer token on every call, and says so when it is refused', async () => {
    server = await FakeOsworldServer.start({ token: 't0ken', proctor: { reset: false } });
    env = await createOsworldEnvironmentFromSpec(`osworld://127.0.0.1:${server.port}?token=t0ken`, {
      timing: FAST,
    });
    await env.screen();
    expect(server.requests.every((r) => r.headers.authorization === 'Bearer t0ken')).toBe(true);
    const e = await rejection(
      createOsworldEnvironment({
        host: '127.0.0.1',
        port: server.port,
        token: 'wrong',
        timing: { ...FAST, readyTimeoutMs: 200 },
      }),
    );
    expect(e.message).toMatch(/HTTP 401/);
    expect(e.message).not.toContain('wrong');
  });

  it('uses POST /proctor/reset where the server offers it', async () => {
    server = await FakeOsworldServer.start({ proctor: { reset: true } });
    env = await createOsworldEnvironment({ host: '127.0.0.1', port: server.port, timing: FAST });
    expect(env.proctorInfo).toEqual({ proctor: true, reset: true, version: 'fake' });
    expect(env.canReset).toBe(true);
    await env.reset();
    expect(server.resets).toBe(1);
  });

  it('a Proctor server without reset still cannot reset', async () => {
    server = await FakeOsworldServer.start({ proctor: { reset: false } });
    env = await createOsworldEnvironment({ host: '127.0.0.1', port: server.port, timing: FAST });
    expect(env.canReset).toBe(false);
    await expect(env.reset()).rejects.toThrow(/operator must restore the VM snapshot/);
  });
});
