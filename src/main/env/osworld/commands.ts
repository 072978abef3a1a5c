// run() over `/execute`: RunOptions (cwd, env, timeout, shell) become a command the guest server runs as is
// (`sh -c 'cd …' `, `env K=V`, coreutils `timeout`), and the server's answer becomes a CommandResult. The
// upstream server has no cwd, env or per-call timeout of its own (it kills every command at 120 s).
import { EnvironmentError } from '../../errors';
import type { CommandResult, RunOptions } from '../environment';
import type { HttpAnswer } from './http-client';
import { excerpt, OsworldHttpError } from './http-client';

export interface GuestCommand {
  /** What /execute gets. */
  command: string | string[];
  shell: boolean;
  /** Set when the command was wrapped in `timeout`: its exit status 124 means the time ran out. */
  timeoutSeconds?: number;
}

/** A POSIX shell word for any string. */
export function shQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function commandFor(command: string | string[], o: RunOptions = {}): GuestCommand {
  const isArgv = Array.isArray(command);
  if (
    isArgv
      ? command.length === 0 || command.some((c) => typeof c !== 'string')
      : typeof command !== 'string' || !command
  ) {
    throw new EnvironmentError('run() takes a command string or a non-empty list of strings');
  }
  const shell = o.shell ?? !isArgv;
  const env = Object.entries(o.env ?? {});
  for (const [k, v] of env)
    if (!ENV_NAME.test(k) || typeof v !== 'string')
      throw new EnvironmentError(`run(): bad environment variable '${k}'`);
  let timeoutSeconds: number | undefined;
  if (o.timeoutMs !== undefined) {
    if (!Number.isFinite(o.timeoutMs) || o.timeoutMs <= 0)
      throw new EnvironmentError(`run(): timeoutMs ${o.timeoutMs} is not a positive number`);
    timeoutSeconds = Math.max(1, Math.ceil(o.timeoutMs / 1000));
  }
  if (!o.cwd && !env.length && timeoutSeconds === undefined) {
    return { command: isArgv ? [...command] : command, shell };
  }
  // The inner command as argv: a shell command runs under `sh -c`, a string without shell is split by the
  // shell too (the server would split it like a shell, shlex).
  const inner: string[] =
    isArgv && !shell ? [...command] : ['sh', '-c', isArgv ? command.map(shQuote).join(' ') : command];
  const argv: string[] = [];
  if (o.cwd) argv.push('sh', '-c', 'cd -- "$0" && exec "$@"', o.cwd);
  if (env.length) argv.push('env', ...env.map(([k, v]) => `${k}=${v}`));
  if (timeoutSeconds !== undefined) argv.push('timeout', '-k', '5', String(timeoutSeconds));
  argv.push(...inner);
  return { command: argv, shell: false, timeoutSeconds };
}

interface ExecuteAnswer {
  status?: string;
  output?: unknown;
  error?: unknown;
  returncode?: unknown;
  message?: unknown;
}

/** The CommandResult of an /execute answer (200, or the server's JSON 500 for a command it could not run). */
export function resultOf(a: HttpAnswer, c: GuestCommand, server: string): CommandResult {
  let r: ExecuteAnswer;
  try {
    r = JSON.parse(a.body.toString('utf8')) as ExecuteAnswer;
  } catch {
    throw new OsworldHttpError(
      `osworld server ${server}: POST /execute answered HTTP ${a.status} with a body that is not JSON: ${excerpt(a.body)}`,
      'POST /execute',
      a.status,
    );
  }
  if (a.status === 200 && r?.status === 'success') {
    const exitCode = typeof r.returncode === 'number' ? r.returncode : null;
    const timedOut = c.timeoutSeconds !== undefined && (exitCode === 124 || exitCode === 137);
    return {
      stdout: typeof r.output === 'string' ? r.output : '',
      stderr: typeof r.error === 'string' ? r.error : '',
      exitCode: timedOut ? null : exitCode,
      timedOut,
    };
  }
  const message = typeof r?.message === 'string' ? r.message : excerpt(a.body);
  if (a.status === 500 && r?.status === 'error') {
    // subprocess.TimeoutExpired: "Command '…' timed out after 120 seconds"
    if (/timed out after/i.test(message))
      return { stdout: '', stderr: message, exitCode: null, timedOut: true };
    // FileNotFoundError and the like: the program could not be started (the local shell says 127 too).
    return {
      stdout: '',
      stderr: `cannot run the command on the guest: ${message}`,
      exitCode: 127,
      timedOut: false,
    };
  }
  throw new OsworldHttpError(
    `osworld server ${server}: POST /execute answered HTTP ${a.status}: ${excerpt(message)}`,
    'POST /execute',
    a.status,
  );
}
