// `proctor serve` refuses what a web page in the user's browser could send it, and serves other people's
// files without letting them run.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, type Workbench } from '../workbench/workbench';
import { startServer, type RunningServer } from './http-server';
import { rawRequest, type RawOptions } from './testing/served';

let root: string;
let server: RunningServer;
let workbench: Workbench;

const raw = (path: string, opts?: RawOptions) => rawRequest(server.port, path, opts);
const call = { method: 'app.info', params: {} };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-serve-'));
  mkdirSync(join(root, 'ui'));
  writeFileSync(join(root, 'ui', 'index.html'), '<!doctype html><title>ui</title>');
  mkdirSync(join(root, 'runs'));
  writeFileSync(join(root, 'runs', 'page.html'), '<script>fetch("/api/call")</script>');
  writeFileSync(join(root, 'runs', 'shot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(root, 'runs', '.secret'), 'key');
  workbench = createWorkbench(root, { transport: 'http' });
  server = await startServer({
    root,
    handlers: workbench.handlers,
    events: workbench.events,
    uiDir: join(root, 'ui'),
    port: 0,
  });
});
afterAll(async () => {
  await server?.close();
  await workbench?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('proctor serve on loopback', () => {
  it('answers its own page', async () => {
    const r = await raw('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${server.port}` },
      body: JSON.stringify(call),
    });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).result.name).toBe('proctor');
  });

  it('refuses calls from another site and calls that are not JSON (no CSRF)', async () => {
    const foreign = await raw('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify(call),
    });
    expect(foreign.status).toBe(403);
    const fetchMeta = await raw('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify(call),
    });
    expect(fetchMeta.status).toBe(403);
    const plain = await raw('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify(call),
    });
    expect(plain.status).toBe(415);
    const notObject = await raw('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'null',
    });
    expect(notObject.status).toBe(400);
  });

  it('refuses Host names that only look like loopback (DNS rebinding)', async () => {
    for (const host of ['127.evil.example', `127.0.0.1.nip.io:${server.port}`, 'evil.example']) {
      const r = await raw('/files/runs/shot.png', { headers: { host } });
      expect(r.status, host).toBe(403);
    }
    expect(
      (await raw('/files/runs/shot.png', { headers: { host: `localhost:${server.port}` } })).status,
    ).toBe(200);
  });

  it("serves images inline but other people's HTML only as a sandboxed download, and no hidden files", async () => {
    const png = await raw('/files/runs/shot.png');
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-security-policy']).toMatch(/^sandbox/);
    const html = await raw('/files/runs/page.html');
    expect(html.headers['content-type']).toBe('application/octet-stream');
    expect(html.headers['content-disposition']).toBe('attachment');
    expect((await raw('/files/runs/.secret')).status).toBe(403);
    expect((await raw('/files/%E0')).status).toBe(400);
    expect((await raw('/files/..%2f..%2fetc%2fpasswd')).status).toBe(403);
  });

  it('lets only its own pages listen to events', async () => {
    const open = (origin: string) =>
      new Promise<string>((done) => {
        const ws = new WebSocket(`ws://127.0.0.1:${server.port}/events`, { origin });
        ws.on('open', () => (ws.close(), done('open')));
        ws.on('error', () => done('refused'));
      });
    expect(await open('https://evil.example')).toBe('refused');
    expect(await open(`http://127.0.0.1:${server.port}`)).toBe('open');
  });
});

describe('proctor serve bound elsewhere', () => {
  it('requires the printed token', async () => {
    const tokenServer = await startServer({
      root,
      handlers: workbench.handlers,
      events: workbench.events,
      uiDir: join(root, 'ui'),
      port: 0,
      token: true,
    });
    try {
      expect(tokenServer.token).toMatch(/^[\w-]{20,}$/);
      const url = `http://127.0.0.1:${tokenServer.port}/api/call`;
      const without = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(call),
      });
      expect(without.status).toBe(401);
      const withToken = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokenServer.token}` },
        body: JSON.stringify(call),
      });
      expect(withToken.status).toBe(200);
    } finally {
      await tokenServer.close();
    }
  });
});
