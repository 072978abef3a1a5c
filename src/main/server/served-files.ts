// The one rule for files below the served root that a UI may load — over HTTP (`/files/…` of `proctor serve`) and
// in the Electron shell (the `proctor-file:` protocol): regular files only, inside the root also through symlinks,
// no hidden file or folder (`.env`, `.git/…`, `.lock`) on the asked path or the real one, at most 64 MB per answer;
// images, video, JSON and text inline, anything else as a download, and never as a page that could run. Byte ranges
// (`Range: bytes=…`, 206 Partial Content) so a screen recording seeks without being read whole.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { extname, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { resolveBelow } from '../workbench/paths';

export const MAX_SERVED_FILE = 64 * 1024 * 1024;
/** Recordings may be larger than one answer: they are served in byte ranges of at most MAX_SERVED_FILE. */
export const MAX_SERVED_MEDIA = 8 * 1024 * 1024 * 1024;

/** Types shown inline; everything else is sent as application/octet-stream with `content-disposition: attachment`. */
export const inlineTypes: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
};

/** A served file may show images and styles of its own, and nothing in it runs. */
export const SERVED_FILE_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

const media = new Set(['.mp4', '.webm']);

export type ServedFile =
  | {
      ok: true;
      file: string;
      size: number;
      /** 206 when a byte range was asked for and is sent, else 200 (the whole file). */
      status: 200 | 206;
      /** First and last byte sent (inclusive); end < start for an empty file. */
      start: number;
      end: number;
      headers: Record<string, string>;
    }
  | {
      ok: false;
      status: 400 | 403 | 404 | 413 | 416;
      code: 'bad_request' | 'forbidden' | 'not_found';
      message: string;
    };

/**
 * The one byte range of a `Range` header, clamped to the file and to `cap` bytes (a client asking for `bytes=0-`
 * of a large recording gets the first `cap` bytes and asks on). `undefined` = no usable single range: the whole
 * file is sent (several ranges, other units, or a malformed header, which RFC 9110 lets a server ignore);
 * `'unsatisfiable'` = it starts past the end.
 */
export function byteRange(
  header: string | undefined,
  size: number,
  cap = MAX_SERVED_FILE,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    // `bytes=-n`: the last n bytes.
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return undefined;
  }
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, start + cap - 1) };
}

const hidden = (path: string) => path.split(/[\\/]/).some((seg) => seg.startsWith('.'));

/**
 * Decides whether `rel` (a path below `root`, already URL-decoded) may be served, which bytes (`range`: the
 * request's Range header) and with which headers.
 */
export function servedFile(root: string, rel: string, range?: string): ServedFile {
  if (rel.includes('\0')) return { ok: false, status: 400, code: 'bad_request', message: 'bad file name' };
  if (hidden(rel))
    return { ok: false, status: 403, code: 'forbidden', message: 'hidden files are not served' };
  let file: string;
  try {
    file = resolveBelow(root, rel);
  } catch (e) {
    return { ok: false, status: 403, code: 'forbidden', message: (e as Error).message };
  }
  let size: number;
  try {
    const real = realpathSync(file);
    // A visible name may be a symlink to a hidden file inside the root: the real path obeys the rule too.
    if (hidden(relative(realpathSync(root), real).split(sep).join('/'))) {
      return { ok: false, status: 403, code: 'forbidden', message: 'hidden files are not served' };
    }
    const stat = statSync(real);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    return { ok: false, status: 404, code: 'not_found', message: `no file '${rel}'` };
  }
  const ext = extname(file).toLowerCase();
  const limit = media.has(ext) ? MAX_SERVED_MEDIA : MAX_SERVED_FILE;
  if (size > limit) {
    return {
      ok: false,
      status: 413,
      code: 'bad_request',
      message: `file too large: ${rel} (${size} bytes; the limit is ${limit})`,
    };
  }
  const part = byteRange(range, size);
  if (part === 'unsatisfiable') {
    return {
      ok: false,
      status: 416,
      code: 'bad_request',
      message: `range not satisfiable: ${range} of ${rel} (${size} bytes)`,
    };
  }
  if (!part && size > MAX_SERVED_FILE) {
    return {
      ok: false,
      status: 413,
      code: 'bad_request',
      message: `file too large to send whole: ${rel} (${size} bytes); ask for byte ranges (Range: bytes=…)`,
    };
  }
  const { start, end } = part ?? { start: 0, end: size - 1 };
  const type = inlineTypes[ext];
  return {
    ok: true,
    file,
    size,
    status: part ? 206 : 200,
    start,
    end,
    headers: {
      'content-type': type ?? 'application/octet-stream',
      ...(type ? {} : { 'content-disposition': 'attachment' }),
      'content-length': String(Math.max(0, end - start + 1)),
      'accept-ranges': 'bytes',
      ...(part ? { 'content-range': `bytes ${start}-${end}/${size}` } : {}),
      'content-security-policy': SERVED_FILE_CSP,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=60',
    },
  };
}

/** The bytes that passed the rule, never more (a file that grows after the check). */
export function openServedFile(found: { file: string; start: number; end: number }): Readable {
  return createReadStream(found.file, { start: found.start, end: Math.max(found.start, found.end) });
}

/**
 * The same rule as a fetch Response for a `proctor-file://root/<path>` URL (the Electron protocol handler), byte
 * ranges included. Only GET and HEAD; a malformed URL or percent-escape is a 400.
 */
export function servedFileResponse(
  root: string,
  request: { url: string; method?: string; headers?: { get(name: string): string | null } },
): Response {
  const refuse = (status: number, message: string) =>
    new Response(message, {
      status,
      headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
    });
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return refuse(405, 'method not allowed');
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(request.url).pathname).replace(/^\/+/, '');
  } catch {
    return refuse(400, 'malformed URL');
  }
  const found = servedFile(root, rel, request.headers?.get('range') ?? undefined);
  if (!found.ok) return refuse(found.status, found.message);
  const body =
    method === 'HEAD' || found.end < found.start
      ? null
      : (Readable.toWeb(openServedFile(found)) as ReadableStream<Uint8Array>);
  return new Response(body, { status: found.status, headers: found.headers });
}
