// A lean D-Bus client for the accessibility walk: method calls only, many outstanding on one socket, replies
// decoded straight from the wire (D-Bus specification, "Message Protocol"). A walk makes thousands of small calls;
// dbus-next spent more CPU marshalling them than LibreOffice spent answering (bench/observe.ts), this does not.
import { connect, type Socket } from 'node:net';

/** An error reply (a dead object, a missing interface). */
export class DBusCallError extends Error {
  constructor(
    readonly errorName: string,
    message: string,
  ) {
    super(`${errorName}: ${message}`);
  }
}

/** The connection ended (closed, reset, or failed()) before the reply came. */
export class DBusClosedError extends Error {}

/** A decoded variant: its signature and value (the shape dbus-next gives, which callers read as `.value`). */
export interface Variant {
  signature: string;
  value: unknown;
}

const METHOD_CALL = 1;
const METHOD_RETURN = 2;
const ERROR = 3;
const FIELD = {
  path: 1,
  interface: 2,
  member: 3,
  errorName: 4,
  replySerial: 5,
  destination: 6,
  signature: 8,
} as const;
const ALIGN: Record<string, number> = {
  y: 1,
  b: 4,
  n: 2,
  q: 2,
  i: 4,
  u: 4,
  x: 8,
  t: 8,
  d: 8,
  h: 4,
  s: 4,
  o: 4,
  g: 1,
  a: 4,
  '(': 8,
  '{': 8,
  v: 1,
};

const splitCache = new Map<string, string[]>();

/** The complete types of a signature (`ii(so)` → `i`, `i`, `(so)`). */
export function splitSignature(sig: string): string[] {
  let known = splitCache.get(sig);
  if (!known) {
    known = split(sig);
    if (splitCache.size < 512) splitCache.set(sig, known);
  }
  return known;
}

function split(sig: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < sig.length) {
    const end = typeEnd(sig, i);
    out.push(sig.slice(i, end));
    i = end;
  }
  return out;
}

function typeEnd(sig: string, i: number): number {
  const c = sig[i];
  if (c === 'a') return typeEnd(sig, i + 1);
  if (c === '(' || c === '{') {
    const close = c === '(' ? ')' : '}';
    let j = i + 1;
    while (sig[j] !== close) {
      if (j >= sig.length) throw new Error(`D-Bus signature '${sig}': unclosed '${c}'`);
      j = typeEnd(sig, j);
    }
    return j + 1;
  }
  if (!(c in ALIGN)) throw new Error(`D-Bus signature '${sig}': unknown type '${c}' at ${i}`);
  return i + 1;
}

// ---- writing (little-endian) -----------------------------------------------------------------------------------

class Writer {
  buf: Buffer;
  len = 0;
  /** Where alignment counts from (the start of the message being written). */
  base = 0;

  constructor(size = 256) {
    this.buf = Buffer.allocUnsafe(size);
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + n));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  align(n: number): void {
    const pad = (n - ((this.len - this.base) % n)) % n;
    this.room(pad);
    this.buf.fill(0, this.len, this.len + pad);
    this.len += pad;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.len++] = v;
  }

  u32(v: number): void {
    this.align(4);
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.len);
    this.len += 4;
  }

  string(v: string): void {
    const bytes = Buffer.byteLength(v);
    this.u32(bytes);
    this.room(bytes + 1);
    this.buf.write(v, this.len);
    this.len += bytes;
    this.buf[this.len++] = 0;
  }

  bytes(src: Buffer, n: number): void {
    this.room(n);
    src.copy(this.buf, this.len, 0, n);
    this.len += n;
  }

  signature(v: string): void {
    const bytes = Buffer.byteLength(v);
    this.room(bytes + 2);
    this.buf[this.len++] = bytes;
    this.buf.write(v, this.len);
    this.len += bytes;
    this.buf[this.len++] = 0;
  }

  value(type: string, v: unknown): void {
    const c = type[0];
    switch (c) {
      case 'y':
        return this.u8(Number(v));
      case 'b':
        return this.u32(v ? 1 : 0);
      case 'n':
      case 'q':
        this.align(2);
        this.room(2);
        if (c === 'n') this.buf.writeInt16LE(Number(v), this.len);
        else this.buf.writeUInt16LE(Number(v), this.len);
        this.len += 2;
        return;
      case 'i':
        this.align(4);
        this.room(4);
        this.buf.writeInt32LE(Number(v), this.len);
        this.len += 4;
        return;
      case 'u':
      case 'h':
        return this.u32(Number(v));
      case 'x':
      case 't':
        this.align(8);
        this.room(8);
        if (c === 'x') this.buf.writeBigInt64LE(BigInt(v as number), this.len);
        else this.buf.writeBigUInt64LE(BigInt(v as number), this.len);
        this.len += 8;
        return;
      case 'd':
        this.align(8);
        this.room(8);
        this.buf.writeDoubleLE(Number(v), this.len);
        this.len += 8;
        return;
      case 's':
      case 'o':
        return this.string(String(v));
      case 'g':
        return this.signature(String(v));
      case 'v': {
        const { signature, value } = v as Variant;
        this.signature(signature);
        return this.value(signature, value);
      }
      case '(': {
        this.align(8);
        const fields = splitSignature(type.slice(1, -1));
        const values = v as unknown[];
        fields.forEach((f, i) => this.value(f, values[i]));
        return;
      }
      case 'a': {
        const elem = type.slice(1);
        this.u32(0);
        const lenAt = this.len - 4;
        this.align(ALIGN[elem[0]]);
        const start = this.len;
        if (elem[0] === '{') {
          const [k, val] = splitSignature(elem.slice(1, -1));
          for (const [key, item] of Object.entries((v ?? {}) as Record<string, unknown>)) {
            this.align(8);
            this.value(k, key);
            this.value(val, item);
          }
        } else {
          for (const item of (v ?? []) as unknown[]) this.value(elem, item);
        }
        this.buf.writeUInt32LE(this.len - start, lenAt);
        return;
      }
      default:
        throw new Error(`D-Bus: cannot write type '${type}'`);
    }
  }
}

interface CallMessage {
  destination?: string;
  path: string;
  iface: string;
  member: string;
  signature?: string;
  body?: unknown[];
}

/** The body being serialised (one at a time: writing is synchronous). */
const bodyScratch = new Writer();

/** One header field (code, signature, string value), at an 8-byte boundary. */
function headerField(w: Writer, code: number, sig: 'o' | 's' | 'g', value: string): void {
  w.align(8);
  w.u8(code);
  w.signature(sig);
  if (sig === 'g') w.signature(value);
  else w.string(value);
}

/** Appends a method call message to `w` (at its end, where the message's alignment counts from). */
function writeCall(w: Writer, serial: number, m: CallMessage): void {
  const body = bodyScratch;
  body.len = 0;
  const sig = m.signature ?? '';
  if (sig) splitSignature(sig).forEach((t, i) => body.value(t, m.body?.[i]));
  w.base = w.len;
  w.u8(0x6c); // 'l': little-endian
  w.u8(METHOD_CALL);
  w.u8(0);
  w.u8(1);
  w.u32(body.len);
  w.u32(serial);
  w.u32(0); // the header fields' length, written below
  const fieldsAt = w.len;
  headerField(w, FIELD.path, 'o', m.path);
  headerField(w, FIELD.interface, 's', m.iface);
  headerField(w, FIELD.member, 's', m.member);
  if (m.destination) headerField(w, FIELD.destination, 's', m.destination);
  if (sig) headerField(w, FIELD.signature, 'g', sig);
  w.buf.writeUInt32LE(w.len - fieldsAt, fieldsAt - 4);
  w.align(8);
  w.bytes(body.buf, body.len);
  w.base = w.len;
}

/** A method call message, serialised. */
export function encodeCall(serial: number, m: CallMessage): Buffer {
  const w = new Writer();
  writeCall(w, serial, m);
  return w.buf.subarray(0, w.len);
}

// ---- reading -----------------------------------------------------------------------------------------------------

class Reader {
  constructor(
    private readonly buf: Buffer,
    public pos: number,
    private readonly le: boolean,
    /** Where alignment counts from (the message's first byte). */
    private readonly base: number,
  ) {}

  align(n: number): void {
    const rel = this.pos - this.base;
    this.pos += (n - (rel % n)) % n;
  }

  u32(): number {
    this.align(4);
    const v = this.le ? this.buf.readUInt32LE(this.pos) : this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    return v;
  }

  value(type: string): unknown {
    const b = this.buf;
    const c = type[0];
    switch (c) {
      case 'y':
        return b[this.pos++];
      case 'b':
        return this.u32() !== 0;
      case 'n':
      case 'q': {
        this.align(2);
        const v =
          c === 'n'
            ? this.le
              ? b.readInt16LE(this.pos)
              : b.readInt16BE(this.pos)
            : this.le
              ? b.readUInt16LE(this.pos)
              : b.readUInt16BE(this.pos);
        this.pos += 2;
        return v;
      }
      case 'i': {
        this.align(4);
        const v = this.le ? b.readInt32LE(this.pos) : b.readInt32BE(this.pos);
        this.pos += 4;
        return v;
      }
      case 'u':
      case 'h':
        return this.u32();
      case 'x':
      case 't': {
        this.align(8);
        const v =
          c === 'x'
            ? this.le
              ? b.readBigInt64LE(this.pos)
              : b.readBigInt64BE(this.pos)
            : this.le
              ? b.readBigUInt64LE(this.pos)
              : b.readBigUInt64BE(this.pos);
        this.pos += 8;
        return Number(v);
      }
      case 'd': {
        this.align(8);
        const v = this.le ? b.readDoubleLE(this.pos) : b.readDoubleBE(this.pos);
        this.pos += 8;
        return v;
      }
      case 's':
      case 'o': {
        const n = this.u32();
        const s = b.toString('utf8', this.pos, this.pos + n);
        this.pos += n + 1;
        return s;
      }
      case 'g': {
        const n = b[this.pos++];
        const s = b.toString('latin1', this.pos, this.pos + n);
        this.pos += n + 1;
        return s;
      }
      case 'v': {
        const signature = this.value('g') as string;
        return { signature, value: this.value(signature) } satisfies Variant;
      }
      case '(': {
        this.align(8);
        return splitSignature(type.slice(1, -1)).map((f) => this.value(f));
      }
      case 'a': {
        const n = this.u32();
        const elem = type.slice(1);
        this.align(ALIGN[elem[0]]);
        const end = this.pos + n;
        if (elem[0] === '{') {
          const [k, val] = splitSignature(elem.slice(1, -1));
          const out: Record<string, unknown> = {};
          while (this.pos < end) {
            this.align(8);
            const key = String(this.value(k));
            out[key] = this.value(val);
          }
          return out;
        }
        const out: unknown[] = [];
        while (this.pos < end) out.push(this.value(elem));
        return out;
      }
      default:
        throw new Error(`D-Bus: cannot read type '${type}'`);
    }
  }
}

interface Reply {
  type: number;
  replySerial?: number;
  errorName?: string;
  body: unknown[];
}

/** Decodes the message at `buf[at..]`; its length must have been checked (messageLength). */
function decodeMessage(buf: Buffer, at: number): Reply {
  const le = buf[at] === 0x6c;
  const r = new Reader(buf, at + 12, le, at);
  const fields = r.value('a(yv)') as [number, Variant][];
  r.align(8);
  const reply: Reply = { type: buf[at + 1], body: [] };
  let sig = '';
  for (const [code, v] of fields) {
    if (code === FIELD.replySerial) reply.replySerial = Number(v.value);
    else if (code === FIELD.errorName) reply.errorName = String(v.value);
    else if (code === FIELD.signature) sig = String(v.value);
  }
  if (reply.type === METHOD_RETURN || reply.type === ERROR) {
    // the body's alignment counts from its own start, which is 8-aligned in the message
    const body = new Reader(buf, r.pos, le, r.pos);
    reply.body = splitSignature(sig).map((t) => body.value(t));
  }
  return reply;
}

/** Bytes of the whole message starting at `at`, or undefined when its fixed header is not all there yet. */
function messageLength(buf: Buffer, at: number): number | undefined {
  if (buf.length - at < 16) return undefined;
  const le = buf[at] === 0x6c;
  const bodyLen = le ? buf.readUInt32LE(at + 4) : buf.readUInt32BE(at + 4);
  const fieldsLen = le ? buf.readUInt32LE(at + 12) : buf.readUInt32BE(at + 12);
  const header = 16 + fieldsLen;
  return header + ((8 - (header % 8)) % 8) + bodyLen;
}

// ---- the connection ----------------------------------------------------------------------------------------------

interface Waiting {
  resolve: (body: unknown[]) => void;
  reject: (e: Error) => void;
  /** The caller's group (failGroup), if any. */
  group?: object;
}

/** Where a D-Bus address points: the first `unix:path=`, `unix:abstract=` or `tcp:` entry. */
function socketOf(address: string): { path: string } | { host: string; port: number } {
  for (const entry of address.split(';')) {
    const colon = entry.indexOf(':');
    const kind = entry.slice(0, colon);
    const params = Object.fromEntries(
      entry
        .slice(colon + 1)
        .split(',')
        .map((kv) => [kv.slice(0, kv.indexOf('=')), decodeURIComponent(kv.slice(kv.indexOf('=') + 1))]),
    );
    if (kind === 'unix' && params.path) return { path: params.path };
    if (kind === 'unix' && params.abstract) return { path: `\0${params.abstract}` };
    if (kind === 'tcp' && params.port) return { host: params.host || '127.0.0.1', port: Number(params.port) };
  }
  throw new Error(
    `no D-Bus address this client can use in '${address.replace(/,guid=[0-9a-f]+/i, '')}' (unix:path, unix:abstract or tcp)`,
  );
}

export class DBusConnection {
  private serial = 1;
  private readonly waiting = new Map<number, Waiting>();
  private pending: Buffer = Buffer.alloc(0);
  private closedBy: Error | undefined;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (e) => this.fail(new DBusClosedError(`D-Bus connection failed: ${e.message}`)));
    socket.on('close', () => this.fail(new DBusClosedError('D-Bus connection closed')));
  }

  /** A connection over a socket that has already been through the handshake (BEGIN sent), with no bus behind it. */
  static adopt(socket: Socket): DBusConnection {
    const c = new DBusConnection(socket);
    socket.resume();
    return c;
  }

  /** Whether it has failed or been closed. */
  get closed(): boolean {
    return !!this.closedBy;
  }

  /** Lets the process exit while this connection is open (a connection kept between walks). */
  unref(): this {
    this.socket.unref();
    return this;
  }

  /**
   * Connects and authenticates (EXTERNAL, by this process's uid); on a message bus (`hello`, the default) also
   * registers with Hello. Rejects when that has not happened within `timeoutMs`.
   */
  static connect(address: string, o: { hello?: boolean; timeoutMs?: number } = {}): Promise<DBusConnection> {
    return new Promise((resolve, reject) => {
      let target: ReturnType<typeof socketOf>;
      try {
        target = socketOf(address);
      } catch (e) {
        return reject(e);
      }
      const socket = 'path' in target ? connect(target.path) : connect(target.port, target.host);
      socket.setNoDelay?.(true);
      let settled = false;
      const timer = setTimeout(
        () => done(new Error(`D-Bus: no answer to the handshake within ${o.timeoutMs ?? 3000} ms`)),
        o.timeoutMs ?? 3000,
      );
      const done = (e?: Error, c?: DBusConnection): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (e) {
          socket.destroy();
          reject(e);
        } else resolve(c!);
      };
      socket.once('error', (e) => done(e));
      socket.once('connect', () => {
        const uid = String(process.getuid?.() ?? 0);
        socket.write(`\0AUTH EXTERNAL ${Buffer.from(uid).toString('hex')}\r\n`);
      });
      let text = '';
      const onAuth = (chunk: Buffer): void => {
        text += chunk.toString('latin1');
        const nl = text.indexOf('\r\n');
        if (nl < 0) return;
        socket.off('data', onAuth);
        if (!text.startsWith('OK '))
          return done(new Error(`D-Bus authentication refused: ${text.slice(0, nl)}`));
        socket.write('BEGIN\r\n');
        const conn = new DBusConnection(socket);
        const rest = Buffer.from(text.slice(nl + 2), 'latin1');
        if (rest.length) conn.onData(rest);
        if (o.hello === false) return done(undefined, conn);
        conn
          .call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello')
          .then(() => done(undefined, conn))
          .catch((e: Error) => done(e));
      };
      socket.on('data', onAuth);
    });
  }

  /**
   * Calls a method; resolves with the reply's body, rejects with DBusCallError or DBusClosedError (or the error
   * given to failGroup for `group`).
   */
  call(
    destination: string | undefined,
    path: string,
    iface: string,
    member: string,
    signature = '',
    body: unknown[] = [],
    group?: object,
  ): Promise<unknown[]> {
    if (this.closedBy) return Promise.reject(this.closedBy);
    const serial = this.serial++;
    // the calls made in one turn of the event loop leave in one write (one system call, one wake-up of the bus),
    // each serialised straight into that write's buffer
    if (this.outgoing.len === 0) queueMicrotask(this.flush);
    const before = this.outgoing.len;
    try {
      writeCall(this.outgoing, serial, { destination, path, iface, member, signature, body });
    } catch (e) {
      this.outgoing.len = before; // nothing of a call that cannot be written is sent
      return Promise.reject(e as Error);
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(serial, { resolve, reject, group });
    });
  }

  /** Fails the calls of `group` still in flight with `error` (their replies are then ignored); the connection stays. */
  failGroup(group: object, error: Error): void {
    for (const [serial, w] of this.waiting) {
      if (w.group !== group) continue;
      this.waiting.delete(serial);
      w.reject(error);
    }
  }

  private outgoing = new Writer(4096);

  private readonly flush = (): void => {
    const batch = this.outgoing;
    if (!batch.len || this.closedBy) return;
    // the socket keeps the buffer until it is sent: the next calls get a new one
    this.outgoing = new Writer(Math.min(1 << 20, Math.max(4096, batch.len)));
    this.socket.write(batch.buf.subarray(0, batch.len));
  };

  /** Calls in flight. */
  get inFlight(): number {
    return this.waiting.size;
  }

  /** Fails every call in flight and every later one with `error`, and closes the socket. */
  fail(error: Error): void {
    if (!this.closedBy) this.closedBy = error;
    for (const w of this.waiting.values()) w.reject(this.closedBy);
    this.waiting.clear();
    this.socket.destroy();
  }

  close(): void {
    this.fail(new DBusClosedError('D-Bus connection closed'));
  }

  private onData(chunk: Buffer): void {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    for (;;) {
      const len = messageLength(buf, at);
      if (len === undefined || buf.length - at < len) break;
      let reply: Reply | undefined;
      try {
        reply = decodeMessage(buf, at);
      } catch (e) {
        return this.fail(new DBusClosedError(`D-Bus: a malformed message: ${(e as Error).message}`));
      }
      at += len;
      if (reply.replySerial === undefined) continue; // signals, and calls to us, are not answered here
      const w = this.waiting.get(reply.replySerial);
      if (!w) continue;
      this.waiting.delete(reply.replySerial);
      if (reply.type === ERROR)
        w.reject(
          new DBusCallError(
            reply.errorName ?? 'org.freedesktop.DBus.Error.Failed',
            String(reply.body[0] ?? ''),
          ),
        );
      else w.resolve(reply.body);
    }
    buf = buf.subarray(at);
    this.pending = buf.length ? Buffer.from(buf) : Buffer.alloc(0);
  }
}
