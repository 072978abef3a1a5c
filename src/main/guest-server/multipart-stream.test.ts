// The streaming multipart reader: the same parts as the whole-body reader whatever the chunking (file data with
// boundary-like bytes intact, on disk), its caps and malformed bodies (files removed), and an upload much larger
// than what it keeps in memory.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MultipartError, parseMultipart } from './multipart';
import { MultipartTooLarge, STREAM_LIMITS, streamMultipart } from './multipart-stream';

const root = mkdtempSync(join(tmpdir(), 'proctor-multipart-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => mkdtempSync(join(root, `d${n++}-`));

async function* chunks(body: Buffer, size: number): AsyncIterable<Buffer> {
  for (let i = 0; i < body.length; i += size) yield body.subarray(i, i + size);
}

// File data holding a CR LF, a partial boundary and a boundary without its CR LF: all data, not ends.
const data = Buffer.concat([
  Buffer.from([0, 1, 2, 13, 10, 45, 45, 3]),
  Buffer.from('\r\n--Xy and --XyZ inside'),
  Buffer.alloc(300, 7),
]);
const body = Buffer.concat([
  Buffer.from(
    'preamble\r\n--XyZ\r\nContent-Disposition: form-data; name="file_path"\r\n\r\n/home/user/a.txt\r\n',
  ),
  Buffer.from(
    '--XyZ\r\nContent-Disposition: form-data; name="file_data"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n',
  ),
  data,
  Buffer.from('\r\n--XyZ--\r\nepilogue'),
]);

describe('streamed multipart', () => {
  it('gives the whole-body reader’s parts for any chunking, the file on disk', async () => {
    const whole = parseMultipart(body, 'XyZ');
    for (const size of [1, 2, 3, 7, 13, 64, body.length]) {
      const parts = await streamMultipart(chunks(body, size), 'XyZ', freshDir());
      expect(
        parts.map((p) => [p.name, p.filename, p.contentType, p.size]),
        `chunks of ${size}`,
      ).toEqual(whole.map((p) => [p.name, p.filename, p.contentType, p.data.length]));
      expect(parts[0].data?.toString()).toBe('/home/user/a.txt');
      expect(readFileSync(parts[1].file!).equals(data), `chunks of ${size}`).toBe(true);
    }
  });

  it('refuses a body, a field or a part count over its caps, and a malformed body, leaving no file behind', async () => {
    const cases: [Buffer, Partial<typeof STREAM_LIMITS>, RegExp, typeof MultipartError][] = [
      [body, { bodyBytes: 200 }, /larger than 200 bytes/, MultipartTooLarge],
      [body, { fieldBytes: 4 }, /the field 'file_path' is larger than 4 bytes/, MultipartTooLarge],
      [body, { parts: 1 }, /more than 1 multipart parts/, MultipartError],
      [body.subarray(0, body.length - 20), {}, /not closed by the boundary/, MultipartError],
      [Buffer.from('no boundary here'), {}, /no multipart boundary/, MultipartError],
      [Buffer.from('--XyZ\r\nX-Nothing: 1\r\n\r\nabc\r\n--XyZ--'), {}, /no form-data name/, MultipartError],
    ];
    for (const [b, limits, message, kind] of cases) {
      const dir = freshDir();
      const error = await streamMultipart(chunks(b, 5), 'XyZ', dir, { ...STREAM_LIMITS, ...limits }).catch(
        (e: Error) => e,
      );
      expect(error, String(message)).toBeInstanceOf(kind);
      expect((error as Error).message).toMatch(message);
      expect(readdirSync(dir), String(message)).toEqual([]);
    }
  });

  it('writes a 96 MiB upload to disk without holding it in memory', async () => {
    const size = 96 * 1024 * 1024;
    const block = Buffer.alloc(1024 * 1024, 0x5a);
    async function* upload(): AsyncIterable<Buffer> {
      yield Buffer.from(
        '--B\r\nContent-Disposition: form-data; name="file_data"; filename="big.bin"\r\n\r\n',
      );
      for (let i = 0; i < size / block.length; i++) yield block;
      yield Buffer.from('\r\n--B--\r\n');
    }
    global.gc?.();
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    const parts = await streamMultipart(upload(), 'B', freshDir());
    clearInterval(timer);
    expect(parts[0].size).toBe(size);
    expect(readFileSync(parts[0].file!).length).toBe(size);
    // Reading it whole would hold all 96 MiB at once; what is left is garbage not yet collected, well under half.
    expect(peak - before).toBeLessThan(size / 2);
  });
});
