// The registry of setup funcs: native, Spider2-V and OSWorld `config` / `postconfig` step types that work offline
// on an Environment, plus the cloud-account funcs, which refuse with NeedsAccountError.
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { Registry } from '../registry';
import { fetchDownload } from '../downloads';
import { isInside } from '../contained';
import { NeedsAccountError } from '../errors';
import { openDevToolsTab, waitForDevTools } from '../devtools';
import { MissingCapabilityError, type Environment } from '../env/environment';
import { performPyautoguiCode, pyautoguiCodeOfCommand } from '../actions/python-command';
import type { SetupStepTiming } from '../../shared/run';
import type { Task } from '../../shared/task';
import { SetupStepFailure } from './setup-error';
import {
  canListWindows,
  expectGuestFile,
  guestPathExists,
  guestPathOf,
  openedWindowMatch,
  OPEN_WINDOW_MS,
  seconds,
  waitForNoWindow,
  waitForWindow,
  WINDOW_MS,
} from './checks';
import { sleep as pause } from '../sleep';

export interface SetupContext {
  /** Folder of the task file; local paths and Spider2-V `evaluation_examples/...` paths resolve against it. */
  taskDir: string;
  task: Task;
  signal?: AbortSignal;
  /** Folder of the files `download` steps would fetch (--downloads); with it nothing is fetched. */
  downloads?: string;
  /** Called after each step, done or failed, with its time and what was checked (the runner records them). */
  onStep?: (step: SetupStepTiming) => void;
  /** Bound of the window checks (open, activate_window, close_window), ms; default each func's own (20 s / 10 s). */
  windowWaitMs?: number;
}

/** A setup func: does its step and checks it; may give a line on what it checked (recorded with the step's time). */
export type SetupFunc = (
  args: Record<string, unknown>,
  env: Environment,
  ctx: SetupContext,
) => Promise<string | void>;

export const setupFuncs = new Registry<SetupFunc>('setup func');

/** Setup funcs that need a cloud account, with the service each needs. */
export const ACCOUNT_SETUP_FUNCS: Readonly<Record<string, string>> = Object.freeze({
  snowflake_init: 'snowflake',
  snowflake_login: 'snowflake',
  snowflake_delete_folder: 'snowflake',
  snowflake_delete_filter: 'snowflake',
  snowflake_write_sqls_in_new_worksheet: 'snowflake',
  bigquery_init: 'bigquery',
  bigquery_login: 'bigquery',
  dbt_cloud_init: 'dbt_cloud',
  dbt_cloud_webui_login: 'dbt_cloud',
  workarena_task_init: 'servicenow (workarena)',
  workarena_unique_fields: 'servicenow (workarena)',
  googledrive: 'google_drive',
  googledrive_init: 'google_drive',
  googledrive_login: 'google_drive',
  hasura_login: 'hasura',
});
export const accountSetupFuncNames: readonly string[] = Object.freeze(
  Object.keys(ACCOUNT_SETUP_FUNCS).sort(),
);

// ---- argument readers -------------------------------------------------------------------------------------

function str(args: Record<string, unknown>, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v.length === 0)
    throw new SetupStepFailure(`'${name}' must be a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

function optBool(args: Record<string, unknown>, name: string): boolean | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean')
    throw new SetupStepFailure(`'${name}' must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

function command(args: Record<string, unknown>, name = 'command'): string | string[] {
  const v = args[name];
  if (typeof v === 'string' && v.length) return v;
  if (Array.isArray(v) && v.length && v.every((a) => typeof a === 'string')) return v as string[];
  throw new SetupStepFailure(
    `'${name}' must be a command string or a list of strings, got ${JSON.stringify(v)}`,
  );
}

/**
 * A host file named by a task: native `local_path` (relative to the task folder) or Spider2-V's
 * `evaluation_examples/examples/<app>/<uuid>/<file>` (the file beside the task). Never outside the task folder.
 */
export function taskAsset(taskDir: string, path: string): string {
  const dir = resolve(taskDir);
  const m = /^(?:\.\/)?evaluation_examples\/examples\/[^/]+\/[^/]+\/(.+)$/.exec(path);
  const rel = m ? m[1] : path;
  const host = isAbsolute(rel) ? resolve(rel) : resolve(dir, rel);
  const r = relative(dir, host);
  if (r.startsWith('..' + sep) || r === '..' || isAbsolute(r) || !isInside(dir, host)) {
    throw new SetupStepFailure(
      `the asset '${path}' lies outside the task folder ${dir} (or links out of it); task assets must sit beside the task file`,
    );
  }
  return host;
}

async function readAsset(ctx: SetupContext, path: string): Promise<Buffer> {
  const host = taskAsset(ctx.taskDir, path);
  try {
    return await readFile(host);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new SetupStepFailure(
        `the task asset '${path}' is missing: expected it at ${host} (beside the task file); copy the task's files there`,
      );
    }
    throw new SetupStepFailure(`cannot read the task asset ${host}: ${(e as Error).message}`, { cause: e });
  }
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  pause(ms, signal, () => new SetupStepFailure('cancelled'));

async function runScript(env: Environment, guestPath: string): Promise<void> {
  // Scripts name guest paths (/home/user/…); an environment that maps them elsewhere rewrites a text script.
  if (env.rewriteGuestPaths) {
    const text = await env.getFile(guestPath);
    if (text && !text.includes(0)) {
      const rewritten = env.rewriteGuestPaths(text.toString('utf8'));
      if (rewritten !== text.toString('utf8')) await env.putFile(guestPath, Buffer.from(rewritten, 'utf8'));
    }
  }
  const interpreter = guestPath.endsWith('.py') ? 'python3' : 'bash';
  const r = await env.run([interpreter, guestPath], { timeoutMs: 15 * 60_000 });
  if (r.timedOut) throw new SetupStepFailure(`the script ${guestPath} did not finish within 15 minutes`);
  if (r.exitCode !== 0) {
    const tail = (r.stderr.trim() || r.stdout.trim()).split('\n').slice(-8).join('\n');
    throw new SetupStepFailure(
      `the script ${guestPath} exited with ${r.exitCode}${tail ? `:\n${tail}` : ''}`,
    );
  }
}

// ---- files and scripts --------------------------------------------------------------------------------------

/** Writes a file into the environment and reads it back: it must be there with its size. */
async function putChecked(env: Environment, guestPath: string, data: Buffer): Promise<string> {
  await env.putFile(guestPath, data);
  return expectGuestFile(env, guestPath, data.length);
}

setupFuncs.register('upload_file_to_vm', async (args, env, ctx) => {
  return putChecked(env, str(args, 'remote_path'), await readAsset(ctx, str(args, 'local_path')));
});

setupFuncs.register('upload_script_and_execute', async (args, env, ctx) => {
  const remote = str(args, 'remote_path');
  const put = await putChecked(env, remote, await readAsset(ctx, str(args, 'local_path')));
  await runScript(env, remote);
  return `${put}; exit 0`;
});

setupFuncs.register('copyfile_from_host_to_guest', async (args, env, ctx) => {
  return putChecked(env, str(args, 'dest'), await readAsset(ctx, str(args, 'src')));
});

setupFuncs.register('script_and_execute', async (args, env, ctx) => {
  const dest = str(args, 'dest');
  const put = await putChecked(env, dest, await readAsset(ctx, str(args, 'src')));
  await runScript(env, dest);
  return `${put}; exit 0`;
});

setupFuncs.register('download', async (args, env, ctx) => {
  const files = args.files;
  if (!Array.isArray(files) || files.length === 0)
    throw new SetupStepFailure(`'files' must be a non-empty list of {url, path}`);
  const checked: string[] = [];
  for (const [i, f] of files.entries()) {
    const { url, path } = (f ?? {}) as { url?: unknown; path?: unknown };
    if (typeof url !== 'string' || typeof path !== 'string')
      throw new SetupStepFailure(`files[${i}] needs a string url and path`);
    let body: Buffer;
    try {
      body = await fetchDownload(url, { downloads: ctx.downloads, signal: ctx.signal });
    } catch (e) {
      throw new SetupStepFailure((e as Error).message, { cause: e });
    }
    checked.push(await putChecked(env, path, body));
  }
  return checked.join('; ');
});

// ---- programs -----------------------------------------------------------------------------------------------

setupFuncs.register('launch', async (args, env) => {
  const c = command(args);
  const shell = optBool(args, 'shell');
  await env.launch(
    typeof c === 'string'
      ? shell === false
        ? c.split(/\s+/).filter(Boolean)
        : ['/bin/sh', '-c', c]
      : shell
        ? ['/bin/sh', '-c', c.join(' ')]
        : c,
  );
});

setupFuncs.register('open', async (args, env, ctx) => {
  const target = str(args, 'path');
  const path = guestPathOf(target);
  const isFile = path.startsWith('/');
  // A missing file is said at once (the benchmark's server answers 404), not after waiting for a window.
  if (isFile && (await guestPathExists(env, path)) === false) {
    throw new SetupStepFailure(
      `there is no file at ${path} to open (an earlier step should have put it there)`,
    );
  }
  const before = isFile && canListWindows(env) ? new Set(await env.windowTitles()) : new Set<string>();
  await env.open(target);
  if (!isFile)
    return `not checked: ${target} is a URL or a program, whose window title Proctor cannot foresee`;
  if (!canListWindows(env)) return `not checked: the ${env.kind} environment cannot list its windows`;
  const { match, what } = openedWindowMatch(path, before);
  const seen = await waitForWindow(env, match, what, ctx.windowWaitMs ?? OPEN_WINDOW_MS, ctx.signal);
  // The opened document is made the active window, as the benchmark's desktop leaves it; best effort (a title
  // the environment cannot match exactly, e.g. one holding a path, leaves the focus where the window manager put it).
  const activated = await env.activateWindow(seen.title, { strict: true }).then(
    () => '',
    (e: Error) => ` (not activated: ${e.message})`,
  );
  return `window '${seen.title}' after ${seconds(seen.waitedMs)}${activated}`;
});

/** Spider2-V's `until`: the command is run again (every 0.3 s, within a bound) until one of these holds. */
interface Until {
  returncode?: number;
  stdout?: string;
  stderr?: string;
}

const UNTIL_LIMIT_MS = 120_000;

function untilOf(args: Record<string, unknown>): Until | undefined {
  const u = args.until;
  if (u === undefined || u === null) return undefined;
  if (typeof u !== 'object' || Array.isArray(u))
    throw new SetupStepFailure(
      `'until' must be an object with returncode, stdout or stderr, got ${JSON.stringify(u)}`,
    );
  const { returncode, stdout, stderr } = u as Record<string, unknown>;
  const out: Until = {};
  if (typeof returncode === 'number') out.returncode = returncode;
  if (typeof stdout === 'string') out.stdout = stdout;
  if (typeof stderr === 'string') out.stderr = stderr;
  return Object.keys(out).length ? out : undefined;
}

const met = (u: Until, r: { exitCode: number | null; stdout: string; stderr: string }): boolean =>
  (u.returncode !== undefined && r.exitCode === u.returncode) ||
  (u.stdout !== undefined && r.stdout.includes(u.stdout)) ||
  (u.stderr !== undefined && r.stderr.includes(u.stderr));

const tail = (text: string): string => text.trim().split('\n').slice(-8).join('\n');

/**
 * `execute` / `command`: OSWorld's `python -c "import pyautogui…"` form is performed by Proctor's action engine
 * (no Python in the guest); any other command runs in the environment and must exit 0 — or, with Spider2-V's
 * `until`, is run again until its condition holds.
 */
async function execute(args: Record<string, unknown>, env: Environment, ctx: SetupContext): Promise<string> {
  const c = command(args);
  const code = pyautoguiCodeOfCommand(c);
  if (code !== undefined) {
    const done = await performPyautoguiCode(env, code);
    if (done.returncode !== 0)
      throw new SetupStepFailure(`the pyautogui code could not be performed: ${done.error}`);
    return `performed natively: ${done.actions.map((a) => a.type).join(', ') || 'nothing'}`;
  }
  const until = untilOf(args);
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    const r = await env.run(c, { shell: optBool(args, 'shell'), timeoutMs: 15 * 60_000 });
    if (r.timedOut) throw new SetupStepFailure(`the command did not finish within 15 minutes`);
    // OSWorld keeps the outputs by name; here they go to the guest's /tmp.
    for (const which of ['stdout', 'stderr'] as const) {
      const name = args[which];
      if (typeof name === 'string' && name)
        await env.putFile(`/tmp/${basename(name)}`, Buffer.from(r[which]));
    }
    if (!until) {
      if (r.exitCode !== 0) {
        const why = tail(r.stderr) || tail(r.stdout);
        throw new SetupStepFailure(
          `the command exited with ${r.exitCode ?? 'a signal'}${why ? `:\n${why}` : ''}`,
        );
      }
      return 'exit 0';
    }
    if (met(until, r))
      return `until ${JSON.stringify(until)} met after ${attempt} run(s), ${seconds(Date.now() - started)}`;
    if (Date.now() - started > UNTIL_LIMIT_MS) {
      const why = tail(r.stderr) || tail(r.stdout);
      throw new SetupStepFailure(
        `until ${JSON.stringify(until)} did not hold within ${UNTIL_LIMIT_MS / 1000} s (${attempt} runs; last exit ${r.exitCode}${why ? `: ${why}` : ''})`,
      );
    }
    await sleep(300, ctx.signal);
  }
}
setupFuncs.register('execute', execute);
setupFuncs.register('command', execute);

setupFuncs.register('sleep', async (args, _env, ctx) => {
  const s = args.seconds;
  if (typeof s !== 'number' || !Number.isFinite(s) || s < 0 || s > 3600)
    throw new SetupStepFailure(`'seconds' must be a number between 0 and 3600, got ${JSON.stringify(s)}`);
  await sleep(s * 1000, ctx.signal);
});

/** The title test of a window step: exact for `strict` (as the benchmark's title, e.g. `Book1.xlsx - LibreOffice Calc`), else a case-insensitive part. */
const titleMatch = (name: string, strict: boolean) => (t: string) =>
  strict ? t === name : t.toLowerCase().includes(name.toLowerCase());

setupFuncs.register('activate_window', async (args, env, ctx) => {
  const name = str(args, 'window_name');
  const strict = optBool(args, 'strict') ?? false;
  const byClass = optBool(args, 'by_class') ?? false;
  let check = byClass
    ? 'window class not checked (titles only)'
    : `not checked: the ${env.kind} environment cannot list its windows`;
  if (!byClass && canListWindows(env)) {
    const what = strict ? `a window titled exactly '${name}'` : `a window titled with '${name}'`;
    const seen = await waitForWindow(
      env,
      titleMatch(name, strict),
      what,
      ctx.windowWaitMs ?? WINDOW_MS,
      ctx.signal,
    );
    check = `window '${seen.title}'${seen.atOnce ? '' : ` after ${seconds(seen.waitedMs)}`}`;
  }
  await env.activateWindow(name, { strict, byClass });
  return check;
});

setupFuncs.register('close_window', async (args, env, ctx) => {
  const name = str(args, 'window_name');
  const strict = optBool(args, 'strict') ?? false;
  const byClass = optBool(args, 'by_class') ?? false;
  await env.closeWindow(name, { strict, byClass });
  if (byClass) return 'window class not checked (titles only)';
  if (!canListWindows(env)) return `not checked: the ${env.kind} environment cannot list its windows`;
  const ms = await waitForNoWindow(
    env,
    titleMatch(name, strict),
    'the window',
    ctx.windowWaitMs ?? WINDOW_MS,
    ctx.signal,
  );
  return `gone after ${seconds(ms)}`;
});

// ---- browser --------------------------------------------------------------------------------------------------

async function openTab(endpoint: string, url: string, signal?: AbortSignal): Promise<void> {
  try {
    await openDevToolsTab(endpoint, url, signal);
  } catch (e) {
    throw new SetupStepFailure((e as Error).message, { cause: e });
  }
}

function urlList(v: unknown, name: string): string[] {
  if (v === undefined || v === null) return [];
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.every((u) => typeof u === 'string'))
    throw new SetupStepFailure(`'${name}' must be a list of URLs`);
  return list as string[];
}

// The environment starts its browser (env.launchBrowser) and says where its DevTools endpoint is
// (env.browserEndpoint()); these funcs never name a browser binary, a flag or an address.
setupFuncs.register('google_chrome_browser', async (args, env, ctx) => {
  const urls = urlList(args.urls ?? args.urls_to_open, 'urls');
  if (!env.launchBrowser || !env.capabilities.has('browser'))
    throw new MissingCapabilityError('browser', env.kind);
  try {
    await env.launchBrowser(urls, { signal: ctx.signal });
  } catch (e) {
    throw new SetupStepFailure((e as Error).message, { cause: e });
  }
});

setupFuncs.register('chrome_open_tabs', async (args, env, ctx) => {
  const endpoint = env.browserEndpoint();
  if (!endpoint)
    throw new SetupStepFailure(
      'no browser with a DevTools endpoint is running: a google_chrome_browser step must come first',
    );
  const urls = urlList(args.urls_to_open, 'urls_to_open');
  await waitForDevTools(endpoint, ctx.signal).catch((e: Error) => {
    throw new SetupStepFailure(e.message, { cause: e });
  });
  for (const url of urls) await openTab(endpoint, url, ctx.signal);
});

// ---- cloud accounts -------------------------------------------------------------------------------------------

for (const [name, service] of Object.entries(ACCOUNT_SETUP_FUNCS)) {
  setupFuncs.register(name, async () => {
    throw new NeedsAccountError(service, `setup func ${name}`);
  });
}
