// Frame fuzz: a real `proctor serve` child process gets handcrafted WebSocket frames over raw TCP sockets on
// /events — unmasked, reserved opcodes, bad UTF-8, lying lengths, garbage. Each may close its own socket only:
// the process keeps running and keeps answering other clients.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = resolve(import.meta.dirname, '../../..');
let root: string;
let child: ChildProcess;
let port: number;
let output = '';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'proctor-wsfuzz-'));
  child = spawn(process.execPath, [join(projectRoot, 'bin/proctor.mjs'), 'serve', '--port', '0', root], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  port = await new Promise<number>((ok, fail) => {
    const check = () => {
      const m = /Open http:\/\/[^:]+:(\d+)\//.exec(output);
      if (m) ok(Number(m[1]));
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => fail(new Error(`proctor serve exited with ${code}:\n${output}`)));
  });
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  rmSync(root, { recursive: true, force: true });
});

/** A client frame; `mask` false leaves out the mask a client must send. */
function frame(first: number, payload: Buffer, opts: { mask?: boolean; length?: Buffer } = {}): Buffer {
  const mask = opts.mask ?? true;
  let header: Buffer;
  if (opts.length) header = Buffer.concat([Buffer.from([first]), opts.length]);
  else if (payload.length < 126) header = Buffer.from([first, (mask ? 0x80 : 0) | payload.length]);
  else {
    header = Buffer.from([first, (mask ? 0x80 : 0) | 126, 0, 0]);
    header.writeUInt16BE(payload.length, 2);
  }
  if (!mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const body = Buffer.from(payload.map((b, i) => b ^ key[i % 4]));
  return Buffer.concat([header, key, body]);
}

const upgrade = (path = '/events') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`;

/** Opens /events over a raw socket, sends `bytes` after the handshake; resolves with what came back once closed. */
function sendRaw(bytes: Buffer, handshake = upgrade()): Promise<Buffer> {
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    let upgraded = false;
    const socket = connect(port, '127.0.0.1', () => socket.write(handshake));
    socket.on('data', (d) => {
      chunks.push(d);
      if (!upgraded && Buffer.concat(chunks).includes('\r\n\r\n')) {
        upgraded = true;
        socket.write(bytes);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => ok(Buffer.concat(chunks)));
    setTimeout(() => (socket.destroy(), fail(new Error('the server kept a malformed socket open'))), 20_000);
  });
}

/** The status of an ordinary API call from another client; 0 when nothing answers. */
async function appInfoStatus(): Promise<number> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'app.info', params: {} }),
    });
    return res.status;
  } catch {
    return 0;
  }
}

const text = (s: string) => Buffer.from(s);
const u64 = (hi: number, lo: number) => {
  const b = Buffer.alloc(9);
  b[0] = 0x80 | 127;
  b.writeUInt32BE(hi, 1);
  b.writeUInt32BE(lo, 5);
  return b;
};

const hostileFrames: Record<string, Buffer> = {
  'unmasked text frame': frame(0x81, text('hi'), { mask: false }),
  'reserved data opcode 0x3': frame(0x83, text('x')),
  'reserved control opcode 0xB': frame(0x8b, text('x')),
  'text that is not UTF-8': frame(0x81, Buffer.from([0xc3, 0x28, 0xff, 0xfe])),
  'RSV1 without a negotiated extension': frame(0xc1, text('hi')),
  'RSV2 and RSV3 set': frame(0xb1, text('hi')),
  'continuation without a first fragment': frame(0x80, text('x')),
  'fragmented ping': frame(0x09, text('x')),
  'ping longer than 125 bytes': frame(0x89, Buffer.alloc(126, 1)),
  'close frame with a 1-byte body': frame(0x88, Buffer.from([3])),
  'close frame with a reserved code': frame(0x88, Buffer.from([0x03, 0xe7])),
  'close frame with bad UTF-8 reason': frame(0x88, Buffer.from([0x03, 0xe8, 0xff])),
  'payload above the size limit': frame(0x82, Buffer.alloc(5000, 7)),
  '64-bit length with the top bit set': Buffer.concat([
    Buffer.from([0x82]),
    u64(0x80000000, 0),
    randomBytes(4),
  ]),
  'length of 2^53': Buffer.concat([Buffer.from([0x82]), u64(0x200000, 0), randomBytes(4)]),
  'random garbage': randomBytes(4096),
};

describe('proctor serve against malformed WebSocket frames', () => {
  for (const [name, bytes] of Object.entries(hostileFrames)) {
    it(`closes only the socket that sent a ${name}`, async () => {
      const reply = await sendRaw(bytes);
      expect(reply.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
      expect(child.exitCode, output).toBeNull();
      expect(await appInfoStatus()).toBe(200);
    });
  }

  it('survives broken handshakes and resets mid-frame', async () => {
    await sendRaw(
      Buffer.alloc(0),
      'GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    );
    await sendRaw(
      Buffer.alloc(0),
      `GET /%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`,
    );
    await new Promise<void>((ok) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(upgrade()));
      socket.on('error', () => undefined);
      socket.on('close', () => ok());
      socket.once('data', () => {
        socket.write(frame(0x81, text('half a frame')).subarray(0, 5));
        socket.resetAndDestroy();
        ok();
      });
    });
    expect(child.exitCode, output).toBeNull();
  });

  it('keeps answering other clients after all of it', async () => {
    expect(await appInfoStatus()).toBe(200);
    const opened = await new Promise<string>((done) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/events`);
      ws.on('open', () => (ws.close(), done('open')));
      ws.on('error', (e) => done(e.message));
    });
    expect(opened).toBe('open');
    expect(child.exitCode, output).toBeNull();
    expect(output).not.toMatch(/Invalid WebSocket frame|Unhandled 'error'/);
  });
});
