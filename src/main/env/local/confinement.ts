// Where a sandbox session's processes run. Everything a session starts — the display server, the window
// manager, D-Bus, the apps, the shells an agent types into, the commands of setup and grading — is spawned
// through its Confinement:
//
//   namespaces  one bubblewrap sandbox per session: its own PID, mount, IPC and UTS namespaces; a clean
//               environment (nothing of Proctor's passes in); the read-only system (/usr, /etc); the session's
//               home at /home/user and its own /tmp; as an unprivileged user (uid 65534 when Proctor is root,
//               the caller's own uid in a user namespace otherwise: see userSwitch). Later processes join it with
//               nsenter.
//   host        the fallback where namespaces are unavailable: processes run as Proctor's user on the host's
//               filesystem, guest paths rewritten into the sandbox home, still with a clean environment.
//
// Guest paths (/home/user/…, /tmp/…) are real inside a namespace sandbox; the host side reaches the same files
// through the SandboxHome mapping.
import { spawn, spawnSync, type ChildProcess, type StdioOptions } from 'node:child_process';
import { chownSync, existsSync, lstatSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join, posix } from 'node:path';
import { EnvironmentError } from '../../errors';
import type { SandboxHome } from './sandbox-home';
import { GUEST_HOME, GUEST_TMP } from './sandbox-home';
import { processAlive } from '../../process-alive';

/** Host variables passed through to sandbox processes; everything else (API keys included) is left out. */
const PASSED_THROUGH = ['PATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ'];

/** The user sandbox processes run as when Proctor runs as root (nobody). */
export const SANDBOX_UID = 65534;

export interface SpawnInSandbox {
  env?: Record<string, string>;
  /** Guest working directory (default the guest home). */
  cwd?: string;
  stdio?: StdioOptions;
  detached?: boolean;
}

export interface Confinement {
  /** `namespaces` or `host` (see the file comment). */
  readonly kind: 'namespaces' | 'host';
  /** The environment every process of the session starts from (before the display's variables). */
  baseEnv(): Record<string, string>;
  /** A guest path as the session's own processes must name it (the host path when running on the host). */
  commandPath(guestPath: string): string;
  /** Guest paths inside command text, made valid for the session's processes. */
  rewrite(text: string): string;
  /** Starts a process in the session. */
  spawn(argv: string[], options?: SpawnInSandbox): ChildProcess;
  /**
   * Whether `program` (a name looked up on the session's PATH, or a path) can be started in the session. Inside a
   * namespace sandbox a missing program is only noticed by the program that execs it; this lets callers answer
   * as the host would (spawn ENOENT).
   */
  hasProgram(program: string): boolean;
  /** Gives a file or folder the host wrote into the sandbox home to the sandbox's user. */
  adopt(hostPath: string): void;
  /** Ends every process of the session (namespaces: the whole PID namespace). */
  close(): Promise<void>;
}

export function cleanHostEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of PASSED_THROUGH) if (process.env[k] !== undefined) env[k] = process.env[k]!;
  env.PATH ??= '/usr/local/bin:/usr/bin:/bin';
  env.LANG ??= 'C.UTF-8';
  return env;
}

// ---- isolation probe ----------------------------------------------------------------------------------------

export interface IsolationSupport {
  available: boolean;
  /** Why not, when unavailable. */
  reason?: string;
  /** Whether Proctor switches sandbox processes to another uid (it runs as root). */
  switchesUser: boolean;
}

let support: IsolationSupport | undefined;
let warned = false;

function which(cmd: string): boolean {
  return spawnSync('/bin/sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Whether namespace sandboxes work here (asked once per process). `PROCTOR_SANDBOX=host` turns them off. */
export function isolationSupport(): IsolationSupport {
  if (support) return support;
  const root = process.getuid?.() === 0;
  if (process.env.PROCTOR_SANDBOX === 'host') {
    return (support = {
      available: false,
      reason: 'PROCTOR_SANDBOX=host turns namespace sandboxes off',
      switchesUser: false,
    });
  }
  if (process.platform !== 'linux')
    return (support = {
      available: false,
      reason: `namespaces need Linux (this is ${process.platform})`,
      switchesUser: false,
    });
  const missing = ['bwrap', 'nsenter', ...(root ? ['setpriv'] : [])].filter((c) => !which(c));
  if (missing.length) {
    return (support = {
      available: false,
      reason: `${missing.join(', ')} not found (install Debian's bubblewrap and util-linux)`,
      switchesUser: false,
    });
  }
  // Without root, the probe makes the same nested user namespace a session's processes get (see userSwitch); it
  // keeps the capabilities in the sandbox's own user namespace that a process entering it with nsenter has.
  const r = spawnSync(
    'bwrap',
    [
      ...systemBinds(),
      ...(root ? [] : ['--unshare-user', '--uid', '0', '--gid', '0', '--cap-add', 'ALL']),
      '--unshare-pid',
      '--unshare-ipc',
      '--',
      ...(root ? ['true'] : [...userSwitch(), 'true']),
    ],
    {
      encoding: 'utf8',
      timeout: 10_000,
    },
  );
  if (r.status !== 0) {
    return (support = {
      available: false,
      reason: `bubblewrap cannot create namespaces here: ${(r.stderr || r.error?.message || '').trim()}`,
      switchesUser: false,
    });
  }
  return (support = { available: true, switchesUser: root });
}

/** Says once per process that sandboxes are not isolated, and why. */
export function warnIfUnisolated(
  notify: (line: string) => void = (l) => process.stderr.write(l + '\n'),
): void {
  const s = isolationSupport();
  if (s.available || warned) return;
  warned = true;
  notify(
    `proctor: sandbox sessions are NOT isolated (${s.reason}). Apps and shells the agent drives run as your user and ` +
      `can read your files; model keys are refused to agents unless you pass --allow-unisolated.`,
  );
}

// ---- namespaces ---------------------------------------------------------------------------------------------

/**
 * Without root, the sandbox's namespaces belong to a user namespace where Proctor's user is uid 0: bwrap runs
 * with `--uid 0 --gid 0`. (Left to choose, bwrap maps uid 0 to mount /dev's ptys and then moves into a second,
 * nested user namespace holding the caller's uid; nsenter cannot join the namespaces that first one owns, so no
 * later process could enter the sandbox.) Each process entering the sandbox then moves into a user namespace of
 * its own where it has the caller's uid again: apps never run as root (VLC refuses to), and files keep their owner.
 */
function userSwitch(): string[] {
  const uid = process.getuid?.() ?? 1000;
  const gid = process.getgid?.() ?? uid;
  return ['unshare', `--map-user=${uid}`, `--map-group=${gid}`, '--'];
}

function systemBinds(): string[] {
  const args = ['--tmpfs', '/', '--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc'];
  for (const d of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) {
    const p = `/${d}`;
    let st;
    try {
      st = lstatSync(p);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readLinkSafe(p), p);
    else if (st.isDirectory()) args.push('--ro-bind', p, p);
  }
  // Folders bwrap would create on the way to a bind get mode 0700; the sandbox's user must traverse these.
  for (const d of ['/var', '/var/cache', '/var/lib']) args.push('--perms', '0755', '--dir', d);
  args.push('--perms', '1777', '--tmpfs', '/var/tmp');
  // The font cache (else every app rebuilds it, seconds for the CJK fonts), the machine id, /opt.
  for (const p of ['/var/cache/fontconfig', '/var/lib/dbus', '/opt'])
    if (existsSync(p)) args.push('--ro-bind', p, p);
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/run');
  return args;
}

function readLinkSafe(p: string): string {
  try {
    return readlinkSync(p);
  } catch {
    return p;
  }
}

/**
 * Whether `pid` still runs. A zombie counts as gone: once the anchor is killed the sandbox's init is reparented
 * to the system's PID 1, and a container's PID 1 may reap it only seconds later (measured: 1–2 s here), although
 * it and every process of its PID namespace have already ended.
 */
function running(pid: number): boolean {
  if (!processAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
  } catch {
    return false; // no /proc entry: gone
  }
}

function chownTree(p: string, uid: number): void {
  let st;
  try {
    st = lstatSync(p);
  } catch {
    return;
  }
  try {
    chownSync(p, uid, uid);
  } catch {
    /* raced away */
  }
  if (st.isDirectory() && !st.isSymbolicLink()) for (const e of readdirSync(p)) chownTree(join(p, e), uid);
}

/** Starts a namespace sandbox over `home` (its root at /home/user, its tmp at /tmp). */
export async function startNamespaceSandbox(home: SandboxHome): Promise<Confinement> {
  const s = isolationSupport();
  if (!s.available) throw new EnvironmentError(`namespace sandbox unavailable: ${s.reason}`);
  const uid = s.switchesUser ? SANDBOX_UID : undefined;
  if (uid !== undefined) chownTree(home.root, uid);
  // The host's PATH names folders the sandbox does not have (and says where Proctor lives): a standard one.
  const base: Record<string, string> = {
    ...cleanHostEnv(),
    PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: GUEST_HOME,
    TMPDIR: GUEST_TMP,
    USER: 'user',
    LOGNAME: 'user',
  };
  const args = [
    ...(s.switchesUser ? [] : ['--unshare-user', '--uid', '0', '--gid', '0']),
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--hostname',
    'proctor-sandbox',
    '--die-with-parent',
    '--new-session',
    ...systemBinds(),
    '--perms',
    '0755',
    '--dir',
    '/home',
    '--bind',
    home.root,
    GUEST_HOME,
    '--bind',
    home.tmp,
    GUEST_TMP,
    // The rest of the tree bwrap made (/, /home, /var …) is read-only: the sandbox writes only to its home, its
    // tmp folders and /run. Without root its user owns that tree (it is uid 0 of the sandbox's namespace).
    '--remount-ro',
    '/',
    '--chdir',
    GUEST_HOME,
    '--clearenv',
    '--setenv',
    'PATH',
    base.PATH,
    '--info-fd',
    '3',
    '--',
    // The session's anchor: holds the namespaces open until close(). It says `ready` once the sandbox's mounts
    // are in place (bwrap reports the child's pid before that).
    '/bin/sh',
    '-c',
    'echo ready; exec sleep infinity',
  ];
  const anchor = spawn('bwrap', args, { stdio: ['ignore', 'pipe', 'pipe', 'pipe'], env: base });
  const childPid = await new Promise<number>((resolve, reject) => {
    let info = '';
    let out = '';
    let stderr = '';
    const timer = setTimeout(
      () => reject(new EnvironmentError(`bubblewrap did not start within 10 s: ${stderr.trim()}`)),
      10_000,
    );
    anchor.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const check = (): void => {
      const m = /"child-pid"\s*:\s*(\d+)/.exec(info);
      if (m && out.includes('ready')) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    (anchor.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => {
      info += d.toString();
      check();
    });
    anchor.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      check();
    });
    anchor.once('exit', (code, sig) => {
      clearTimeout(timer);
      reject(
        new EnvironmentError(
          `bubblewrap exited (${sig ?? code}) before the sandbox was ready: ${stderr.trim()}`,
        ),
      );
    });
    anchor.once('error', (e) => {
      clearTimeout(timer);
      reject(new EnvironmentError(`cannot start bubblewrap: ${e.message}`, { cause: e }));
    });
  });
  (anchor.stdio[3] as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  anchor.stdout!.resume();
  anchor.stderr!.resume();

  const enter = (cwd: string): string[] => [
    '-t',
    String(childPid),
    ...(s.switchesUser ? [] : ['-U', '--preserve-credentials']),
    '-p',
    '-m',
    '-i',
    '-u',
    '-r',
    '-w',
    '--',
    ...(uid !== undefined
      ? [
          'setpriv',
          `--reuid=${uid}`,
          `--regid=${uid}`,
          '--clear-groups',
          '--inh-caps=-all',
          '--bounding-set=-all',
          '--no-new-privs',
        ]
      : userSwitch()),
    'env',
    '-C',
    cwd,
  ];

  let closed = false;
  const confinement: Confinement = {
    kind: 'namespaces',
    baseEnv: () => ({ ...base }),
    commandPath(guestPath) {
      home.toHost(guestPath); // refuses paths that leave the sandbox
      if (guestPath === '~' || guestPath.startsWith('~/')) return GUEST_HOME + guestPath.slice(1);
      return guestPath.startsWith('/') ? posix.normalize(guestPath) : posix.join(GUEST_HOME, guestPath);
    },
    rewrite: (text) => text,
    hasProgram(program) {
      if (program.includes('/')) {
        // a guest path in the home or /tmp lives in the sandbox home; the read-only system is the host's own
        const p = program.startsWith('/') ? posix.normalize(program) : posix.join(GUEST_HOME, program);
        if (
          p === GUEST_HOME ||
          p.startsWith(GUEST_HOME + '/') ||
          p === GUEST_TMP ||
          p.startsWith(GUEST_TMP + '/')
        ) {
          try {
            return existsSync(home.toHost(p));
          } catch {
            return false;
          }
        }
        return (
          ['/usr/', '/bin/', '/sbin/', '/lib', '/etc/', '/opt/'].some((d) => p.startsWith(d)) && existsSync(p)
        );
      }
      return base.PATH.split(':').some((d) => existsSync(join(d, program)));
    },
    spawn(argv, o = {}) {
      if (closed) throw new EnvironmentError('the sandbox session is closed');
      const cwd = o.cwd ? confinement.commandPath(o.cwd) : GUEST_HOME;
      return spawn('nsenter', [...enter(cwd), ...argv], {
        env: { ...base, ...o.env },
        stdio: o.stdio ?? 'ignore',
        detached: o.detached ?? true,
      });
    },
    adopt(hostPath) {
      if (uid !== undefined) chownTree(hostPath, uid);
    },
    async close() {
      if (closed) return;
      closed = true;
      // The anchor is the PID namespace's init's parent; with --die-with-parent its end ends the namespace.
      anchor.kill('SIGKILL');
      const until = Date.now() + 2000;
      while (Date.now() < until && running(childPid)) await new Promise((r) => setTimeout(r, 10));
    },
  };
  return confinement;
}

// ---- host ---------------------------------------------------------------------------------------------------

/** The fallback: the session's processes run on the host as Proctor's user, with guest paths rewritten. */
export function hostConfinement(home: SandboxHome): Confinement {
  const hostBase = (): Record<string, string> => ({
    ...cleanHostEnv(),
    HOME: home.root,
    TMPDIR: home.tmp,
    PWD: home.root,
  });
  return {
    kind: 'host',
    baseEnv: () => hostBase(),
    commandPath: (g) => home.toHost(g),
    rewrite: (text) => home.rewriteCommand(text),
    hasProgram: () => true, // the host's spawn says ENOENT itself
    spawn(argv, o = {}) {
      const [file, ...args] = argv;
      const cwd = o.cwd ? home.toHost(o.cwd) : home.root;
      return spawn(file, args, {
        cwd,
        env: { ...hostBase(), ...o.env },
        stdio: o.stdio ?? 'ignore',
        detached: o.detached ?? true,
      });
    },
    adopt: () => undefined,
    close: async () => undefined,
  };
}
