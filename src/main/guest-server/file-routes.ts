// File endpoints, confined to the guest home and /tmp (and --allow-paths folders): /list_directory, /file,
// /setup/upload, /setup/download_file (from a --downloads folder when given), /setup/open_file, /desktop_path,
// /wallpaper and /setup/change_wallpaper.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { fetchDownload } from '../downloads';
import { HttpError, readForm, readJson, sendFile, sendJson, sendText, stringField, LIMITS } from './http-io';
import { MultipartError, multipartBoundary } from './multipart';
import { MultipartTooLarge, STREAM_LIMITS, streamMultipart, type StreamedPart } from './multipart-stream';
import {
  expandGuestPath,
  findWindows,
  GUEST_HOME,
  hostPath,
  moveIntoGuest,
  sleep,
  writeGuestFile,
  type Route,
} from './guest';

const TREE_MAX_ENTRIES = 20_000;
const TREE_MAX_DEPTH = 12;
const DOWNLOAD_TRIES = 3;
const DOWNLOAD_TIMEOUT_MS = 300_000;

type TreeNode = { type: 'file' | 'directory'; name: string; children?: TreeNode[] };

async function tree(
  dir: string,
  name: string,
  depth: number,
  budget: { left: number },
  hide: string[] = [],
): Promise<TreeNode> {
  const node: TreeNode = { type: 'directory', name, children: [] };
  if (depth >= TREE_MAX_DEPTH) return node;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const e of entries) {
    if (hide.includes(e.name)) continue;
    if (budget.left-- <= 0) break;
    if (e.isDirectory()) node.children!.push(await tree(join(dir, e.name), e.name, depth + 1, budget));
    else node.children!.push({ type: 'file', name: e.name });
  }
  return node;
}

const listDirectory: Route['handler'] = async (req, res, guest) => {
  const path = stringField(await readJson(req), 'path');
  if (!path) throw new HttpError(400, { error: "'path' is missing" });
  const env = await guest.env();
  const host = hostPath(guest, env, path);
  const s = await stat(host).catch(() => undefined);
  if (!s?.isDirectory()) throw new HttpError(400, { error: `'${path}' is not a directory` });
  // Named as the guest sees it; the sandbox home's private /tmp (.tmp) is not part of the guest's home.
  const hide = host === env.home.root ? [basename(env.home.tmp)] : [];
  const name = host === env.home.root ? 'user' : basename(host);
  sendJson(res, 200, { directory_tree: await tree(host, name, 0, { left: TREE_MAX_ENTRIES }, hide) });
};

const file: Route['handler'] = async (req, res, guest) => {
  const path = (await readForm(req)).file_path;
  if (!path) throw new HttpError(400, { error: "'file_path' is missing" });
  const env = await guest.env();
  const host = hostPath(guest, env, path);
  const s = await stat(host).catch(() => undefined);
  if (!s?.isFile()) throw new HttpError(404, { error: 'File not found' });
  sendFile(res, await readFile(host), 'application/octet-stream', basename(host));
};

// The file part goes to disk as it arrives (never whole in memory), then is moved into place.
const upload: Route['handler'] = async (req, res, guest) => {
  const boundary = multipartBoundary(req.headers['content-type']);
  if (!boundary) throw new HttpError(400, 'the request is not multipart/form-data');
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > LIMITS.uploadBytes) {
    req.resume();
    throw new HttpError(413, {
      status: 'error',
      message: `the request body is larger than ${LIMITS.uploadBytes} bytes`,
    });
  }
  const dir = await mkdtemp(join(tmpdir(), 'proctor-upload-'));
  try {
    let parts: StreamedPart[];
    try {
      parts = await streamMultipart(req, boundary, dir, { ...STREAM_LIMITS, bodyBytes: LIMITS.uploadBytes });
    } catch (e) {
      if (e instanceof MultipartTooLarge) throw new HttpError(413, { status: 'error', message: e.message });
      if (e instanceof MultipartError) throw new HttpError(400, `malformed multipart body: ${e.message}`);
      throw e;
    }
    const path = parts
      .find((p) => p.name === 'file_path' && p.filename === undefined)
      ?.data?.toString('utf8');
    const file = parts.find((p) => p.name === 'file_data')?.file;
    if (!path || !file)
      throw new HttpError(400, "the upload needs a 'file_path' field and a 'file_data' file part");
    const env = await guest.env();
    await moveIntoGuest(guest, env, path, file);
    sendText(res, 200, 'File uploaded successfully');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

async function fetchUrl(url: string): Promise<Buffer> {
  let last: Error | undefined;
  for (let i = 0; i < DOWNLOAD_TRIES; i++) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      const size = Number(r.headers.get('content-length'));
      if (size > LIMITS.uploadBytes) throw new Error(`larger than ${LIMITS.uploadBytes} bytes`);
      return Buffer.from(await r.arrayBuffer());
    } catch (e) {
      last = e as Error;
      if (i + 1 < DOWNLOAD_TRIES) await sleep(1000 * (i + 1));
    }
  }
  throw new HttpError(500, `cannot download ${url}: ${last?.message}`);
}

const downloadFile: Route['handler'] = async (req, res, guest) => {
  const body = await readJson(req);
  const url = stringField(body, 'url');
  const path = stringField(body, 'path');
  if (!url || !path) throw new HttpError(400, "'url' and 'path' are both needed");
  if (!/^https?:\/\//i.test(url)) throw new HttpError(400, `'${url}' is not an http(s) URL`);
  const env = await guest.env();
  hostPath(guest, env, path); // a path outside the sandbox is refused before anything is fetched
  let data: Buffer;
  const dir = guest.options.downloads?.dir;
  if (dir) {
    // the same folder rules as `proctor run --downloads` (downloads.ts); a missing file names the URL
    try {
      data = await fetchDownload(url, { downloads: dir });
    } catch (e) {
      throw new HttpError(500, (e as Error).message);
    }
  } else data = await fetchUrl(url);
  await writeGuestFile(guest, env, path, data);
  sendText(res, 200, 'File downloaded successfully');
};

const openFile: Route['handler'] = async (req, res, guest) => {
  const path = stringField(await readJson(req), 'path');
  if (!path) throw new HttpError(400, "'path' is missing");
  const env = await guest.env();
  const guestPath = expandGuestPath(path);
  let host: string | undefined;
  try {
    host = hostPath(guest, env, guestPath);
  } catch {
    host = undefined;
  }
  if (host && existsSync(host)) {
    try {
      const inHome = env.home.toGuest(host);
      if (inHome) await env.open(inHome);
      else await env.launch(['xdg-open', `file://${host}`]); // an --allow-paths file outside the guest home (a URL: not remapped)
    } catch (e) {
      throw new HttpError(500, `cannot open ${path}: ${(e as Error).message}`);
    }
    // Like OSWorld: answer once a window titled with the file's name shows (bounded; some openers retitle).
    const name = basename(host, extname(host));
    const end = Date.now() + guest.options.openWaitMs;
    while (Date.now() < end && !(await findWindows(env, name)).length) await sleep(300);
    return sendText(res, 200, `File opened successfully: ${path}`);
  }
  // Not a file: a program on PATH.
  if (!/^[\w.+-]+$/.test(path)) throw new HttpError(404, `File not found: ${path}`);
  const which = await env.run(['/bin/sh', '-c', 'command -v "$0"', path], { timeoutMs: 5000 });
  if (which.exitCode !== 0) throw new HttpError(404, `File not found: ${path}`);
  await env.launch([path]);
  sendText(res, 200, `Application launched successfully: ${path}`);
};

const desktopPath: Route['handler'] = async (_req, res, guest) => {
  const env = await guest.env();
  const host = hostPath(guest, env, `${GUEST_HOME}/Desktop`);
  if (!existsSync(host)) throw new HttpError(404, { error: 'no Desktop folder' });
  sendJson(res, 200, { desktop_path: `${GUEST_HOME}/Desktop` });
};

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

const wallpaper: Route['handler'] = async (_req, res, guest) => {
  const p = guest.state.wallpaper;
  if (!p) throw new HttpError(404, { error: 'no wallpaper has been set on this display' });
  const data = await readFile(p).catch(() => undefined);
  if (!data) throw new HttpError(404, { error: 'the wallpaper file is gone' });
  sendFile(res, data, IMAGE_TYPES[extname(p).toLowerCase()] ?? 'application/octet-stream', basename(p));
};

const changeWallpaper: Route['handler'] = async (req, res, guest) => {
  const path = stringField(await readJson(req), 'path');
  if (!path) throw new HttpError(400, "'path' is missing");
  const env = await guest.env();
  const host = hostPath(guest, env, path);
  if (!existsSync(host)) throw new HttpError(404, `File not found: ${path}`);
  // The sandbox desktop (openbox) draws no wallpaper; feh sets the root window when installed.
  // Guest paths go to env.run (it maps them); a host path under /tmp would be mapped a second time.
  const feh = await env.run(['feh', '--bg-fill', env.home.toGuest(host) ?? host], { timeoutMs: 10_000 });
  if (feh.exitCode !== 0 && !feh.stderr.startsWith('cannot run'))
    throw new HttpError(500, `feh could not set ${path}: ${feh.stderr.trim()}`);
  guest.state.wallpaper = host;
  sendText(res, 200, 'Wallpaper changed successfully');
};

export const fileRoutes: Route[] = [
  { method: 'POST', path: '/list_directory', handler: listDirectory },
  { method: 'POST', path: '/file', handler: file },
  { method: 'POST', path: '/setup/upload', handler: upload },
  { method: 'POST', path: '/setup/download_file', handler: downloadFile },
  { method: 'POST', path: '/setup/open_file', handler: openFile },
  { method: 'POST', path: '/desktop_path', handler: desktopPath },
  { method: 'POST', path: '/wallpaper', handler: wallpaper },
  { method: 'POST', path: '/setup/change_wallpaper', handler: changeWallpaper },
];
