// The one rule for files below the served root that a UI may load — over HTTP (`/files/…` of `proctor serve`) and
// in the Electron shell (the `proctor-file:` protocol): regular files only, inside the root also through symlinks,
// no hidden file or folder (`.env`, `.git/…`, `.lock`) on the asked path or the real one, at most 64 MB; images,
// JSON and text inline, anything else as a download, and never as a page that could run.
import { createReadStream, realpathSync, statSync } from 'node:fs';
import { extname, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { resolveBelow } from '../workbench/paths';

export const MAX_SERVED_FILE = 64 * 1024 * 1024;

/** Types shown inline; everything else is sent as application/octet-stream with `content-disposition: attachment`. */
export const inlineTypes: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.log': 'text/plain; charset=utf-8',
};

/** A served file may show images and styles of its own, and nothing in it runs. */
export const SERVED_FILE_CSP = "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";

export type ServedFile =
  | { ok: true; file: string; size: number; headers: Record<string, string> }
  | { ok: false; status: 400 | 403 | 404 | 413; code: 'bad_request' | 'forbidden' | 'not_found'; message: string };

const hidden = (path: string) => path.split(/[\\/]/).some((seg) => seg.startsWith('.'));

/** Decides whether `rel` (a path below `root`, already URL-decoded) may be served, and with which headers. */
export function servedFile(root: string, rel: string): ServedFile {
  if (rel.includes('\0')) return { ok: false, status: 400, code: 'bad_request', message: 'bad file name' };
  if (hidden(rel)) return { ok: false, status: 403, code: 'forbidden', message: 'hidden files are not served' };
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
  if (size > MAX_SERVED_FILE) {
    return { ok: false, status: 413, code: 'bad_request', message: `file too large: ${rel} (${size} bytes; the limit is ${MAX_SERVED_FILE})` };
  }
  const type = inlineTypes[extname(file).toLowerCase()];
  return {
    ok: true,
    file,
    size,
    headers: {
      'content-type': type ?? 'application/octet-stream',
      ...(type ? {} : { 'content-disposition': 'attachment' }),
      'content-length': String(size),
      'content-security-policy': SERVED_FILE_CSP,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, max-age=60',
    },
  };
}

/** The file's bytes, never more than the size that passed the rule (a file that grows after the check). */
export function openServedFile(found: { file: string; size: number }): Readable {
  return createReadStream(found.file, { start: 0, end: Math.max(0, found.size - 1) });
}

/**
 * The same rule as a fetch Response for a `proctor-file://root/<path>` URL (the Electron protocol handler).
 * Only GET and HEAD; a malformed URL or percent-escape is a 400.
 */
export function servedFileResponse(root: string, request: { url: string; method?: string }): Response {
  const refuse = (status: number, message: string) =>
    new Response(message, { status, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' } });
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return refuse(405, 'method not allowed');
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(request.url).pathname).replace(/^\/+/, '');
  } catch {
    return refuse(400, 'malformed URL');
  }
  const found = servedFile(root, rel);
  if (!found.ok) return refuse(found.status, found.message);
  const body = method === 'HEAD' || found.size === 0 ? null : (Readable.toWeb(openServedFile(found)) as ReadableStream<Uint8Array>);
  return new Response(body, { status: 200, headers: found.headers });
}
