// A sandbox X display: Xvfb + openbox + its own session D-Bus (so AT-SPI works inside it), on a display number
// Xvfb picks itself (-displayfd), torn down on stop() and, through a watchdog, after a crash of Proctor.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '../../errors';
import { cleanHostEnv, type Confinement } from './confinement';
import { reserveDisplayNumber, type DisplayNumber } from './display-number';
import { ownedTempPrefix } from '../leftovers';
import { processAlive as alive } from '../../process-alive';
import { DEFAULT_SCREEN } from '../../../shared/screen';

export interface SandboxDisplay {
  /** `:N` */
  display: string;
  width: number;
  height: number;
  /** Address of the display's own session bus (AT-SPI's bus is activated on it). */
  dbusAddress?: string;
  /**
   * DISPLAY, DBUS_SESSION_BUS_ADDRESS and the variables GTK / Qt / Chromium apps need to expose AT-SPI, as the
   * display's own processes see them (inside a namespace sandbox: guest paths).
   */
  env: Record<string, string>;
  /** The same for clients on the host (the display worker, the accessibility collector): host paths. */
  hostEnv: Record<string, string>;
  /** Maps a socket address the display's processes name (e.g. the accessibility bus's) to one the host reaches. */
  hostAddress(address: string): string;
  /** Process-group ids the display owns (Xvfb, openbox, dbus-daemon), for diagnostics and tests. */
  readonly pids: { xvfb: number; openbox?: number; dbus?: number; watchdog: number };
  stop(): Promise<void>;
}

export interface DisplayOptions {
  width?: number;
  height?: number;
  /** Skip the window manager (a bare X server). Default false. */
  noWindowManager?: boolean;
  /** Skip the session bus. Default false. */
  noDbus?: boolean;
  /**
   * Start the display's processes inside this namespace sandbox, whose /tmp is `hostTmp` on the host. Default:
   * on the host.
   */
  sandbox?: { confinement: Confinement; hostTmp: string };
}

const START_TIMEOUT_MS = 15_000;

/** Variables that make toolkits expose their accessibility trees over AT-SPI on the session bus. */
export const accessibilityEnv: Record<string, string> = {
  ACCESSIBILITY_ENABLED: '1', // Chromium on Linux
  GNOME_ACCESSIBILITY: '1',
  GTK_MODULES: 'gail:atk-bridge', // GTK 2; GTK 3/4 load the bridge themselves
  NO_AT_BRIDGE: '0',
  QT_ACCESSIBILITY: '1',
  QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1',
};

/**
 * The watchdog is a detached `sh` that collects process-group ids on its stdin (a pipe only this process
 * holds). When this process dies, however it dies, the pipe closes, `read` hits EOF and the groups are killed.
 */
const WATCHDOG_SCRIPT =
  'g=""; while read -r p; do [ "$p" = disarm ] && exit 0; g="$g $p"; done; ' +
  'for p in $g; do kill -s TERM -- -$p 2>/dev/null; done; sleep 1; ' +
  'for p in $g; do kill -s KILL -- -$p 2>/dev/null; done';

function startWatchdog(): ChildProcess {
  const wd = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  wd.unref();
  (wd.stdin as NodeJS.WritableStream & { unref?: () => void }).unref?.();
  // The pipe's socket keeps the event loop alive otherwise.
  const sock = wd.stdin as unknown as { _handle?: { unref?: () => void } };
  sock._handle?.unref?.();
  return wd;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

async function waitGone(pids: number[], ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (pids.every((p) => !alive(p))) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return pids.every((p) => !alive(p));
}

/** Reads lines from a stream until `pick` returns a value, or fails on exit / timeout. */
function readUntil<T>(
  child: ChildProcess,
  stream: NodeJS.ReadableStream,
  what: string,
  pick: (text: string) => T | undefined,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let text = '';
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    const timer = setTimeout(
      () =>
        done(new EnvironmentError(`${what} did not start within ${START_TIMEOUT_MS} ms. ${stderr.trim()}`)),
      START_TIMEOUT_MS,
    );
    const onData = (d: Buffer): void => {
      text += d.toString();
      const v = pick(text);
      if (v !== undefined) done(undefined, v);
    };
    const onExit = (code: number | null, sig: string | null): void =>
      done(new EnvironmentError(`${what} exited (${sig ?? code}) before it was ready. ${stderr.trim()}`));
    const onError = (e: Error): void =>
      done(new EnvironmentError(`${what} could not be started: ${e.message}`, { cause: e }));
    function done(err?: Error, v?: T): void {
      clearTimeout(timer);
      stream.off('data', onData);
      child.off('exit', onExit);
      child.off('error', onError);
      if (err) reject(err);
      else resolve(v as T);
    }
    stream.on('data', onData);
    child.once('exit', onExit);
    child.once('error', onError);
  });
}

async function waitForWindowManager(env: Record<string, string>): Promise<void> {
  const until = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < until) {
    const r = spawnSync('xprop', ['-root', '_NET_SUPPORTING_WM_CHECK'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    if (r.status === 0 && /window id/.test(r.stdout)) return;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new EnvironmentError(`openbox did not take the display ${env.DISPLAY} within ${START_TIMEOUT_MS} ms`);
}

/** A session bus configuration that also lets the host's user in (the accessibility collector runs there). */
function sessionBusConfig(listen: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <include>/usr/share/dbus-1/session.conf</include>
  <listen>${listen}</listen>
  <policy context="default"><allow user="root"/></policy>
</busconfig>
`;
}

/**
 * Starts Xvfb (+ openbox, + a session bus) on a free display number: on the host, or inside a namespace sandbox
 * (`opts.sandbox`) whose X socket the host reaches through a link and whose bus sockets live in its /tmp.
 */
export async function startDisplay(opts: DisplayOptions = {}): Promise<SandboxDisplay> {
  const width = opts.width ?? DEFAULT_SCREEN.width;
  const height = opts.height ?? DEFAULT_SCREEN.height;
  if (
    !Number.isInteger(width) ||
    !Number.isInteger(height) ||
    width < 64 ||
    height < 64 ||
    width > 8192 ||
    height > 8192
  ) {
    throw new EnvironmentError(
      `display size ${width}x${height} is not usable: give integers between 64 and 8192`,
    );
  }
  const sandbox = opts.sandbox?.confinement.kind === 'namespaces' ? opts.sandbox : undefined;
  const watchdog = startWatchdog();
  const guard = (pid: number | undefined): void => {
    if (pid) watchdog.stdin?.write(`${pid}\n`);
  };
  // Guest paths of the display's sockets and runtime folder, and how the host reaches them.
  const runtimeDir = sandbox ? '/tmp/.proctor-xdg' : mkdtempSync(ownedTempPrefix('xdg'));
  const toHost = (guest: string): string =>
    sandbox && guest.startsWith('/tmp/') ? join(sandbox.hostTmp, guest.slice(5)) : guest;
  const start = (argv: string[], stdio: ('ignore' | 'pipe')[], env: Record<string, string>): ChildProcess =>
    sandbox
      ? sandbox.confinement.spawn(argv, { stdio, env, detached: true })
      : spawn(argv[0], argv.slice(1), { detached: true, stdio, env: { ...cleanHostEnv(), ...env } });
  let reserved: DisplayNumber | undefined;
  let xvfb: ChildProcess | undefined;
  let openbox: ChildProcess | undefined;
  let dbus: ChildProcess | undefined;

  const teardown = async (): Promise<void> => {
    watchdog.stdin?.write('disarm\n');
    // In a namespace sandbox, only processes not yet reaped: once the sandbox has ended they all are (with every
    // process of their groups), and a reaped id may be reused. On the host a group may outlive its leader.
    const live = (c: ChildProcess | undefined): boolean =>
      !!c && (!sandbox || (c.exitCode === null && c.signalCode === null));
    const pids = [openbox, dbus, xvfb]
      .filter(live)
      .map((c) => c!.pid)
      .filter((p): p is number => !!p);
    for (const p of pids) killGroup(p, 'SIGTERM');
    if (!(await waitGone(pids, 1500))) for (const p of pids) killGroup(p, 'SIGKILL');
    await waitGone(pids, 1000);
    watchdog.stdin?.end();
    reserved?.release();
    rmSync(toHost(runtimeDir), { recursive: true, force: true });
  };

  try {
    if (sandbox) {
      mkdirSync(toHost(runtimeDir), { recursive: true, mode: 0o700 });
      mkdirSync(toHost('/tmp/.X11-unix'), { recursive: true });
      chmodSync(toHost('/tmp/.X11-unix'), 0o1777);
      sandbox.confinement.adopt(toHost(runtimeDir));
      reserved = reserveDisplayNumber();
    }
    // Xvfb writes the display number it took to fd 3 once it accepts connections; on the host it skips locked
    // numbers itself. In a sandbox it takes the number reserved on the host and no abstract socket (`-nolisten
    // local`), so no other sandbox can reach it.
    const where = reserved ? [`:${reserved.num}`, '-nolisten', 'local'] : [];
    xvfb = start(
      [
        'Xvfb',
        ...where,
        '-displayfd',
        '3',
        '-screen',
        '0',
        `${width}x${height}x24`,
        '-nolisten',
        'tcp',
        '-noreset',
        '+extension',
        'RANDR',
      ],
      ['ignore', 'ignore', 'pipe', 'pipe'],
      {},
    );
    guard(xvfb.pid);
    const num = await readUntil(xvfb, xvfb.stdio[3] as NodeJS.ReadableStream, 'Xvfb', (t) =>
      /^\d+\n/.test(t) ? t.trim() : undefined,
    );
    (xvfb.stdio[3] as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    xvfb.stderr?.resume();
    xvfb.unref();
    const display = `:${num}`;
    reserved?.linkSocket(toHost(`/tmp/.X11-unix/X${num}`));
    const env: Record<string, string> = {
      DISPLAY: display,
      XDG_RUNTIME_DIR: runtimeDir,
      ...accessibilityEnv,
    };

    let dbusAddress: string | undefined;
    if (!opts.noDbus) {
      let argv = ['dbus-daemon', '--session', '--nofork', '--nopidfile', '--print-address=1'];
      if (sandbox) {
        writeFileSync(toHost('/tmp/.proctor-bus.conf'), sessionBusConfig('unix:path=/tmp/.proctor-bus'));
        argv = [
          'dbus-daemon',
          '--config-file=/tmp/.proctor-bus.conf',
          '--nofork',
          '--nopidfile',
          '--print-address=1',
        ];
      }
      dbus = start(argv, ['ignore', 'pipe', 'pipe'], env);
      guard(dbus.pid);
      dbusAddress = await readUntil(dbus, dbus.stdout as NodeJS.ReadableStream, 'dbus-daemon', (t) =>
        t.includes('\n') ? t.split('\n')[0].trim() : undefined,
      );
      dbus.stdout?.resume();
      dbus.stderr?.resume();
      dbus.unref();
      env.DBUS_SESSION_BUS_ADDRESS = dbusAddress;
    }

    const hostAddress = (address: string): string =>
      sandbox
        ? address.replace(
            /(^|[;,])(unix:(?:path|dir|tmpdir)=)(\/tmp\/[^,;]*)/g,
            (_m, pre: string, key: string, p: string) => pre + key + toHost(p),
          )
        : address;
    const hostEnv: Record<string, string> = { ...env, XDG_RUNTIME_DIR: toHost(runtimeDir) };
    if (dbusAddress) hostEnv.DBUS_SESSION_BUS_ADDRESS = hostAddress(dbusAddress);

    if (!opts.noWindowManager) {
      openbox = start(['openbox', '--sm-disable'], ['ignore', 'ignore', 'ignore'], env);
      guard(openbox.pid);
      openbox.unref();
      await waitForWindowManager(hostEnv);
    }

    let stopped: Promise<void> | undefined;
    return {
      display,
      width,
      height,
      dbusAddress,
      env,
      hostEnv,
      hostAddress,
      pids: { xvfb: xvfb.pid!, openbox: openbox?.pid, dbus: dbus?.pid, watchdog: watchdog.pid! },
      stop: () => (stopped ??= teardown()),
    };
  } catch (e) {
    await teardown();
    throw e;
  }
}
