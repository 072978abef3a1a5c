// What every endpoint handler gets: the current environment (waiting out a reset), guest paths mapped to host
// paths within the allowed folders, and small helpers over the display (pointer, windows).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { titlePattern, type LocalEnvironment } from '../env/local';
import { HttpError } from './http-io';

export const GUEST_HOME = '/home/user';

export interface DownloadSource {
  /** Folder holding the files a task would fetch: by `downloads.json` (URL → file in the folder) or by name. */
  dir: string;
}

export interface GuestOptions {
  /** Host folders (absolute) whose files the file endpoints may read and write besides the guest home and /tmp. */
  allowPaths: string[];
  downloads?: DownloadSource;
  /** Timeout of /execute commands. Default 120 s. */
  commandTimeoutMs: number;
  /** How long /setup/open_file waits for a window titled with the file's name. Default 15 s. */
  openWaitMs: number;
}

export interface Guest {
  readonly options: GuestOptions;
  /** The environment; during a reset, the fresh one once it is ready. */
  env(): Promise<LocalEnvironment>;
  /** Per-environment state of endpoints (recording, wallpaper), dropped on reset. */
  state: GuestState;
}

export interface GuestState {
  wallpaper?: string;
  recording?: { stop(): Promise<Buffer> };
}

export type Handler = (req: IncomingMessage, res: ServerResponse, guest: Guest, url: URL) => Promise<void>;
export interface Route {
  method: 'GET' | 'POST';
  path: string;
  handler: Handler;
}

/** `~`, `$HOME`, `${USER}`-style references expanded as the guest would. */
export function expandGuestPath(p: string): string {
  let out = p.replace(/\$\{(\w+)\}|\$(\w+)/g, (m, a: string | undefined, b: string | undefined) => {
    const name = a ?? b;
    if (name === 'HOME') return GUEST_HOME;
    if (name === 'USER' || name === 'LOGNAME') return 'user';
    return m;
  });
  if (out === '~' || out.startsWith('~/')) out = GUEST_HOME + out.slice(1);
  return out;
}

function within(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/**
 * The host path of a guest path: absolute paths inside an --allow-paths folder as they are; the guest home, ~ and
 * /tmp (and relative paths) mapped into the sandbox home. Anything else is refused with 403.
 */
export function hostPath(guest: Guest, env: LocalEnvironment, guestPath: string): string {
  const p = expandGuestPath(guestPath);
  const abs = isAbsolute(p) ? resolve(p) : undefined;
  // An --allow-paths folder is the operator's explicit choice: it wins over the guest mapping.
  if (abs && guest.options.allowPaths.some((d) => within(d, abs))) return abs;
  const sandboxed = !abs || within(GUEST_HOME, abs) || within('/tmp', abs);
  try {
    return env.home.toHost(p);
  } catch (e) {
    const message = `${(e as Error).message}${sandboxed ? '' : ' (--allow-paths widens this)'}`;
    throw new HttpError(403, { status: 'error', error: message, message });
  }
}

/**
 * Writes a file at a guest path. Inside the sandbox home it goes through the environment (so the sandbox's own
 * user owns it and the agent's programs can change it); in an --allow-paths folder it is written as it is.
 */
export async function writeGuestFile(
  guest: Guest,
  env: LocalEnvironment,
  guestPath: string,
  data: Buffer,
): Promise<void> {
  const host = hostPath(guest, env, guestPath);
  const inSandbox = env.home.toGuest(host);
  if (inSandbox !== undefined) return env.putFile(inSandbox, data);
  await mkdir(dirname(host), { recursive: true });
  await writeFile(host, data);
}

/** Puts the host file `file` at `guestPath` (moved where it can be), with the rules of writeGuestFile. */
export async function moveIntoGuest(
  guest: Guest,
  env: LocalEnvironment,
  guestPath: string,
  file: string,
): Promise<void> {
  const host = hostPath(guest, env, guestPath);
  const inSandbox = env.home.toGuest(host);
  if (inSandbox !== undefined) return env.putFileFrom(inSandbox, file);
  await mkdir(dirname(host), { recursive: true });
  await rename(file, host).catch(async (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EXDEV') throw e;
    await copyFile(file, host);
    await rm(file, { force: true });
  });
}

/** The pointer position on the display. */
export async function pointerPosition(env: LocalEnvironment): Promise<{ x: number; y: number }> {
  const r = await env.run(['xdotool', 'getmouselocation', '--shell'], { timeoutMs: 5000 });
  const x = /X=(-?\d+)/.exec(r.stdout)?.[1];
  const y = /Y=(-?\d+)/.exec(r.stdout)?.[1];
  if (r.exitCode !== 0 || x === undefined || y === undefined)
    throw new Error(`cannot read the pointer position on ${env.display}: ${r.stderr.trim()}`);
  return { x: Number(x), y: Number(y) };
}

/** Ids of visible windows whose title (or class) contains `name` (equals it when strict). */
export async function findWindows(
  env: LocalEnvironment,
  name: string,
  o: { strict?: boolean; byClass?: boolean } = {},
): Promise<string[]> {
  const pattern = titlePattern(name, !!o.strict);
  const r = await env.run(['xdotool', 'search', '--onlyvisible', o.byClass ? '--class' : '--name', pattern], {
    timeoutMs: 10_000,
  });
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^\d+$/.test(l));
}

export { sleep } from '../sleep';
