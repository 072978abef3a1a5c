// `proctor serve` used from another machine: the printed token is traded once for an HttpOnly cookie and never
// travels in URLs again, the printed address is one a remote browser can open, answers and errors name files
// relative to the served folder, and a hostile run folder is a problem entry, not a 500.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, type Workbench } from '../workbench/workbench';
import { reachableHosts } from './addresses';
import { startServer, type RunningServer } from './http-server';

let root: string;
let server: RunningServer;
let workbench: Workbench;
let base: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-remote-'));
  mkdirSync(join(root, 'ui'));
  writeFileSync(join(root, 'ui', 'index.html'), '<!doctype html><title>ui</title>');
  mkdirSync(join(root, 'runs', 'deep'), { recursive: true });
  writeFileSync(
    join(root, 'runs', 'deep', 'manifest.json'),
    `{"runId":"deep","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  );
  mkdirSync(join(root, 'runs', 'fine'), { recursive: true });
  writeFileSync(
    join(root, 'runs', 'fine', 'manifest.json'),
    JSON.stringify({ runId: 'fine', startedAt: '2026-01-01T00:00:00Z', agent: 'x', tasks: [] }),
  );
  writeFileSync(join(root, 'runs', 'shot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  mkdirSync(join(root, 'tasks'));
  writeFileSync(join(root, 'tasks', 'bad.json'), 'nope');
  workbench = createWorkbench(root, { transport: 'http' });
  server = await startServer({
    root,
    handlers: workbench.handlers,
    events: workbench.events,
    uiDir: join(root, 'ui'),
    port: 0,
    token: true,
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server?.close();
  await workbench?.close();
  rmSync(root, { recursive: true, force: true });
});

const api = (method: string, params: unknown, headers: Record<string, string> = {}, query = '') =>
  fetch(`${base}/api/call${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ method, params }),
  });
const bearer = () => ({ authorization: `Bearer ${server.token}` });

/** The cookie a browser keeps after opening the printed address. */
async function login(
  path = '/',
): Promise<{ status: number; location: string | null; setCookie: string; cookie: string }> {
  const res = await fetch(`${base}${path}`, { redirect: 'manual' });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return {
    status: res.status,
    location: res.headers.get('location'),
    setCookie,
    cookie: setCookie.split(';')[0],
  };
}

describe('the token over a remote connection', () => {
  it('is traded on the first page load for an HttpOnly, SameSite=Strict cookie, and dropped from the address', async () => {
    expect(server.url).toContain(`?token=${server.token}`);
    const first = await login(`/?token=${server.token}`);
    expect(first.status).toBe(303);
    expect(first.location).toBe('/');
    expect(first.setCookie).toMatch(new RegExp(`^proctor-token-${server.port}=${server.token};`));
    expect(first.setCookie).toMatch(/HttpOnly/i);
    expect(first.setCookie).toMatch(/SameSite=Strict/i);
    const deep = await login(`/runs/x?view=replay&token=${server.token}#step-3`);
    expect(deep.location).toBe('/runs/x?view=replay');
    expect((await login('//evil.example/?token=' + server.token)).location).toBe('/');
    expect((await login('/?token=wrong')).status).toBe(401);
  });

  it('authenticates API calls, files and events by the cookie or a Bearer header, never by ?token=', async () => {
    const { cookie } = await login(`/?token=${server.token}`);
    expect((await api('app.info', {}, { cookie })).status).toBe(200);
    expect((await api('app.info', {}, bearer())).status).toBe(200);
    expect((await api('app.info', {})).status).toBe(401);
    expect((await api('app.info', {}, {}, `?token=${server.token}`)).status).toBe(401);
    expect((await fetch(`${base}/files/runs/shot.png`, { headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${base}/files/runs/shot.png?token=${server.token}`)).status).toBe(401);
    const listen = (url: string, headers: Record<string, string>) =>
      new Promise<string>((done) => {
        const ws = new WebSocket(url, { headers });
        ws.on('open', () => (ws.close(), done('open')));
        ws.on('error', () => done('refused'));
      });
    expect(await listen(`ws://127.0.0.1:${server.port}/events`, { cookie })).toBe('open');
    expect(await listen(`ws://127.0.0.1:${server.port}/events?token=${server.token}`, {})).toBe('refused');
  });
});

describe('the printed address', () => {
  it("names the machine's non-internal IPv4 addresses for a wildcard bind, never 0.0.0.0", async () => {
    const interfaces = {
      lo: [
        { address: '127.0.0.1', family: 'IPv4', internal: true, netmask: '255.0.0.0', mac: '', cidr: null },
      ],
      eth0: [
        {
          address: '192.168.1.20',
          family: 'IPv4',
          internal: false,
          netmask: '255.255.255.0',
          mac: '',
          cidr: null,
        },
        {
          address: 'fe80::1',
          family: 'IPv6',
          internal: false,
          netmask: 'ffff::',
          mac: '',
          cidr: null,
          scopeid: 2,
        },
      ],
    } as const;
    expect(reachableHosts('0.0.0.0', interfaces as never)).toEqual(['192.168.1.20']);
    expect(reachableHosts('0.0.0.0', { lo: interfaces.lo } as never)).toEqual(['127.0.0.1']);
    expect(reachableHosts('10.0.0.5', interfaces as never)).toEqual(['10.0.0.5']);
    const wild = await startServer({
      root,
      handlers: workbench.handlers,
      events: workbench.events,
      uiDir: join(root, 'ui'),
      port: 0,
      host: '0.0.0.0',
    });
    try {
      expect(wild.token).toBeTruthy();
      for (const url of wild.urls) expect(url).not.toContain('0.0.0.0');
      const opened = await fetch(new URL('/api/call', wild.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${wild.token}` },
        body: JSON.stringify({ method: 'app.info', params: {} }),
      });
      expect(opened.status).toBe(200);
    } finally {
      await wild.close();
    }
  });
});

describe('paths and hostile runs over HTTP', () => {
  it('never shows the host path of the served folder', async () => {
    const hostForms = [root, realpathSync(root)];
    const calls: [string, unknown][] = [
      ['app.info', {}],
      ['runs.get', { runId: 'tasks' }],
      ['runs.get', { runId: 'nope' }],
      ['runs.task', { runId: 'runs/fine', taskKey: 'a/b' }],
      ['runs.task', { runId: 'runs/deep', taskKey: 'a/b' }],
      ['runs.list', {}],
      ['tasks.open', { path: 'tasks' }],
      ['tasks.open', { path: 'nowhere' }],
      ['tasks.get', { path: 'tasks/bad.json' }],
    ];
    for (const [method, params] of calls) {
      const body = await (await api(method, params, bearer())).text();
      for (const form of hostForms) expect(body, `${method} ${JSON.stringify(params)}`).not.toContain(form);
    }
    const info = (await (await api('app.info', {}, bearer())).json()) as { result: { root: string } };
    expect(info.result.root).toBe(realpathSync(root).split('/').pop());
    const notRun = (await (await api('runs.get', { runId: 'tasks' }, bearer())).json()) as {
      error: { message: string };
    };
    expect(notRun.error.message).toMatch(/^tasks: not a run folder/);
  });

  it('sends live events with paths relative to the served folder', async () => {
    const { cookie } = await login(`/?token=${server.token}`);
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events`, { headers: { cookie } });
    await new Promise((ok, fail) => (ws.once('open', ok), ws.once('error', fail)));
    const got = new Promise<string>((ok) => ws.once('message', (m) => ok(String(m))));
    const error = `setup failed: ${realpathSync(root)}/results/r1/sandbox/home is not writable`;
    workbench.events.publish('run', {
      kind: 'task.finished',
      runId: 'results/r1',
      taskKey: 'a/b',
      at: '2026-01-01T00:00:00Z',
      state: 'setup_error',
      error,
    });
    const message = JSON.parse(await got) as { payload: { error: string } };
    ws.close();
    expect(message.payload.error).toBe('setup failed: results/r1/sandbox/home is not writable');
  });

  it('answers a run whose manifest is 100,000 levels deep with a problem entry, not a 500', async () => {
    const res = await api('runs.get', { runId: 'runs/deep' }, bearer());
    expect(res.status).toBe(200);
    const detail = (
      (await res.json()) as {
        result: { run: { error?: string }; problems: { file: string; message: string }[] };
      }
    ).result;
    expect(detail.run.error).toMatch(/deeper than \d+ levels/);
    expect(detail.problems).toEqual([
      expect.objectContaining({
        file: 'runs/deep/manifest.json',
        message: expect.stringMatching(/deeper than \d+ levels \(line 1, column \d+\)/),
      }),
    ]);
    expect((await api('runs.task', { runId: 'runs/deep', taskKey: 'a/b' }, bearer())).status).toBe(404);
    const list = (await (await api('runs.list', {}, bearer())).json()) as {
      result: { runId: string; error?: string }[];
    };
    expect(list.result.map((r) => r.runId).sort()).toEqual(['deep', 'fine']);
  });
});
