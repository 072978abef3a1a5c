// The local environment: a sandbox X display (or, only when asked, the user's own), a worker process for input
// and capture, and shell / files over a sandbox home.
import { removeTree } from '../remove-tree';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Action } from '../../../shared/run';
import { EnvironmentError } from '../../errors';
import {
  type Capability,
  type CommandResult,
  type Environment,
  type ScreenInfo,
  type Screenshot,
} from '../environment';
import { FailsafeError, InputKilledError } from '../input-errors';
import { startDisplay, accessibilityEnv, type SandboxDisplay } from './display';
import { SandboxHome } from './sandbox-home';
import { SandboxShell } from './sandbox-shell';
import {
  hostConfinement,
  isolationSupport,
  startNamespaceSandbox,
  warnIfUnisolated,
  type Confinement,
} from './confinement';
import { compileAction, type Primitive } from './primitives';
import { WorkerClient } from './worker-client';
import type { CaptureBackend, UnicodeTyping } from './worker-protocol';
import { collectAccessibility } from './accessibility';
import { CHROMIUM_FLAGS, launchChromium } from './browser';
import { OPENERS, settleWindowGeometry, titlePattern } from './openers';

export interface LocalEnvironmentOptions {
  /** An X display to drive (`:N`); default: start a fresh sandbox display and stop it on close(). */
  display?: string;
  /** Size of a fresh sandbox display. Default 1920×1080. */
  width?: number;
  height?: number;
  /** Host folder standing for the guest's /home/user; default a fresh temp folder, removed on close(). */
  home?: string;
  /** Drive the user's own display ($DISPLAY). Required to drive it; turns the corner fail-safe on. */
  userDisplay?: boolean;
  /** Corner fail-safe (pyautogui FAILSAFE). Default: on for the user's display, off for sandboxes. */
  failsafe?: boolean;
  /** How characters without a US-layout key are typed. Default `xdotool` (see README). */
  unicodeTyping?: UnicodeTyping;
  /** Capture backend. Default `nut` (nut.js grab + sharp); `screenshot-desktop` needs xrandr and ImageMagick. */
  captureBackend?: CaptureBackend;
  /**
   * Run the session's processes in a namespace sandbox (default: wherever bubblewrap works). `false` runs them on
   * the host as Proctor's user (benchmarks compare the two; PROCTOR_SANDBOX=host does the same process-wide).
   */
  isolate?: boolean;
  /** Where notices for the person at the screen go (user display). Default stderr. */
  notify?: (line: string) => void;
}

export interface LocalEnvironment extends Environment {
  readonly kind: 'local';
  readonly display: string;
  /** The display's environment variables (DISPLAY, DBUS_SESSION_BUS_ADDRESS, accessibility switches). */
  readonly displayEnv: Readonly<Record<string, string>>;
  readonly home: SandboxHome;
  /** Puts a file of the host at a guest path (moved when it can be): large uploads never pass through memory. */
  putFileFrom(guestPath: string, hostFile: string): Promise<void>;
  /** The sandbox display this environment started, if any. */
  readonly sandbox?: SandboxDisplay;
  /**
   * Where the session's processes run: `namespaces` (a bubblewrap sandbox: own PID and mount namespaces, clean
   * environment, only its home and /tmp writable) or `host` (as Proctor's user; the fallback, and for a display
   * Proctor did not start).
   */
  readonly isolation: Confinement['kind'];
  /** Kill switch: stops any action sequence in flight within 100 ms; later perform() calls work again. */
  kill(): Promise<void>;
  /** The worker process id (diagnostics and tests). */
  workerPid(): number | undefined;
}

const KILL_BUDGET_MS = 90;

function sleepAbortable(ms: number, isKilled: () => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const end = Date.now() + ms;
    const tick = (): void => {
      if (isKilled()) return reject(new InputKilledError());
      const left = end - Date.now();
      if (left <= 0) return resolve();
      setTimeout(tick, Math.min(left, 10));
    };
    tick();
  });
}

export async function createLocalEnvironment(opts: LocalEnvironmentOptions = {}): Promise<LocalEnvironment> {
  const notify = opts.notify ?? ((line: string) => process.stderr.write(line + '\n'));
  let sandbox: SandboxDisplay | undefined;
  let displayEnv: Record<string, string> | undefined;
  if (opts.userDisplay) {
    const d = opts.display ?? process.env.DISPLAY;
    if (!d) throw new EnvironmentError('--user-display needs DISPLAY to name your display');
    displayEnv = { DISPLAY: d, ...accessibilityEnv };
    if (process.env.DBUS_SESSION_BUS_ADDRESS)
      displayEnv.DBUS_SESSION_BUS_ADDRESS = process.env.DBUS_SESSION_BUS_ADDRESS;
    notify(
      `proctor: about to drive YOUR display ${d} with real mouse and keyboard events. ` +
        `Move the pointer into a screen corner to stop (fail-safe), or press Ctrl+C.`,
    );
  } else if (opts.display) {
    if (opts.display === process.env.DISPLAY) {
      throw new EnvironmentError(
        `${opts.display} is your own display ($DISPLAY); pass userDisplay: true (--user-display) to drive it`,
      );
    }
    if (!/^:\d+(\.\d+)?$/.test(opts.display))
      throw new EnvironmentError(`display '${opts.display}' is not of the form :N`);
    displayEnv = { DISPLAY: opts.display, ...accessibilityEnv };
  }

  const home = opts.home ? SandboxHome.at(opts.home) : SandboxHome.create();
  const ownsHome = !opts.home;
  let confinement: Confinement = hostConfinement(home);
  // Host-side clients (the display worker, the accessibility collector) reach the display through these.
  let hostEnv: Record<string, string>;
  try {
    if (!opts.userDisplay && !opts.display) {
      if (opts.isolate !== false) warnIfUnisolated(notify);
      if (opts.isolate !== false && isolationSupport().available)
        confinement = await startNamespaceSandbox(home);
      sandbox = await startDisplay({
        width: opts.width,
        height: opts.height,
        sandbox: { confinement, hostTmp: home.tmp },
      });
      displayEnv = { ...sandbox.env };
      hostEnv = { ...sandbox.hostEnv };
    } else {
      hostEnv = displayEnv ?? {};
    }
  } catch (e) {
    await confinement.close();
    if (ownsHome) await removeTree(home.root);
    throw e;
  }
  const guestEnv: Record<string, string> = displayEnv ?? {};
  const shell = new SandboxShell(home, guestEnv, confinement);
  const worker = new WorkerClient(hostEnv, {
    failsafe: opts.failsafe ?? !!opts.userDisplay,
    unicode: opts.unicodeTyping ?? 'xdotool',
  });
  const backend: CaptureBackend = opts.captureBackend ?? 'nut';
  // The worker (a Node process loading nut.js: about half a second) starts now, while setup runs, rather than on
  // the first observation; the display is already up. (It was once taken out over a test that typed before
  // Chromium had the keyboard, since fixed.) A failure here is not lost: the next call starts one and reports it.
  worker.warm();

  let killGeneration = 0;
  let needsRelease = false;
  let endpoint: string | undefined;
  let screenCache: ScreenInfo | undefined;
  let closed = false;

  const checkOpen = (): void => {
    if (closed) throw new EnvironmentError(`the local environment on ${guestEnv.DISPLAY} is closed`);
  };

  async function screen(): Promise<ScreenInfo> {
    checkOpen();
    if (screenCache) return screenCache;
    const r = await worker.call({ op: 'screenSize' });
    if (r?.kind !== 'size') throw new EnvironmentError('the display worker did not report a screen size');
    screenCache = { width: r.width, height: r.height, scale: 1 };
    return screenCache;
  }

  async function pointer(): Promise<{ x: number; y: number }> {
    const r = await worker.call({ op: 'position' });
    if (r?.kind !== 'point')
      throw new EnvironmentError('the display worker did not report the pointer position');
    return { x: r.x, y: r.y };
  }

  async function runPrimitive(p: Primitive, isKilled: () => boolean): Promise<void> {
    if (p.op === 'sleep') return sleepAbortable(p.ms, isKilled);
    if (p.op === 'moveRel') {
      const at = await pointer();
      const s = await screen();
      return void (await worker.call({
        op: 'move',
        x: Math.min(Math.max(at.x + p.dx, 0), s.width - 1),
        y: Math.min(Math.max(at.y + p.dy, 0), s.height - 1),
      }));
    }
    await worker.call(p);
  }

  async function perform(actions: Action[]): Promise<void> {
    checkOpen();
    if (!Array.isArray(actions)) throw new EnvironmentError('perform() takes a list of actions');
    const generation = killGeneration;
    const isKilled = (): boolean => killGeneration !== generation;
    if (needsRelease) {
      await worker.call({ op: 'releaseAll' });
      needsRelease = false;
    }
    const s = await screen();
    for (const a of actions) {
      if (isKilled()) throw new InputKilledError();
      const needsPointer =
        a.type === 'dragTo' ||
        a.type === 'dragRel' ||
        ((a.type === 'moveTo' || a.type === 'moveRel') && !!a.duration);
      const prims = compileAction(a, s, needsPointer ? await pointer() : undefined);
      for (const p of prims) {
        if (isKilled()) throw new InputKilledError();
        try {
          await runPrimitive(p, isKilled);
        } catch (e) {
          if (isKilled() && !(e instanceof FailsafeError)) throw new InputKilledError();
          if (e instanceof FailsafeError) needsRelease = true;
          throw e;
        }
      }
    }
  }

  async function kill(): Promise<void> {
    killGeneration++;
    needsRelease = true;
    worker.abort();
    if (!(await worker.settle(KILL_BUDGET_MS))) worker.kill();
  }

  async function screenshot(
    o: { format?: 'png' | 'jpeg'; quality?: number; maxWidth?: number; pointer?: boolean } = {},
  ): Promise<Screenshot> {
    checkOpen();
    const format = o.format ?? 'png';
    const quality = Math.round(o.quality ?? 80);
    const r = await worker.call({
      op: 'grab',
      backend,
      format,
      quality,
      maxWidth: o.maxWidth,
      ...(o.pointer ? { pointer: true } : {}),
    });
    if (r?.kind !== 'image') throw new EnvironmentError('the display worker did not return an image');
    return {
      data: Buffer.from(r.data.buffer, r.data.byteOffset, r.data.byteLength),
      format: r.format,
      width: r.width,
      height: r.height,
      toScreen: r.screenWidth / r.width,
    };
  }

  async function windowIds(title: string, strict: boolean, byClass = false): Promise<string[]> {
    const pattern = titlePattern(title, strict);
    const r = await shell.run(
      ['xdotool', 'search', '--onlyvisible', byClass ? '--class' : '--name', pattern],
      { timeoutMs: 10_000 },
    );
    return r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => /^\d+$/.test(l));
  }

  async function xdotool(args: string[]): Promise<CommandResult> {
    const r = await shell.run(['xdotool', ...args], { timeoutMs: 10_000 });
    if (r.exitCode !== 0)
      throw new EnvironmentError(
        `xdotool ${args.join(' ')} failed on ${guestEnv.DISPLAY}: ${r.stderr.trim()}`,
      );
    return r;
  }

  async function open(target: string): Promise<void> {
    checkOpen();
    // A file:// URL names a guest path like any other: mapped into the sandbox home (and refused outside it).
    if (/^file:\/\//i.test(target)) target = fileURLToPath(target);
    if (/^https?:\/\//i.test(target)) {
      return shell.launch([
        'chromium',
        ...CHROMIUM_FLAGS,
        `--user-data-dir=${confinement.commandPath('/tmp/proctor-open-chromium')}`,
        target,
      ]);
    }
    const path = confinement.commandPath(target);
    const opener = OPENERS[extname(path).toLowerCase()] ?? ['xdg-open'];
    const args =
      opener[0] === 'chromium'
        ? [
            ...opener,
            ...CHROMIUM_FLAGS,
            `--user-data-dir=${confinement.commandPath('/tmp/proctor-open-chromium')}`,
            path,
          ]
        : [...opener, path];
    return shell.launch(args);
  }

  const env: LocalEnvironment = {
    kind: 'local',
    display: guestEnv.DISPLAY,
    displayEnv: guestEnv,
    home,
    sandbox,
    isolation: confinement.kind,
    capabilities: new Set<Capability>([
      'screenshot',
      'input',
      'accessibility',
      'shell',
      'files',
      'launch',
      'windows',
      'browser',
    ]),
    screen,
    screenshot,
    // Native apps over AT-SPI on the display's own session bus, and the browser it started over CDP.
    accessibilityTree: () => (
      checkOpen(),
      collectAccessibility({
        dbusAddress: hostEnv.DBUS_SESSION_BUS_ADDRESS,
        cdpEndpoint: endpoint,
        hostAddress: sandbox?.hostAddress,
      })
    ),
    perform,
    kill,
    workerPid: () => worker.pid,
    incidents: () => worker.incidents(),
    run: (command, options) => (checkOpen(), shell.run(command, options)),
    putFile: (p, data) => (checkOpen(), shell.putFile(p, data)),
    putFileFrom: (p, file) => (checkOpen(), shell.putFileFrom(p, file)),
    getFile: (p) => (checkOpen(), shell.getFile(p)),
    launch: (command, options) => (checkOpen(), shell.launch(command, options)),
    open,
    async activateWindow(title, o = {}) {
      checkOpen();
      const ids = await windowIds(title, !!o.strict, !!o.byClass);
      if (!ids.length)
        throw new EnvironmentError(
          `no window titled ${o.strict ? 'exactly ' : ''}'${title}' on ${guestEnv.DISPLAY}`,
        );
      const id = ids[ids.length - 1];
      await xdotool(['windowactivate', '--sync', id]);
      // LibreOffice's AT-SPI boxes sit 25 px off until the pointer has crossed its window (openers.ts).
      await settleWindowGeometry(env, title, { windowId: id }).catch(() => {});
    },
    async closeWindow(title, o = {}) {
      checkOpen();
      const ids = await windowIds(title, !!o.strict, !!o.byClass);
      if (!ids.length)
        throw new EnvironmentError(
          `no window titled ${o.strict ? 'exactly ' : ''}'${title}' on ${guestEnv.DISPLAY}`,
        );
      // Ask politely (the window manager's close: WM_DELETE_WINDOW via openbox's Alt+F4).
      for (const id of ids)
        await xdotool(['windowactivate', '--sync', id, 'key', '--clearmodifiers', 'alt+F4']);
    },
    async windowTitles() {
      checkOpen();
      // xdotool exits 1 when no window matches; anything else but 0 means it could not look.
      const r = await shell.run(
        ['xdotool', 'search', '--onlyvisible', '--name', '.', 'getwindowname', '%@'],
        { timeoutMs: 10_000 },
      );
      if (r.exitCode !== 0 && r.exitCode !== 1)
        throw new EnvironmentError(
          `cannot list the windows on ${guestEnv.DISPLAY}: xdotool exited with ${r.exitCode}: ${r.stderr.trim()}`,
        );
      return r.stdout
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean);
    },
    ...(confinement.kind === 'host'
      ? { rewriteGuestPaths: (text: string) => home.rewriteCommand(text) }
      : {}),
    browserEndpoint: () => endpoint,
    setBrowserEndpoint: (e) => {
      endpoint = e;
    },
    launchBrowser: (urls, o) => (
      checkOpen(),
      launchChromium(env, urls, { headless: false, signal: o?.signal })
    ),
    async close() {
      if (closed) return;
      closed = true;
      const workerClosed = worker.close();
      if (confinement.kind === 'namespaces') {
        // Ending the sandbox's PID namespace ends every process in it at once: the display's, the apps', the
        // shells'. It goes first, while the host-side nsenter parents are still there to reap their children
        // (killed first, they would leave those to the host's init, and the namespace waits until it reaps them).
        await confinement.close();
        if (sandbox) await sandbox.stop();
      } else {
        await shell.stopLaunched();
        if (sandbox) await sandbox.stop();
      }
      await workerClosed;
      if (ownsHome) await removeTree(home.root);
    },
  };
  return env;
}
