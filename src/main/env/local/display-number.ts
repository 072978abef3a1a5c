// A display number for a namespace sandbox's X server. Its Xvfb runs in a private /tmp, so it cannot see the
// host's lock files: Proctor takes the number on the host with the X convention (`/tmp/.X<N>-lock` created
// exclusively, holding the owner's pid) and links `/tmp/.X11-unix/X<N>` to the socket inside the sandbox's /tmp,
// so host-side clients (the display worker, xdotool) reach it as `:N`. Locks of dead owners are taken over.
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  unlinkSync,
  writeSync,
  chmodSync,
} from 'node:fs';
import { EnvironmentError } from '../../errors';
import { processAlive as alive } from '../../process-alive';

const FIRST = 100;
const LAST = 2000;
const X_DIR = '/tmp/.X11-unix';

export interface DisplayNumber {
  num: number;
  /** Links the host's `/tmp/.X11-unix/X<N>` to the socket path the sandbox's server listens on. */
  linkSocket(hostSocketPath: string): void;
  release(): void;
}

function lockOwner(lock: string): number | undefined {
  try {
    return Number(readFileSync(lock, 'latin1').trim());
  } catch {
    return undefined;
  }
}

function unlinkQuiet(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    /* gone */
  }
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Takes a free display number on the host. */
export function reserveDisplayNumber(): DisplayNumber {
  if (!existsSync(X_DIR)) {
    mkdirSync(X_DIR, { recursive: true });
    chmodSync(X_DIR, 0o1777);
  }
  const retried = new Set<number>();
  for (let num = FIRST; num <= LAST; num++) {
    const lock = `/tmp/.X${num}-lock`;
    const socket = `${X_DIR}/X${num}`;
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o444);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new EnvironmentError(`cannot create ${lock}: ${(e as Error).message}`);
      const owner = lockOwner(lock);
      if (owner !== undefined && !alive(owner) && !retried.has(num)) {
        retried.add(num);
        // A dead owner's lock (a crashed Proctor or X server): take it over on the next pass.
        unlinkQuiet(lock);
        if (isSymlink(socket)) unlinkQuiet(socket);
        num--;
      }
      continue;
    }
    writeSync(fd, `${String(process.pid).padStart(10)}\n`);
    closeSync(fd);
    if (existsSync(socket) || isSymlink(socket)) {
      // Someone's server without a lock file: leave the number alone.
      unlinkQuiet(lock);
      continue;
    }
    let linked = false;
    return {
      num,
      linkSocket(hostSocketPath) {
        symlinkSync(hostSocketPath, socket);
        linked = true;
      },
      release() {
        if (linked && isSymlink(socket)) unlinkQuiet(socket);
        if (lockOwner(lock) === process.pid) unlinkQuiet(lock);
      },
    };
  }
  throw new EnvironmentError(`no free X display number between :${FIRST} and :${LAST}`);
}
