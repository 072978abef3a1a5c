// What setup observes after a step to know it did what the benchmark's VM would have done: a window with the
// opened file's name, a window's exact title, a file of the right size at its guest path. Each check is bounded
// and says what it saw when it fails; an environment that cannot observe a thing makes the check say so.
import { posix } from 'node:path';
import type { Environment } from '../env/environment';
import { SetupStepFailure } from './setup-error';
import { sleep as pause } from '../sleep';

/** How long an `open` step waits for its window (LibreOffice's cold start on a slow machine is well under it). */
export const OPEN_WINDOW_MS = 20_000;
/** How long `activate_window` waits for its window to exist, and `close_window` for it to go. */
export const WINDOW_MS = 10_000;
const POLL_MS = 150;

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  pause(ms, signal, () => new SetupStepFailure('cancelled'));

const shownTitles = (titles: string[]): string =>
  titles.length ? titles.map((t) => `'${t}'`).join(', ') : 'none';

/**
 * Polls the environment's window titles until one satisfies `match`; gives that title, how long it took and
 * whether it was there at the first look.
 * Throws SetupStepFailure naming `what`, the bound and the titles last seen.
 */
export async function waitForWindow(
  env: Environment & Required<Pick<Environment, 'windowTitles'>>,
  match: (title: string) => boolean,
  what: string,
  ms: number,
  signal?: AbortSignal,
): Promise<{ title: string; waitedMs: number; atOnce: boolean }> {
  const t0 = Date.now();
  let titles: string[];
  for (let look = 0; ; look++) {
    titles = await env.windowTitles();
    const hit = titles.find(match);
    if (hit !== undefined) return { title: hit, waitedMs: Date.now() - t0, atOnce: look === 0 };
    if (Date.now() - t0 >= ms) break;
    await sleep(POLL_MS, signal);
  }
  throw new SetupStepFailure(
    `${what} did not appear within ${ms / 1000} s (windows on screen: ${shownTitles(titles)})`,
  );
}

/** Polls until no window satisfies `match`; throws naming the ones still there. */
export async function waitForNoWindow(
  env: Environment & Required<Pick<Environment, 'windowTitles'>>,
  match: (title: string) => boolean,
  what: string,
  ms: number,
  signal?: AbortSignal,
): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    const left = (await env.windowTitles()).filter(match);
    if (!left.length) return Date.now() - t0;
    if (Date.now() - t0 >= ms)
      throw new SetupStepFailure(
        `${what} ${shownTitles(left)} still open after ${ms / 1000} s (a dialog may be asking something)`,
      );
    await sleep(POLL_MS, signal);
  }
}

/** Whether the environment can list its windows (the kind implements windowTitles). */
export function canListWindows(
  env: Environment,
): env is Environment & Required<Pick<Environment, 'windowTitles'>> {
  return typeof env.windowTitles === 'function';
}

/** `~/x` as the guest's `/home/user/x`; `file://` URLs as paths; anything else as given. */
export function guestPathOf(target: string): string {
  if (/^file:\/\//i.test(target)) {
    try {
      return decodeURIComponent(new URL(target).pathname);
    } catch {
      return target;
    }
  }
  if (target === '~' || target.startsWith('~/')) return '/home/user' + target.slice(1);
  return target;
}

/** True / false when the environment can tell whether a guest path exists; undefined when it cannot. */
export async function guestPathExists(env: Environment, path: string): Promise<boolean | undefined> {
  if (env.capabilities.has('shell')) {
    const r = await env.run(['test', '-e', path], { timeoutMs: 10_000 });
    if (r.exitCode === 0) return true;
    if (r.exitCode === 1) return false;
  }
  try {
    return (await env.getFile(path)) !== undefined;
  } catch {
    return undefined;
  }
}

/** Reads the file back and compares its size with what was written; throws naming the path and both sizes. */
export async function expectGuestFile(env: Environment, path: string, size: number): Promise<string> {
  const back = await env.getFile(path);
  if (back === undefined)
    throw new SetupStepFailure(
      `the file was written but ${path} does not exist in the environment afterwards`,
    );
  if (back.length !== size)
    throw new SetupStepFailure(`${path} holds ${back.length} bytes after writing ${size}`);
  return `${path}: ${size} bytes`;
}

/** Files whose viewer titles the window with the document's own title (a page's <title>, a PDF's metadata). */
const SELF_TITLED = new Set(['.html', '.htm', '.xhtml', '.pdf', '.svg']);

/**
 * What an `open` of a guest file should show: a window whose title holds the file's name (with or without its
 * extension, as openers title it; case-insensitive), or — for self-titled documents — any window not there before.
 */
export function openedWindowMatch(
  path: string,
  before: ReadonlySet<string>,
): { match: (title: string) => boolean; what: string } {
  const name = posix.basename(path.replace(/\/+$/, ''));
  const ext = posix.extname(name).toLowerCase();
  const stem = ext ? name.slice(0, -ext.length) : name;
  const names = [name, stem].filter(Boolean).map((n) => n.toLowerCase());
  const byName = (t: string): boolean => names.some((n) => t.toLowerCase().includes(n));
  if (SELF_TITLED.has(ext)) {
    return {
      match: (t) => byName(t) || !before.has(t),
      what: `a window for ${name} (titled with its name, or any new window)`,
    };
  }
  return { match: byName, what: `a window titled with '${name}'` };
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
