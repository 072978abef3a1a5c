// Guest paths (as task files write them) mapped into a per-task sandbox home folder on the host.
//
//   /home/user/...  ~/...  ~  relative paths   →  <home>/...
//   /tmp/...                                   →  <home>/.tmp/...   (a private /tmp per task; commands run by
//                                                 the environment get TMPDIR=<home>/.tmp and see guest /tmp
//                                                 paths in their command text rewritten the same way)
//   any other absolute path, `..` that climbs out, or a symlink that leads out  →  SandboxPathError
// A home, when made, holds LibreOffice's prepared user profile (office-profile.ts).
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { ownedTempPrefix } from '../leftovers';
import { dirname, join, posix, relative, resolve, isAbsolute } from 'node:path';
import { prepareOfficeProfile } from './office-profile';

export const GUEST_HOME = '/home/user';
export const GUEST_TMP = '/tmp';

/** A guest path that would land outside the sandbox. */
export class SandboxPathError extends Error {
  constructor(
    readonly guestPath: string,
    reason: string,
  ) {
    super(`guest path '${guestPath}' is refused: ${reason}`);
    this.name = 'SandboxPathError';
  }
}

function inside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The deepest existing ancestor of `p` (p itself if it exists) resolved through symlinks, plus the rest. */
function realpathOfExisting(p: string): string {
  let cur = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(cur), ...rest.reverse());
    } catch {
      const parent = dirname(cur);
      if (parent === cur) return p;
      rest.push(relative(parent, cur));
      cur = parent;
    }
  }
}

export class SandboxHome {
  /** Host folder standing for the guest's `/home/user`. */
  readonly root: string;
  /** Host folder standing for the guest's `/tmp`. */
  readonly tmp: string;

  constructor(root: string) {
    this.root = realpathSync(resolve(root));
    this.tmp = join(this.root, '.tmp');
    mkdirSync(this.tmp, { recursive: true });
    // Before any process of the session starts (and before the namespace sandbox hands the home to its user).
    prepareOfficeProfile(this.root);
  }

  /** A fresh sandbox home under the host's temp folder. */
  static create(): SandboxHome {
    return new SandboxHome(mkdtempSync(ownedTempPrefix('home')));
  }

  /** Opens (creating if needed) the sandbox home at `root`. */
  static at(root: string): SandboxHome {
    mkdirSync(root, { recursive: true });
    return new SandboxHome(root);
  }

  /** Host path for a guest path; throws SandboxPathError when it would leave the sandbox. */
  toHost(guestPath: string): string {
    if (typeof guestPath !== 'string' || guestPath.length === 0)
      throw new SandboxPathError(String(guestPath), 'it is empty');
    if (guestPath.includes('\0')) throw new SandboxPathError(guestPath, 'it contains a NUL byte');
    let base: string;
    let rest: string;
    if (guestPath === '~' || guestPath.startsWith('~/')) {
      base = this.root;
      rest = guestPath.slice(1);
    } else if (guestPath.startsWith('/')) {
      const norm = posix.normalize(guestPath);
      if (norm === GUEST_HOME || norm.startsWith(GUEST_HOME + '/')) {
        base = this.root;
        rest = norm.slice(GUEST_HOME.length);
      } else if (norm === GUEST_TMP || norm.startsWith(GUEST_TMP + '/')) {
        base = this.tmp;
        rest = norm.slice(GUEST_TMP.length);
      } else {
        throw new SandboxPathError(
          guestPath,
          `only ${GUEST_HOME}/…, ~/…, ${GUEST_TMP}/… and relative paths map into the sandbox home (${this.root})`,
        );
      }
    } else {
      base = this.root;
      rest = guestPath;
    }
    // Resolve the raw rest (not normalised first) so that `~/../x` or `a/../../x` is caught.
    const host = resolve(base, '.' + posix.sep + rest);
    if (!inside(base, host))
      throw new SandboxPathError(
        guestPath,
        `'..' climbs out of ${base === this.tmp ? GUEST_TMP : GUEST_HOME}`,
      );
    const real = realpathOfExisting(host);
    if (!inside(this.root, real))
      throw new SandboxPathError(guestPath, `a symbolic link leads out of the sandbox home to ${real}`);
    return host;
  }

  /** Guest path for a host path inside the sandbox (the inverse of toHost), or undefined when outside. */
  toGuest(hostPath: string): string | undefined {
    const p = resolve(hostPath);
    if (inside(this.tmp, p)) return posix.join(GUEST_TMP, relative(this.tmp, p));
    if (inside(this.root, p)) return posix.join(GUEST_HOME, relative(this.root, p));
    return undefined;
  }

  /**
   * Rewrites guest `/home/user` and `/tmp` path prefixes inside command text to their host folders, so a task's
   * `cat /home/user/x.txt` runs against the sandbox. Only whole path prefixes (after the start, whitespace, a
   * quote, `=`, `(`, `:` or a shell operator; followed by `/`, a quote, whitespace, a shell operator or the end)
   * are rewritten, in one pass.
   */
  rewriteCommand(text: string): string {
    const boundary = String.raw`(?=$|[/\s'"\x60;:|&)<>])`;
    return text.replace(
      new RegExp(String.raw`(^|[\s'"=\x60(:;|&<>])(/home/user|/tmp)` + boundary, 'g'),
      (_m, pre: string, guest: string) => pre + (guest === GUEST_HOME ? this.root : this.tmp),
    );
  }
}
