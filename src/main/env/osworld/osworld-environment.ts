// The osworld environment: Proctor as an HTTP client of OSWorld's VM control server (the guest's Flask
// server on port 5000, or `proctor env serve`). Every Environment method is one or a few endpoint calls of
// osworld-protocol.md; the machine itself belongs to its operator, so close() only stops talking to it.
import { fileURLToPath } from 'node:url';
import type { Action } from '../../../shared/run';
import { EnvironmentError } from '../../errors';
import type {
  AccessibilityNode,
  Capability,
  CommandResult,
  Environment,
  RunOptions,
  ScreenInfo,
  Screenshot,
} from '../environment';
import { accessibilityXmlOf, AccessibilityXmlError, parseAccessibilityXml } from './accessibility-xml';
import {
  DEFAULT_TIMING,
  excerpt,
  isJpeg,
  isPng,
  OsworldHttp,
  OsworldHttpError,
  pngSize,
  type CallPolicy,
  type HttpAnswer,
  type HttpRequest,
  type OsworldTiming,
} from './http-client';
import { performSteps, pyautoguiCommand } from './pyautogui-code';
import { commandFor, resultOf } from './commands';
import { launchGuestBrowser } from './browser';
import { OSWORLD_DEFAULT_PORT, OSWORLD_DEVTOOLS_PORT, serverUrl } from './spec';

export interface OsworldEnvironmentOptions {
  host: string;
  /** Default 5000. */
  port?: number;
  /** Bearer token (a Proctor server of the protocol off loopback). */
  token?: string;
  /** The guest browser's DevTools endpoint; default `http://host:9222`. */
  browserEndpoint?: string;
  /** Timeouts, retries and the readiness bound; tests shorten them. */
  timing?: Partial<OsworldTiming>;
  /** Wait for the readiness probe before returning. Default true. */
  waitReady?: boolean;
}

/** What a Proctor server of the protocol says about itself at GET /proctor/info. */
export interface ProctorServerInfo {
  proctor: true;
  reset: boolean;
  version?: string;
}

export interface OsworldEnvironment extends Environment {
  readonly kind: 'osworld';
  /** `http://host:port` of the control server. */
  readonly url: string;
  /** The server's Proctor extensions, when it is a Proctor server (GET /proctor/info). */
  readonly proctorInfo?: ProctorServerInfo;
  /** True when the server can reset the machine (POST /proctor/reset). */
  readonly canReset: boolean;
  /**
   * Ends the episode's processes and gives a fresh home and display, on a server that offers it; otherwise
   * throws: an OSWorld VM is reset by its operator (restore a snapshot).
   */
  reset(): Promise<void>;
  /** The accessibility tree as the server wrote it (GET /accessibility's `AT`), unparsed: OSWorld's XML. */
  accessibilityTreeXml(): Promise<string>;
  /** The guest's visible window titles (wmctrl, else xdotool, through /execute). */
  windowTitles(): Promise<string[]>;
  /** Text of the focused terminal (GET /terminal); null when none is focused. */
  terminalOutput(): Promise<string | null>;
  /**
   * Makes sure the guest's browser answers at browserEndpoint() (starting it OSWorld's way, Chrome on 1337
   * behind socat on 9222, when nothing does) and opens `urls` in it; returns the endpoint.
   */
  launchBrowser(urls: string[], options?: { signal?: AbortSignal }): Promise<string>;
}

/** Lists window titles, one a line: wmctrl -l without its id, desktop and host columns, or xdotool's visible windows (exit 1 = none). */
const WINDOW_TITLES_SCRIPT =
  'if command -v wmctrl >/dev/null 2>&1; then wmctrl -l | sed -E "s/^[^ ]+ +[^ ]+ +[^ ]+ ?//"; ' +
  'else xdotool search --onlyvisible --name . getwindowname %@; s=$?; [ $s -le 1 ] || exit $s; fi';

const CAPABILITIES: readonly Capability[] = [
  'screenshot',
  'input',
  'accessibility',
  'shell',
  'files',
  'launch',
  'windows',
  'browser',
];

function imageCheck(a: HttpAnswer): string | undefined {
  return isPng(a.body) || isJpeg(a.body)
    ? undefined
    : `the body is not a PNG or JPEG image (${a.body.length} bytes, ${a.contentType || 'no content type'})`;
}

function jsonOf<T>(a: HttpAnswer, url: string, endpoint: string): T {
  try {
    return JSON.parse(a.body.toString('utf8')) as T;
  } catch {
    throw new OsworldHttpError(
      `osworld server ${url}: ${endpoint} answered HTTP ${a.status} with a body that is not JSON: ${excerpt(a.body)}`,
      endpoint,
      a.status,
    );
  }
}

function refusedMessage(url: string, withToken: boolean, endpoint: string, status: number): string {
  return `the osworld server ${url} refused ${withToken ? 'the token' : 'a request without a token'} (${endpoint} answered HTTP ${status}); pass the server's token as ?token=… in the --env spec`;
}

export interface ReadinessOptions {
  token?: string;
  timing?: Partial<OsworldTiming>;
}

/**
 * Polls GET /screenshot until it answers 200 with a PNG (OSWorld's Docker provider's probe), within
 * `readyTimeoutMs`. Throws an EnvironmentError with the last answer seen.
 */
export async function waitUntilReady(url: string, opts: ReadinessOptions = {}): Promise<void> {
  const timing = { ...DEFAULT_TIMING, ...opts.timing };
  const http = new OsworldHttp(url, opts.token);
  const deadline = Date.now() + timing.readyTimeoutMs;
  const policy = (left: number): CallPolicy => ({
    attempts: 1,
    timeoutMs: Math.min(timing.screenshotTimeoutMs, left),
    totalMs: left,
    retryStatus: false,
    retryTimeout: false,
    retryNetwork: 'any',
    answers: [401, 403],
    check: (a) => (isPng(a.body) ? undefined : `the body is not a PNG (${a.body.length} bytes)`),
  });
  let last = '';
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      try {
        const a = await http.call({ method: 'GET', path: '/screenshot' }, policy(left), 0);
        if (a.status === 401 || a.status === 403)
          throw new EnvironmentError(refusedMessage(url, !!opts.token, 'GET /screenshot', a.status));
        return;
      } catch (e) {
        if (!(e instanceof OsworldHttpError)) throw e;
        last = e.message;
      }
      const wait = Math.min(timing.readyIntervalMs, deadline - Date.now());
      if (wait <= 0) break;
      await new Promise((r) => setTimeout(r, wait));
    }
  } finally {
    http.close();
  }
  throw new EnvironmentError(
    `the osworld server ${url} is not ready: GET /screenshot gave no PNG within ${timing.readyTimeoutMs / 1000} s${last ? `; last: ${last}` : ''}`,
  );
}

export async function createOsworldEnvironment(
  options: OsworldEnvironmentOptions,
): Promise<OsworldEnvironment> {
  if (!options || typeof options.host !== 'string' || !options.host)
    throw new EnvironmentError('the osworld environment needs a host');
  const port = options.port ?? OSWORLD_DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new EnvironmentError(`the osworld environment's port ${port} is not from 1 to 65535`);
  const timing: OsworldTiming = { ...DEFAULT_TIMING, ...options.timing };
  const url = serverUrl(options.host, port);
  if (options.waitReady ?? true) await waitUntilReady(url, { token: options.token, timing });
  const http = new OsworldHttp(url, options.token);
  let browser = options.browserEndpoint ?? serverUrl(options.host, OSWORLD_DEVTOOLS_PORT);
  let screenCache: ScreenInfo | undefined;

  const policies = {
    screenshot: {
      attempts: timing.attempts,
      timeoutMs: timing.screenshotTimeoutMs,
      totalMs: timing.attempts * timing.screenshotTimeoutMs + (timing.attempts - 1) * timing.retryDelayMs,
      retryStatus: true,
      retryTimeout: true,
      retryNetwork: 'any',
      check: imageCheck,
    },
    read: {
      attempts: timing.attempts,
      timeoutMs: timing.readTimeoutMs,
      totalMs: timing.readTotalMs,
      retryStatus: true,
      retryTimeout: true,
      retryNetwork: 'any',
    },
    control: {
      attempts: timing.attempts,
      timeoutMs: timing.controlTimeoutMs,
      totalMs: timing.attempts * timing.controlTimeoutMs + (timing.attempts - 1) * timing.retryDelayMs,
      retryStatus: true,
      retryTimeout: true,
      retryNetwork: 'any',
    },
  } satisfies Record<string, CallPolicy>;

  /** Commands and state changes: never repeated once the server may have started them. */
  const once = (timeoutMs: number, answers: number[] = []): CallPolicy => ({
    attempts: timing.attempts,
    timeoutMs,
    totalMs: timeoutMs + (timing.attempts - 1) * (timing.retryDelayMs + timing.controlTimeoutMs),
    answers,
    retryStatus: false,
    retryTimeout: false,
    retryNetwork: 'refused',
  });

  const call = (req: HttpRequest, policy: CallPolicy): Promise<HttpAnswer> =>
    http.call(req, policy, timing.retryDelayMs);
  const checkOpen = (): void => {
    if (http.closed) throw new EnvironmentError(`the osworld environment ${url} is closed`);
  };

  // A Proctor server of the protocol says so; OSWorld's own answers 404 (or anything else) here.
  let proctorInfo: ProctorServerInfo | undefined;
  try {
    const a = await call(
      { method: 'GET', path: '/proctor/info' },
      { ...policies.control, attempts: 1, answers: [400, 401, 403, 404, 405, 500] },
    );
    if (a.status === 401 || a.status === 403) {
      http.close();
      throw new EnvironmentError(refusedMessage(url, !!options.token, 'GET /proctor/info', a.status));
    }
    if (a.status === 200) {
      let info: Partial<ProctorServerInfo> | null = null;
      try {
        info = JSON.parse(a.body.toString('utf8')) as Partial<ProctorServerInfo> | null;
      } catch {
        // some other page: not a Proctor server
      }
      if (info && info.proctor === true)
        proctorInfo = {
          proctor: true,
          reset: info.reset === true,
          ...(typeof info.version === 'string' ? { version: info.version } : {}),
        };
    }
  } catch (e) {
    if (!(e instanceof OsworldHttpError)) throw e;
    // not a Proctor server, or the probe failed: plain OSWorld
  }

  async function screen(): Promise<ScreenInfo> {
    checkOpen();
    if (screenCache) return screenCache;
    const a = await call({ method: 'POST', path: '/screen_size' }, policies.control);
    const s = jsonOf<{ width?: unknown; height?: unknown }>(a, url, 'POST /screen_size');
    const width = Number(s?.width);
    const height = Number(s?.height);
    if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
      throw new OsworldHttpError(
        `osworld server ${url}: POST /screen_size answered ${excerpt(a.body)}, not {width, height}`,
        'POST /screen_size',
        a.status,
      );
    }
    screenCache = { width, height, scale: 1 };
    return screenCache;
  }

  async function screenshot(
    o: { format?: 'png' | 'jpeg'; quality?: number; maxWidth?: number } = {},
  ): Promise<Screenshot> {
    checkOpen();
    const format = o.format ?? 'png';
    const a = await call({ method: 'GET', path: '/screenshot' }, policies.screenshot);
    const png = isPng(a.body);
    if (png && format === 'png' && (!o.maxWidth || o.maxWidth >= pngSize(a.body).width)) {
      const { width, height } = pngSize(a.body);
      return { data: a.body, format: 'png', width, height, toScreen: 1 };
    }
    const sharp = (await import('sharp')).default;
    let pipeline = sharp(a.body);
    const meta = await pipeline.metadata();
    const screenWidth = meta.width ?? 0;
    const screenHeight = meta.height ?? 0;
    if (!screenWidth || !screenHeight)
      throw new OsworldHttpError(
        `osworld server ${url}: GET /screenshot answered an image without a size`,
        'GET /screenshot',
        a.status,
      );
    let width = screenWidth;
    let height = screenHeight;
    if (o.maxWidth && o.maxWidth < screenWidth) {
      width = Math.max(1, Math.round(o.maxWidth));
      height = Math.max(1, Math.round((screenHeight * width) / screenWidth));
      pipeline = pipeline.resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
    }
    const data =
      format === 'png'
        ? await pipeline.png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer()
        : await pipeline.jpeg({ quality: Math.round(o.quality ?? 80) }).toBuffer();
    return { data, format, width, height, toScreen: screenWidth / width };
  }

  async function accessibilityTreeXml(): Promise<string> {
    checkOpen();
    const a = await call({ method: 'GET', path: '/accessibility' }, policies.read);
    try {
      return accessibilityXmlOf(a.body.toString('utf8'));
    } catch (e) {
      if (e instanceof AccessibilityXmlError)
        throw new EnvironmentError(`osworld server ${url}: ${e.message}`, { cause: e });
      throw e;
    }
  }

  async function accessibilityTree(): Promise<AccessibilityNode[]> {
    const xml = await accessibilityTreeXml();
    try {
      return parseAccessibilityXml(xml);
    } catch (e) {
      if (e instanceof AccessibilityXmlError)
        throw new EnvironmentError(`osworld server ${url}: ${e.message}`, { cause: e });
      throw e;
    }
  }

  /** POST /execute; a JSON `{status: "error", message}` 500 is the server's answer, kept for the caller. */
  async function execute(command: string | string[], shell: boolean, timeoutMs: number): Promise<HttpAnswer> {
    return call({ method: 'POST', path: '/execute', json: { command, shell } }, once(timeoutMs, [500]));
  }

  async function perform(actions: Action[]): Promise<void> {
    checkOpen();
    if (!Array.isArray(actions)) throw new EnvironmentError('perform() takes a list of actions');
    for (const step of performSteps(actions)) {
      checkOpen();
      if (step.kind === 'sleep') {
        await new Promise((r) => setTimeout(r, step.ms));
        continue;
      }
      const a = await execute(pyautoguiCommand(step.code), false, timing.executeTimeoutMs);
      const r =
        jsonOf<{ status?: string; message?: string; returncode?: number; error?: string } | null>(
          a,
          url,
          'POST /execute',
        ) ?? {};
      if (a.status !== 200 || r.status !== 'success') {
        throw new OsworldHttpError(
          `osworld server ${url}: POST /execute of pyautogui code answered HTTP ${a.status}: ${excerpt(String(r.message ?? r.error ?? a.body))}`,
          'POST /execute',
          a.status,
        );
      }
      if (r.returncode !== 0) {
        const lastLine =
          String(r.error ?? '')
            .trim()
            .split('\n')
            .pop() ?? '';
        throw new EnvironmentError(
          `osworld server ${url}: the guest's pyautogui code exited with ${r.returncode}${lastLine ? `: ${excerpt(lastLine)}` : ''} (code: ${excerpt(step.code, 200)})`,
        );
      }
    }
  }

  async function run(command: string | string[], o: RunOptions = {}): Promise<CommandResult> {
    checkOpen();
    const c = commandFor(command, o);
    const a = await execute(
      c.command,
      c.shell,
      Math.max(timing.executeTimeoutMs, (o.timeoutMs ?? 0) + 15_000),
    );
    return resultOf(a, c, url);
  }

  async function putFile(guestPath: string, data: Buffer): Promise<void> {
    checkOpen();
    if (typeof guestPath !== 'string' || !guestPath) throw new EnvironmentError('putFile needs a guest path');
    const name = guestPath.split('/').pop() || 'file';
    await call(
      {
        method: 'POST',
        path: '/setup/upload',
        multipart: () => {
          const form = new FormData();
          form.set('file_path', guestPath);
          form.set('file_data', new Blob([Uint8Array.from(data)]), name);
          return form;
        },
      },
      {
        attempts: timing.attempts,
        timeoutMs: timing.uploadTimeoutMs,
        totalMs: timing.uploadTimeoutMs,
        retryStatus: true,
        retryTimeout: true,
        retryNetwork: 'any',
        backoff: true,
      },
    );
  }

  async function getFile(guestPath: string): Promise<Buffer | undefined> {
    checkOpen();
    if (typeof guestPath !== 'string' || !guestPath) throw new EnvironmentError('getFile needs a guest path');
    const a = await call(
      { method: 'POST', path: '/file', form: { file_path: guestPath } },
      { ...policies.read, answers: [404] },
    );
    return a.status === 404 ? undefined : a.body;
  }

  async function launch(command: string[], o: { cwd?: string } = {}): Promise<void> {
    checkOpen();
    if (!Array.isArray(command) || !command.length || command.some((c) => typeof c !== 'string')) {
      throw new EnvironmentError('launch() takes a non-empty list of strings');
    }
    const argv = o.cwd ? ['sh', '-c', 'cd -- "$0" && exec "$@"', o.cwd, ...command] : command;
    await call(
      { method: 'POST', path: '/setup/launch', json: { command: argv, shell: false } },
      once(timing.controlTimeoutMs),
    );
  }

  async function open(target: string): Promise<void> {
    checkOpen();
    if (typeof target !== 'string' || !target) throw new EnvironmentError('open() needs a path or URL');
    if (/^file:\/\//i.test(target)) target = fileURLToPath(target);
    // /setup/open_file opens existing paths (or runs a program on PATH); a URL goes to the desktop's opener.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return launch(['xdg-open', target]);
    await call(
      { method: 'POST', path: '/setup/open_file', json: { path: target } },
      once(timing.openTimeoutMs),
    );
  }

  const windowCall =
    (path: string) =>
    async (title: string, o: { strict?: boolean; byClass?: boolean } = {}): Promise<void> => {
      checkOpen();
      if (typeof title !== 'string' || !title) throw new EnvironmentError(`${path} needs a window name`);
      const a = await call(
        { method: 'POST', path, json: { window_name: title, strict: !!o.strict, by_class: !!o.byClass } },
        { ...policies.control, answers: [404] },
      );
      if (a.status === 404)
        throw new OsworldHttpError(
          `osworld server ${url}: POST ${path}: no window ${o.byClass ? 'of class' : 'titled'} ${o.strict ? 'exactly ' : ''}'${title}' (HTTP 404)`,
          `POST ${path}`,
          404,
        );
    };

  /** The guest's visible window titles: wmctrl's list (OSWorld's images have it), else xdotool's (Proctor's server). */
  async function windowTitles(): Promise<string[]> {
    const r = await run(['sh', '-c', WINDOW_TITLES_SCRIPT], { timeoutMs: 10_000 });
    if (r.exitCode !== 0)
      throw new EnvironmentError(
        `osworld server ${url}: cannot list the guest's windows (exit ${r.exitCode}): ${excerpt(r.stderr.trim() || r.stdout.trim())}`,
      );
    return r.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  }

  async function reset(): Promise<void> {
    checkOpen();
    if (!proctorInfo?.reset) {
      throw new EnvironmentError(
        `the osworld server ${url} cannot reset its machine (it offers no POST /proctor/reset): the operator must restore the VM snapshot before the next task`,
      );
    }
    await call({ method: 'POST', path: '/proctor/reset', json: {} }, once(timing.openTimeoutMs));
    screenCache = undefined;
  }

  async function terminalOutput(): Promise<string | null> {
    checkOpen();
    const a = await call({ method: 'GET', path: '/terminal' }, policies.read);
    const r = jsonOf<{ output?: unknown }>(a, url, 'GET /terminal');
    return typeof r?.output === 'string' ? r.output : null;
  }

  const env: OsworldEnvironment = {
    kind: 'osworld',
    url,
    proctorInfo,
    canReset: !!proctorInfo?.reset,
    capabilities: new Set<Capability>(CAPABILITIES),
    screen,
    screenshot,
    accessibilityTree,
    accessibilityTreeXml,
    perform,
    run,
    putFile,
    getFile,
    launch,
    open,
    activateWindow: windowCall('/setup/activate_window'),
    closeWindow: windowCall('/setup/close_window'),
    windowTitles,
    browserEndpoint: () => browser,
    setBrowserEndpoint: (e) => {
      browser = e;
    },
    reset,
    terminalOutput,
    launchBrowser: (urls, o = {}) => (
      checkOpen(),
      launchGuestBrowser({ run, launch }, browser, urls, { signal: o.signal })
    ),
    async close() {
      http.close();
    },
  };
  return env;
}
