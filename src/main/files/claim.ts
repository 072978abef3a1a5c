// Claiming a unique_id while a record is filed, across processes: `<dir>/.claims/<id>.lock`, created with O_EXCL
// (only one creator wins), holding the owner's pid and host, removed when the filing is done. The router checks
// the buckets and writes only while it holds the claim, so two filers of one id (two `dataflow route` processes,
// or `dataflow judge --route` at concurrency 2) are serialised: the first files, the second sees it filed.
// A claim left by a killed process (same host, pid gone) is taken over; one from another host is waited for.
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../process-alive';

/** The claims folder of a results type folder (hidden: not a bucket). */
export const CLAIMS_DIR = '.claims';
const WAIT_MS = 60_000;
/** An empty or unreadable claim this old is a creator that died between creating and writing it. */
const HALF_WRITTEN_MS = 10_000;

export class ClaimTimeoutError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: string,
    waitedMs = WAIT_MS,
    doing = 'the unique_id is being filed',
  ) {
    super(`${lockFile}: ${doing} by ${holder}; gave up waiting after ${waitedMs / 1000} s`);
    this.name = 'ClaimTimeoutError';
  }
}

interface ClaimBody {
  pid: number;
  host: string;
  nonce: string;
}

async function readBody(file: string): Promise<{ text: string; body?: ClaimBody } | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const v = JSON.parse(text) as Partial<ClaimBody>;
    if (typeof v.pid === 'number' && typeof v.host === 'string' && typeof v.nonce === 'string')
      return { text, body: v as ClaimBody };
  } catch {
    // half written: judged by its age below
  }
  return { text };
}

/** Whether a claim's owner is gone: a dead pid on this host, or a claim never written and left for long. */
async function isStale(file: string, seen: { text: string; body?: ClaimBody }): Promise<boolean> {
  if (seen.body)
    return seen.body.host === hostname() && seen.body.pid !== process.pid && !processAlive(seen.body.pid);
  const s = await stat(file).catch(() => undefined);
  return !!s && Date.now() - s.mtimeMs > HALF_WRITTEN_MS;
}

/**
 * Takes over a stale claim: moves it aside under a unique name, and puts it back (a hard link, never replacing)
 * if what was moved is not the claim judged stale (another filer took it over in between).
 */
async function takeOver(file: string, stale: string): Promise<void> {
  const aside = `${file}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await rename(file, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  const moved = await readFile(aside, 'utf8').catch(() => '');
  if (moved !== stale) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ClaimOptions {
  /** How long to wait for a live holder (default 60 s). */
  waitMs?: number;
  /** What the holder is doing, for the timeout's message (default: filing the unique_id). */
  doing?: string;
}

/**
 * Runs `fn` holding the claim on `id` in `dir` (created if needed); waits while another live holder has it.
 * `id` must already be a safe file name (the router checks it).
 */
export async function withClaim<T>(
  dir: string,
  id: string,
  fn: () => Promise<T>,
  options: ClaimOptions = {},
): Promise<T> {
  const waitMs = options.waitMs ?? WAIT_MS;
  const folder = join(dir, CLAIMS_DIR);
  const file = join(folder, `${id}.lock`);
  // made here, removed by the last filer out: a failed mkdir (it raced that removal) shows as ENOENT below
  const makeFolder = () => mkdir(folder, { recursive: true }).catch(() => undefined);
  await makeFolder();
  const mine: ClaimBody = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex') };
  const deadline = Date.now() + waitMs;
  let holder = 'another filer';
  let remade = 0;
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    try {
      await writeFile(file, JSON.stringify(mine), { flag: 'wx' });
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && remade++ < 100) {
        // the folder was removed by a filer that finished: make it again
        await makeFolder();
        continue;
      }
      if (code !== 'EEXIST') throw e;
    }
    const seen = await readBody(file);
    if (!seen) continue; // released in between: try again at once
    if (seen.body) holder = `process ${seen.body.pid} on ${seen.body.host}`;
    if (await isStale(file, seen)) {
      await takeOver(file, seen.text);
      continue;
    }
    if (Date.now() > deadline) throw new ClaimTimeoutError(file, holder, waitMs, options.doing);
    await pause(wait + Math.random() * wait);
  }
  try {
    return await fn();
  } finally {
    // release only our own claim (a claim taken over from us as stale is someone else's now)
    const now = await readBody(file).catch(() => undefined);
    if (now?.body?.nonce === mine.nonce) await unlink(file).catch(() => undefined);
    await rmdir(folder).catch(() => undefined); // the last filer out leaves no claims folder behind
  }
}
