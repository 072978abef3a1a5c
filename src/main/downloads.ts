// Files a task would fetch from the internet (OSWorld's `download` setup steps, `cloud_file` getters, the guest
// server's /setup/download_file). Behind a firewall a person supplies them in a downloads folder (`--downloads
// DIR`): by `DIR/downloads.json` (URL → file in the folder) or by the URL's last path name. With a folder given,
// nothing is fetched and a missing file is an error naming the URL; without one, the URL is fetched.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';

export const DOWNLOADS_MAP = 'downloads.json';
const FETCH_TIMEOUT_MS = 300_000;

export class DownloadError extends Error {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

/**
 * The name a file for `url` has in a downloads folder: its last path segment, decoded — except for links that
 * name the file by an `id` query under a bare endpoint (Google Drive's `uc?id=…`, `download?id=…`, which most
 * OSWorld tasks use): every one of those ends in the same `uc` or `download`, so the file is named by its id.
 */
export function downloadName(url: string): string | undefined {
  try {
    const u = new URL(url);
    const name = decodeURIComponent(basename(u.pathname));
    const id = u.searchParams.get('id');
    if (id && !name.includes('.') && /^[\w-]{1,200}$/.test(id)) return id;
    return name && !name.startsWith('.') && !name.includes('/') && !name.includes('\\') ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The file standing for `url` in the downloads folder `dir`, or undefined. */
export async function downloadedFile(dir: string, url: string): Promise<string | undefined> {
  const root = resolve(dir);
  const mapFile = join(root, DOWNLOADS_MAP);
  if (existsSync(mapFile)) {
    let map: unknown;
    try {
      map = JSON.parse(await readFile(mapFile, 'utf8'));
    } catch (e) {
      throw new DownloadError(`${mapFile}: not JSON: ${(e as Error).message}`, url);
    }
    if (!map || typeof map !== 'object' || Array.isArray(map))
      throw new DownloadError(`${mapFile}: must be an object of URL → file name`, url);
    const rel = Object.prototype.hasOwnProperty.call(map, url)
      ? (map as Record<string, unknown>)[url]
      : undefined;
    if (rel !== undefined) {
      if (typeof rel !== 'string')
        throw new DownloadError(`${mapFile}: the entry for ${url} must be a file name`, url);
      const p = resolve(root, rel);
      if (!p.startsWith(root + sep))
        throw new DownloadError(`${mapFile}: the entry for ${url} leaves the downloads folder`, url);
      if (existsSync(p)) return p;
      throw new DownloadError(`${mapFile} maps ${url} to ${rel}, which is not in ${root}`, url);
    }
  }
  const name = downloadName(url);
  const p = name ? join(root, name) : undefined;
  return p && existsSync(p) ? p : undefined;
}

/** The bytes of `url`: from the downloads folder when one is given (never the network then), else fetched. */
export async function fetchDownload(
  url: string,
  o: { downloads?: string; signal?: AbortSignal } = {},
): Promise<Buffer> {
  if (o.downloads) {
    const file = await downloadedFile(o.downloads, url);
    if (!file) {
      const name = downloadName(url);
      throw new DownloadError(
        `no file for ${url} in the downloads folder ${resolve(o.downloads)}: ${name ? `save it there as ${name}, or ` : ''}map the URL to a file in ${DOWNLOADS_MAP}`,
        url,
      );
    }
    return readFile(file);
  }
  const signal = o.signal
    ? AbortSignal.any([o.signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)])
    : AbortSignal.timeout(FETCH_TIMEOUT_MS);
  try {
    const res = await fetch(url, { signal });
    if (!res.ok) throw new Error(`HTTP ${res.status} ${res.statusText}`);
    return Buffer.from(await res.arrayBuffer());
  } catch (e) {
    const c = (e as { cause?: { code?: string; message?: string } }).cause;
    const cause = c?.code ?? c?.message ?? (e as Error).message;
    throw new DownloadError(
      `cannot download ${url} (${cause}): the machine may be offline or the URL unreachable; save the file in a folder and pass it with --downloads`,
      url,
    );
  }
}
