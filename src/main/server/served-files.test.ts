// One rule for files a UI may load, the same in both shells: `proctor serve`'s /files/… and the Electron
// `proctor-file:` protocol (whose handler is servedFileResponse) answer every case alike, byte ranges included
// (a screen recording made here with ffmpeg seeks in a <video> only when 206 Partial Content is answered).
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkbench, type Workbench } from '../workbench/workbench';
import { startServer, type RunningServer } from './http-server';
import { byteRange, MAX_SERVED_FILE, servedFileResponse } from './served-files';

const ffmpegMissing = existsSync('/usr/bin/ffmpeg') ? undefined : 'no ffmpeg at /usr/bin/ffmpeg';

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
  writeFileSync(join(root, 'runs', 'long.mp4'), '');
  truncateSync(join(root, 'runs', 'long.mp4'), MAX_SERVED_FILE * 2); // a recording larger than one answer
  if (!ffmpegMissing) {
    execFileSync('ffmpeg', [
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=3:size=160x120:rate=5',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      join(root, 'runs', 'recording.mp4'),
    ]);
  }
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
      if (type === 'application/octet-stream')
        expect(res.headers.get('content-disposition')).toBe('attachment');
      if (path === 'runs/shot.png')
        expect(Buffer.from(await res.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
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
    expect(
      servedFileResponse(root, { url: 'proctor-file://root/runs/shot.png', method: 'POST' }).status,
    ).toBe(405);
    const head = servedFileResponse(root, { url: 'proctor-file://root/runs/shot.png', method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('4');
  });
});

describe('byte ranges', () => {
  it('parses one range, clamps it to the file and to one answer, and ignores what it cannot serve', () => {
    expect(byteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=900-5000', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(byteRange('bytes=0-', 10_000, 4096)).toEqual({ start: 0, end: 4095 });
    expect(byteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 1000)).toBe('unsatisfiable');
    for (const ignored of [undefined, '', 'bytes=0-1,5-9', 'items=0-1', 'bytes=9-3', 'bytes=-', 'bytes=a-b'])
      expect(byteRange(ignored, 1000)).toBeUndefined();
  });

  it.skipIf(!!ffmpegMissing)(
    `serves a recording in ranges, over HTTP and the protocol alike${ffmpegMissing ? ` (skipped: ${ffmpegMissing})` : ''}`,
    async () => {
      const whole = readFileSync(join(root, 'runs', 'recording.mp4'));
      expect(whole.subarray(4, 8).toString()).toBe('ftyp');
      const size = whole.length;
      const ask = async (range?: string) => {
        const headers = range ? { range } : undefined;
        const viaHttp = await fetch(`http://127.0.0.1:${server.port}/files/runs/recording.mp4`, { headers });
        const viaProtocol = servedFileResponse(root, {
          url: 'proctor-file://root/runs/recording.mp4',
          headers: new Headers(headers),
        });
        const answers = [];
        for (const res of [viaHttp, viaProtocol]) {
          answers.push({
            status: res.status,
            type: res.headers.get('content-type'),
            ranges: res.headers.get('accept-ranges'),
            range: res.headers.get('content-range'),
            length: res.headers.get('content-length'),
            body: Buffer.from(await res.arrayBuffer()),
          });
        }
        // Refusals differ only in their body (JSON over HTTP, text over the protocol).
        if (answers[0].status < 400) expect(answers[1]).toEqual(answers[0]);
        else expect(answers[1].status).toBe(answers[0].status);
        return answers[0];
      };
      const full = await ask();
      expect(full).toMatchObject({
        status: 200,
        type: 'video/mp4',
        ranges: 'bytes',
        range: null,
        length: String(size),
      });
      expect(full.body.equals(whole)).toBe(true);
      const head = await ask('bytes=0-99');
      expect(head).toMatchObject({
        status: 206,
        type: 'video/mp4',
        ranges: 'bytes',
        range: `bytes 0-99/${size}`,
        length: '100',
      });
      expect(head.body.equals(whole.subarray(0, 100))).toBe(true);
      const middle = await ask(`bytes=${size - 500}-`);
      expect(middle).toMatchObject({
        status: 206,
        range: `bytes ${size - 500}-${size - 1}/${size}`,
        length: '500',
      });
      expect(middle.body.equals(whole.subarray(size - 500))).toBe(true);
      const tail = await ask('bytes=-64');
      expect(tail.body.equals(whole.subarray(size - 64))).toBe(true);
      expect((await ask(`bytes=${size}-`)).status).toBe(416);
    },
  );

  it('serves a recording larger than one answer only in ranges, each at most the cap', async () => {
    const url = 'proctor-file://root/runs/long.mp4';
    expect(servedFileResponse(root, { url }).status).toBe(413);
    const open = servedFileResponse(root, {
      url,
      method: 'HEAD',
      headers: new Headers({ range: 'bytes=0-' }),
    });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 0-${MAX_SERVED_FILE - 1}/${MAX_SERVED_FILE * 2}`);
    const far = await fetch(`http://127.0.0.1:${server.port}/files/runs/long.mp4`, {
      headers: { range: `bytes=${MAX_SERVED_FILE + 10}-${MAX_SERVED_FILE + 19}` },
    });
    expect(far.status).toBe(206);
    expect(far.headers.get('content-range')).toBe(
      `bytes ${MAX_SERVED_FILE + 10}-${MAX_SERVED_FILE + 19}/${MAX_SERVED_FILE * 2}`,
    );
    expect((await far.arrayBuffer()).byteLength).toBe(10);
    // Other files keep the whole-file cap: a range does not open a way around it.
    expect(
      servedFileResponse(root, {
        url: 'proctor-file://root/runs/huge.log',
        headers: new Headers({ range: 'bytes=0-9' }),
      }).status,
    ).toBe(413);
  });
});
