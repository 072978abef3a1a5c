// Endpoints that run things: /execute (OSWorld's pyautogui form performed natively; any other command run as
// the server's user with a timeout), /execute_with_verification, /setup/launch, /run_python, /run_bash_script.
import { randomBytes } from 'node:crypto';
import { CHROMIUM_FLAGS, type LocalEnvironment } from '../env/local';
import type { CommandResult } from '../env/environment';
import { HttpError, readJson, sendJson, sendText, stringField } from './http-io';
import { findWindows, GUEST_HOME, sleep, type Guest, type Route } from './guest';
import { argvOfShellLine, performPyautoguiCode, pyautoguiCode } from './python-form';
import { shlexSplit, ShlexError } from '../text/shlex';

const PYTHON_TIMEOUT_MS = 30_000;
const BASH_DEFAULT_TIMEOUT_S = 100;
const BASH_MAX_TIMEOUT_S = 3600;

interface Command {
  argv?: string[];
  /** A shell command line (shell: true). */
  script?: string;
}

function expandTilde(a: string): string {
  return a === '~' || a.startsWith('~/') ? GUEST_HOME + a.slice(1) : a;
}

/** The request's `{command, shell}` as argv (split like shlex, `~/` expanded) or a shell line; 400 when malformed. */
export function commandOf(body: Record<string, unknown>): Command {
  const { command, shell } = body;
  if (typeof command === 'string' && command.trim()) {
    if (shell === true) return { script: command };
    try {
      const argv = shlexSplit(command).map(expandTilde);
      if (argv.length) return { argv };
    } catch (e) {
      if (e instanceof ShlexError)
        throw new HttpError(400, { status: 'error', message: `cannot split the command: ${e.message}` });
      throw e;
    }
  }
  if (Array.isArray(command) && command.length && command.every((a) => typeof a === 'string')) {
    const argv = (command as string[]).map(expandTilde);
    return shell === true ? { script: argv.join(' ') } : { argv };
  }
  throw new HttpError(400, {
    status: 'error',
    message: "'command' must be a non-empty string or list of strings",
  });
}

interface ExecOutcome {
  output: string;
  error: string;
  returncode: number;
}

/** Performs the pyautogui form natively, or runs the command; throws HttpError 500 on timeout or a missing program. */
export async function execute(guest: Guest, env: LocalEnvironment, cmd: Command): Promise<ExecOutcome> {
  const code = pyautoguiCode(cmd.argv ?? argvOfShellLine(cmd.script!));
  if (code !== undefined) {
    const done = await performPyautoguiCode(env, code);
    return { output: '', error: done.error, returncode: done.returncode };
  }
  const r = await runCommand(env, cmd, guest.options.commandTimeoutMs);
  return { output: r.stdout, error: r.stderr, returncode: r.exitCode ?? -1 };
}

async function runCommand(env: LocalEnvironment, cmd: Command, timeoutMs: number): Promise<CommandResult> {
  const r =
    cmd.script !== undefined
      ? await env.run(cmd.script, { shell: true, timeoutMs })
      : await env.run(cmd.argv!, { shell: false, timeoutMs });
  if (r.timedOut)
    throw new HttpError(500, {
      status: 'error',
      message: `the command timed out after ${Math.round(timeoutMs / 1000)} s`,
    });
  if (cmd.argv && r.exitCode === 127 && r.stderr.startsWith('cannot run '))
    throw new HttpError(500, { status: 'error', message: r.stderr });
  return r;
}

async function executeRoute(
  req: Parameters<Route['handler']>[0],
  res: Parameters<Route['handler']>[1],
  guest: Guest,
): Promise<void> {
  const cmd = commandOf(await readJson(req));
  const env = await guest.env();
  sendJson(res, 200, { status: 'success', ...(await execute(guest, env, cmd)) });
}

async function verified(env: LocalEnvironment, v: Record<string, unknown>): Promise<boolean> {
  const w = v.window_exists;
  if (w && typeof w === 'object') {
    const o = w as Record<string, unknown>;
    const name = stringField(o, 'window_name');
    if (
      name &&
      !(await findWindows(env, name, { strict: o.strict === true, byClass: o.by_class === true })).length
    )
      return false;
  }
  const c = v.command_success;
  if (c && typeof c === 'object') {
    const o = c as Record<string, unknown>;
    const cmd = commandOf(o);
    const r =
      cmd.script !== undefined
        ? await env.run(cmd.script, { shell: true, timeoutMs: 10_000 })
        : await env.run(cmd.argv!, { timeoutMs: 10_000 });
    if (r.exitCode !== 0) return false;
    const expected = stringField(o, 'expected_output');
    if (expected !== undefined && !r.stdout.includes(expected)) return false;
  }
  return true;
}

const executeWithVerification: Route['handler'] = async (req, res, guest) => {
  const body = await readJson(req);
  const cmd = commandOf(body);
  const maxWait =
    typeof body.max_wait_time === 'number' && body.max_wait_time >= 0
      ? Math.min(body.max_wait_time, 600)
      : 10;
  const interval =
    typeof body.check_interval === 'number' && body.check_interval > 0
      ? Math.min(body.check_interval, 60)
      : 1;
  const env = await guest.env();
  const outcome = await execute(guest, env, cmd);
  const verification =
    body.verification && typeof body.verification === 'object'
      ? (body.verification as Record<string, unknown>)
      : {};
  const started = Date.now();
  for (;;) {
    if (await verified(env, verification)) {
      return sendJson(res, 200, {
        status: 'success',
        ...outcome,
        verification: 'passed',
        wait_time: (Date.now() - started) / 1000,
      });
    }
    if (Date.now() - started >= maxWait * 1000) break;
    await sleep(interval * 1000);
  }
  sendJson(res, 500, {
    status: 'verification_failed',
    ...outcome,
    message: `verification did not pass within ${maxWait} s`,
    wait_time: (Date.now() - started) / 1000,
  });
};

const launch: Route['handler'] = async (req, res, guest) => {
  const cmd = commandOf(await readJson(req));
  const env = await guest.env();
  // (The environment rewrites guest /home/user and /tmp paths in the arguments itself.)
  const argv = cmd.argv ? await withBrowserAlias(env, cmd.argv) : ['/bin/sh', '-c', cmd.script!];
  try {
    await env.launch(argv);
  } catch (e) {
    throw new HttpError(500, { status: 'error', message: (e as Error).message });
  }
  // A browser started with a DevTools port: its pages join /accessibility through CDP.
  const port = argv.map((a) => /^--remote-debugging-port=(\d+)$/.exec(a)?.[1]).find(Boolean);
  if (port && /chrom/i.test(argv.join(' '))) env.setBrowserEndpoint?.(`http://127.0.0.1:${port}`);
  sendText(res, 200, `${cmd.argv ? cmd.argv.join(' ') : cmd.script} launched successfully`);
};

/** OSWorld's tasks launch Google Chrome; where only Chromium is installed, Chromium (with the sandbox's flags) stands in. */
const BROWSER_ALIASES = new Set(['google-chrome', 'google-chrome-stable']);
/** Programs that take Chromium's command line (by file name, so `/usr/bin/chromium` counts). */
const CHROMIUM_FAMILY = new Set([
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
]);

/**
 * A browser launch gets the flags every Chromium of the local environment runs with (CHROMIUM_FLAGS) that it
 * lacks. Without `--no-sandbox` a Chromium started as root, as on a display the server was given with
 * `--display :N` (no namespace sandbox, so the server's own user), exits at once ("Running as root without
 * --no-sandbox is not supported") and its DevTools port never answers.
 */
async function withBrowserAlias(env: LocalEnvironment, argv: string[]): Promise<string[]> {
  const name = argv[0].slice(argv[0].lastIndexOf('/') + 1);
  if (!CHROMIUM_FAMILY.has(name)) return argv;
  let program = argv[0];
  if (BROWSER_ALIASES.has(argv[0])) {
    const has = async (p: string) =>
      (await env.run(['/bin/sh', '-c', 'command -v "$0"', p], { timeoutMs: 5000 })).exitCode === 0;
    if (!(await has(argv[0])) && (await has('chromium'))) program = 'chromium';
  }
  return [program, ...CHROMIUM_FLAGS.filter((f) => !argv.includes(f)), ...argv.slice(1)];
}

/** Writes `text` to a fresh file under the guest's /tmp; returns its guest path. */
async function scratchFile(env: LocalEnvironment, ext: string, text: string): Promise<string> {
  const path = `/tmp/proctor-${randomBytes(6).toString('hex')}${ext}`;
  await env.putFile(path, Buffer.from(env.rewriteGuestPaths?.(text) ?? text));
  return path;
}

const runPython: Route['handler'] = async (req, res, guest) => {
  const body = await readJson(req);
  const code = typeof body.code === 'string' ? body.code : undefined;
  if (!code?.trim()) throw new HttpError(400, { status: 'error', message: "'code' is missing" });
  const env = await guest.env();
  const file = await scratchFile(env, '.py', code);
  const r = await env.run(['python3', file], { timeoutMs: PYTHON_TIMEOUT_MS });
  await env.run(['rm', '-f', file], { timeoutMs: 5000 });
  const rc = r.exitCode ?? -1;
  if (r.timedOut) {
    return sendJson(res, 500, {
      status: 'error',
      message: `the code timed out after ${PYTHON_TIMEOUT_MS / 1000} s`,
      need_more: false,
      output: r.stdout,
      error: r.stderr,
      return_code: rc,
    });
  }
  sendJson(res, 200, {
    status: rc === 0 ? 'success' : 'error',
    message: rc === 0 ? 'the code ran' : `the code exited with code ${rc}`,
    need_more: false,
    output: r.stdout,
    error: r.stderr,
    return_code: rc,
  });
};

const runBashScript: Route['handler'] = async (req, res, guest) => {
  const body = await readJson(req);
  const script = typeof body.script === 'string' ? body.script : undefined;
  if (!script?.trim())
    throw new HttpError(400, { status: 'error', output: '', error: "'script' is missing", returncode: -1 });
  const timeoutS =
    typeof body.timeout === 'number' && body.timeout > 0
      ? Math.min(body.timeout, BASH_MAX_TIMEOUT_S)
      : BASH_DEFAULT_TIMEOUT_S;
  const cwd = stringField(body, 'working_dir');
  const env = await guest.env();
  if (cwd) {
    try {
      env.home.toHost(cwd);
    } catch (e) {
      throw new HttpError(400, { status: 'error', output: '', error: (e as Error).message, returncode: -1 });
    }
  }
  const file = await scratchFile(env, '.sh', script);
  // stderr merged into stdout, as the upstream server promises.
  const r = await env.run(['/bin/sh', '-c', 'exec bash "$0" 2>&1', file], {
    timeoutMs: timeoutS * 1000,
    cwd,
  });
  await env.run(['rm', '-f', file], { timeoutMs: 5000 });
  if (r.timedOut)
    return sendJson(res, 500, {
      status: 'error',
      output: r.stdout,
      error: `the script timed out after ${timeoutS} s`,
      returncode: -1,
    });
  const rc = r.exitCode ?? -1;
  sendJson(res, 200, { status: rc === 0 ? 'success' : 'error', output: r.stdout, error: '', returncode: rc });
};

export const execRoutes: Route[] = [
  { method: 'POST', path: '/execute', handler: executeRoute },
  { method: 'POST', path: '/setup/execute', handler: executeRoute },
  { method: 'POST', path: '/execute_with_verification', handler: executeWithVerification },
  { method: 'POST', path: '/setup/execute_with_verification', handler: executeWithVerification },
  { method: 'POST', path: '/setup/launch', handler: launch },
  { method: 'POST', path: '/run_python', handler: runPython },
  { method: 'POST', path: '/run_bash_script', handler: runBashScript },
];
