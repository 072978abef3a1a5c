// A small gzip'd tar (POSIX ustar + pax path records) writer and a guarded reader for bundles: the reader takes
// untrusted archives — regular files and folders only, no absolute or `..` paths, no links, bounded sizes.
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip, createGzip } from 'node:zlib';
import { once } from 'node:events';
import { createHash } from 'node:crypto';

const BLOCK = 512;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len)
    len = String(len).length + Buffer.byteLength(body);
  return Buffer.from(`${len}${body}`);
}

function header(name: string, size: number, type: '0' | '5' | 'x', mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes a .tar.gz entry by entry; `addFile` streams a file and returns its SHA-256 and size as written. */
export class TarGzWriter {
  private readonly gzip = createGzip({ level: 6 });
  private readonly out: WriteStream;
  private readonly done: Promise<unknown>;
  constructor(
    file: string,
    private readonly mtime = Date.now() / 1000,
  ) {
    this.out = createWriteStream(file, { flags: 'wx' });
    this.gzip.pipe(this.out);
    this.done = once(this.out, 'close');
  }

  private async push(buf: Buffer): Promise<void> {
    if (!this.gzip.write(buf)) await once(this.gzip, 'drain');
  }

  private async head(name: string, size: number, type: '0' | '5'): Promise<void> {
    const bytes = Buffer.byteLength(name);
    if (bytes > 100 || !/^[\x20-\x7e]*$/.test(name)) {
      const pax = paxRecord('path', name);
      await this.push(header('PaxHeader', pax.length, 'x', this.mtime));
      await this.push(Buffer.concat([pax, padding(pax.length)]));
      name = name.replace(/[^\x20-\x7e]/g, '_').slice(-99);
    }
    await this.push(header(name, size, type, this.mtime));
  }

  async addBuffer(name: string, data: Buffer): Promise<void> {
    await this.head(name, data.length, '0');
    await this.push(Buffer.concat([data, padding(data.length)]));
  }

  /** Streams `path` into the archive as `name`; fails when the file changes size while being read. */
  async addFile(name: string, path: string, size: number): Promise<{ sha256: string; bytes: number }> {
    await this.head(name, size, '0');
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of createReadStream(path)) {
      const c = chunk as Buffer;
      bytes += c.length;
      if (bytes > size) throw new Error(`${path} grew while it was being bundled; bundle a finished run`);
      hash.update(c);
      await this.push(c);
    }
    if (bytes !== size) throw new Error(`${path} shrank while it was being bundled; bundle a finished run`);
    await this.push(padding(size));
    return { sha256: hash.digest('hex'), bytes };
  }

  async close(): Promise<void> {
    this.gzip.end(Buffer.alloc(BLOCK * 2));
    await this.done;
  }
}

export interface ExtractLimits {
  /** Total bytes of all files once extracted. */
  maxBytes: number;
  /** Number of entries. */
  maxEntries: number;
}

export const defaultExtractLimits: ExtractLimits = { maxBytes: 8 * 1024 ** 3, maxEntries: 500_000 };

/** Why an archive was refused, with the entry it was refused at. */
export class UnsafeArchiveError extends Error {}

/** Pulls exact byte counts out of a stream of chunks. */
class ByteReader {
  private chunks: Buffer[] = [];
  private have = 0;
  private ended = false;
  constructor(private readonly source: AsyncIterator<Buffer>) {}

  /** Up to `n` bytes (fewer only at the end of the stream). */
  async read(n: number): Promise<Buffer> {
    while (this.have < n && !this.ended) {
      const next = await this.source.next();
      if (next.done) this.ended = true;
      else {
        this.chunks.push(next.value);
        this.have += next.value.length;
      }
    }
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const take = all.subarray(0, Math.min(n, all.length));
    const rest = all.subarray(take.length);
    this.chunks = rest.length ? [rest] : [];
    this.have = rest.length;
    return take;
  }
}

function field(h: Buffer, start: number, len: number): string {
  const raw = h.subarray(start, start + len);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul < 0 ? len : nul).toString('utf8');
}

function parseOctal(h: Buffer, start: number, len: number, entry: string): number {
  if (h[start] & 0x80) throw new UnsafeArchiveError(`${entry}: base-256 sizes are not accepted`);
  const s = field(h, start, len).trim();
  if (!/^[0-7]*$/.test(s)) throw new UnsafeArchiveError(`${entry}: header field is not octal ('${s}')`);
  return s ? parseInt(s, 8) : 0;
}

/** A relative, normalised path with no `.`/`..` segments, backslashes or control characters; else an error. */
export function safeEntryPath(name: string): string {
  const p = name.replace(/\/+$/, '');
  if (!p || p.length > 4096) throw new UnsafeArchiveError(`entry '${name}': empty or overlong path`);
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p))
    throw new UnsafeArchiveError(`entry '${name}': absolute path`);
  if (p.includes('\\') || [...p].some((c) => c.charCodeAt(0) < 0x20))
    throw new UnsafeArchiveError(`entry '${name}': backslash or control character in the path`);
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.' || seg === '..')
      throw new UnsafeArchiveError(`entry '${name}': '${seg || '//'}' in the path (path traversal)`);
  }
  return p;
}

function parsePax(body: Buffer, entry: string): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    const sp = body.indexOf(0x20, i);
    if (sp < 0) break;
    const len = Number(body.subarray(i, sp).toString('ascii'));
    if (!Number.isInteger(len) || len <= 0 || i + len > body.length)
      throw new UnsafeArchiveError(`${entry}: malformed pax record`);
    const rec = body.subarray(sp + 1, i + len - 1).toString('utf8');
    const eq = rec.indexOf('=');
    if (eq > 0) out[rec.slice(0, eq)] = rec.slice(eq + 1);
    i += len;
  }
  return out;
}

/**
 * Extracts a .tar.gz into `dest` (a fresh, empty folder) and returns the files written (archive paths).
 * Refuses — before writing the entry — links, devices, absolute or `..` paths, duplicates, and archives past `limits`.
 */
export async function extractTarGz(
  archive: string,
  dest: string,
  limits: ExtractLimits = defaultExtractLimits,
): Promise<string[]> {
  const gunzip = createReadStream(archive).pipe(createGunzip());
  const reader = new ByteReader(gunzip[Symbol.asyncIterator]() as AsyncIterator<Buffer>);
  const seen = new Set<string>();
  const files: string[] = [];
  let total = 0;
  let entries = 0;
  let pax: Record<string, string> = {};
  try {
    for (;;) {
      const h = await reader.read(BLOCK);
      if (h.length === 0) break;
      if (h.length < BLOCK) throw new UnsafeArchiveError('the archive ends inside a header (truncated)');
      if (h.every((b) => b === 0)) break;
      if (++entries > limits.maxEntries)
        throw new UnsafeArchiveError(`more than ${limits.maxEntries} entries`);
      const rawName = [field(h, 345, 155), field(h, 0, 100)].filter(Boolean).join('/');
      const type = String.fromCharCode(h[156] || 0x30);
      const size = parseOctal(h, 124, 12, rawName);
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
      if (sum !== parseOctal(h, 148, 8, rawName))
        throw new UnsafeArchiveError(`entry '${rawName}': header checksum is wrong (corrupt archive)`);
      const padded = size + ((BLOCK - (size % BLOCK)) % BLOCK);
      if (type === 'x') {
        if (size > 1024 * 1024) throw new UnsafeArchiveError(`entry '${rawName}': pax header over 1 MiB`);
        const body = await reader.read(padded);
        pax = parsePax(body.subarray(0, size), rawName);
        continue;
      }
      if (type === 'L' || type === 'g') {
        // GNU tar's long name of the next entry; a pax global header (nothing in it is used)
        if (size > 64 * 1024)
          throw new UnsafeArchiveError(`entry '${rawName}': long-name header over 64 KiB`);
        const body = await reader.read(padded);
        if (type === 'L') pax = { path: body.subarray(0, size).toString('utf8').replace(/\0+$/, '') };
        continue;
      }
      const name = pax.path ?? rawName;
      pax = {};
      if (type !== '0' && type !== '5')
        throw new UnsafeArchiveError(
          `entry '${name}': type '${type}' (links, devices and the like are not accepted)`,
        );
      // `tar -C dir .` writes `./` before every name and a `./` folder entry: harmless, dropped.
      const plain = name.replace(/^(?:\.\/)+/, '');
      if (plain === '' || plain === '.') {
        if (type === '5') continue;
      }
      const rel = safeEntryPath(plain);
      if (seen.has(rel)) throw new UnsafeArchiveError(`entry '${name}': appears twice`);
      seen.add(rel);
      const target = join(dest, rel);
      if (type === '5') {
        await mkdir(target, { recursive: true });
        continue;
      }
      total += size;
      if (total > limits.maxBytes)
        throw new UnsafeArchiveError(
          `entry '${name}': the files exceed the limit of ${limits.maxBytes} bytes`,
        );
      await mkdir(join(target, '..'), { recursive: true });
      const fh = await open(target, 'wx', 0o644);
      try {
        let left = size;
        while (left > 0) {
          const chunk = await reader.read(Math.min(left, 1 << 16));
          if (!chunk.length)
            throw new UnsafeArchiveError(`entry '${name}': the archive ends inside it (truncated)`);
          await fh.write(chunk);
          left -= chunk.length;
        }
      } finally {
        await fh.close();
      }
      const pad = padded - size;
      if (pad && (await reader.read(pad)).length < pad)
        throw new UnsafeArchiveError(`entry '${name}': the archive ends inside it (truncated)`);
      files.push(rel);
    }
  } finally {
    gunzip.destroy();
  }
  return files;
}
