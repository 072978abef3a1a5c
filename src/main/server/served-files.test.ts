// One rule for files a UI may load, the same in both shells: `proctor serve`'s /files/… and the Electron
// `proctor-file:` protocol (whose handler is servedFileResponse) answer every case alike.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, type Workbench } from '../workbench/workbench';
import { startServer, type RunningServer } from './http-server';
import { MAX_SERVED_FILE, servedFileResponse } from './served-files';

let root: string;
let outside: string;
let server: RunningServer;
let workbench: Workbench;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-files-'));
  outside = mkdtempSync(join(tmpdir(), 'proctor-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET');
  mkdirSync(join(root, 'ui'));
  writeFileSync(join(root, 'ui', 'index.html'), '<!doctype html>');
  mkdirSync(join(root, 'runs', '.git'), { recursive: true });
  writeFileSync(join(root, 'runs', 'shot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(root, 'runs', 'page.html'), '<script>alert(1)</script>');
  writeFileSync(join(root, 'runs', 'empty.txt'), '');
  writeFileSync(join(root, '.env'), 'OPENAI_API_KEY=sk-leak');
  writeFileSync(join(root, 'runs', '.git', 'config'), '[core]');
  symlinkSync(join(root, '.env'), join(root, 'runs', 'innocent.txt'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'runs', 'out.txt'));
  writeFileSync(join(root, 'runs', 'huge.log'), '');
  truncateSync(join(root, 'runs', 'huge.log'), MAX_SERVED_FILE + 1); // sparse: no 64 MB written
  workbench = createWorkbench(root, { transport: 'http' });
  server = await startServer({ root, handlers: workbench.handlers, events: workbench.events, uiDir: join(root, 'ui'), port: 0 });
});
afterAll(async () => {
  await server?.close();
  await workbench?.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

/** [path as the UI's fileUrl() encodes it, expected status, expected content-type or undefined] */
const cases: [string, number, string?][] = [
  ['runs/shot.png', 200, 'image/png'],
  ['runs/page.html', 200, 'application/octet-stream'],
  ['runs/empty.txt', 200, 'text/plain; charset=utf-8'],
  ['.env', 403],
  ['runs/.git/config', 403],
  ['runs/%2Egit/config', 403],
  ['runs/innocent.txt', 403],
  ['runs/out.txt', 403],
  ['..%2F..%2Fetc%2Fpasswd', 403],
  ['runs/huge.log', 413],
  ['runs', 404],
  ['runs/missing.png', 404],
  ['runs/a%00b', 400],
];

describe('the served-file rule', () => {
  it.each(cases)('proctor-file:%s answers %i', async (path, status, type) => {
    const res = servedFileResponse(root, { url: `proctor-file://root/${path}`, method: 'GET' });
    expect(res.status).toBe(status);
    if (type) expect(res.headers.get('content-type')).toBe(type);
    if (status === 200) {
      expect(res.headers.get('content-security-policy')).toMatch(/^sandbox/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      if (type === 'application/octet-stream') expect(res.headers.get('content-disposition')).toBe('attachment');
      if (path === 'runs/shot.png') expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    } else {
      expect(await res.text()).not.toMatch(/sk-leak|OUTSIDE-SECRET|\[core\]/);
    }
  });

  it.each(cases)('HTTP /files/%s answers %i, as the protocol does', async (path, status, type) => {
    const res = await fetch(`http://127.0.0.1:${server.port}/files/${path}`);
    expect(res.status).toBe(status);
    if (type) expect(res.headers.get('content-type')).toBe(type);
    expect(await res.text()).not.toMatch(/sk-leak|OUTSIDE-SECRET|\[core\]/);
  });

  it('refuses malformed protocol URLs and methods other than GET and HEAD', async () => {
    expect(servedFileResponse(root, { url: 'proctor-file://root/%E0%A4%A' }).status).toBe(400);
    expect(servedFileResponse(root, { url: 'proctor-file://root/runs/shot.png', method: 'POST' }).status).toBe(405);
    const head = servedFileResponse(root, { url: 'proctor-file://root/runs/shot.png', method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('4');
  });
});
