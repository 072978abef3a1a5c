// `proctor act`: perform pyautogui code or a computer_13 action on an X display (or another environment, --env)
// and print what was done.
import { UsageError, type CliCommand, type CliIo } from '../command';
import { parseComputer13, parsePyautogui, describeAction } from '../../actions/index';
import type { Environment } from '../../env/environment';
import { checkEnvSpec, createEnvironment, storableEnvSpec } from '../../env/kinds';
import { localScreen } from '../../env/local/kind';
import { createLocalEnvironment, type LocalEnvironmentOptions } from '../../env/local/local-environment';
import { envOption, envUsage } from '../env-option';
import { DEFAULT_SCREEN } from '../../../shared/screen';

const usage = `Usage: proctor act (--code "<pyautogui code>" | --json '<computer_13 action>') [--display :N | --user-display]
                   [--width W --height H] [--env SPEC]

Parses the actions (refused whole, with line, column and reason, when any part is not allowed), performs them
and prints one line per action. Without --display, a fresh sandbox display is started and stopped afterwards.

  --display :N      drive this X display (a sandbox another process started)
  --user-display    drive YOUR display ($DISPLAY); move the pointer into a screen corner to stop
  --width, --height size of a fresh sandbox display (default 1920x1080)
  --env SPEC        the machine: ${envUsage('                  ')}
Exit 1 when the actions are refused or fail.`;

export interface DisplayFlags {
  display?: string;
  userDisplay: boolean;
  width?: number;
  height?: number;
  /** Environment spec (--env); default local. */
  env?: string;
}

/** Reads the display flags shared by `act` and `screenshot`; returns the other arguments. */
export function readDisplayFlags(argv: string[], flags: DisplayFlags, other: (flag: string, value: () => string) => boolean): void {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    const size = (): number => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 64) throw new UsageError(`${a} must be a whole number of pixels (at least 64)`);
      return n;
    };
    if (a === '--display') flags.display = value();
    else if (a === '--user-display') flags.userDisplay = true;
    else if (a === '--width') flags.width = size();
    else if (a === '--height') flags.height = size();
    else if (a === '--env') flags.env = envOption(value());
    else if (!other(a, value)) throw new UsageError(`unknown option '${a}'`);
  }
  if (flags.display && !/^:\d+(\.\d+)?$/.test(flags.display)) throw new UsageError(`--display must look like :N, got '${flags.display}'`);
}

/**
 * The environment `act` and `screenshot` drive: the local one (a fresh sandbox display, or the display the flags
 * name), or another kind by --env. `where` names it for output lines; `fresh` when a sandbox was started.
 */
export async function openEnvironment(
  flags: DisplayFlags,
  io: CliIo,
  local: Pick<LocalEnvironmentOptions, 'captureBackend'> = {},
): Promise<{ env: Environment; where: string; fresh: boolean }> {
  const spec = checkEnvSpec(flags.env ?? 'local');
  if (spec.kind === 'local') {
    const size = localScreen(spec);
    if (size && (flags.width !== undefined || flags.height !== undefined)) throw new UsageError(`give the screen size once: --env ${spec.text} or --width/--height`);
    const env = await createLocalEnvironment({
      display: flags.display,
      userDisplay: flags.userDisplay,
      width: size?.width ?? flags.width,
      height: size?.height ?? flags.height,
      notify: io.err,
      ...local,
    });
    return { env, where: env.display, fresh: !flags.display && !flags.userDisplay };
  }
  const localOnly = [flags.display && '--display', flags.userDisplay && '--user-display', flags.width !== undefined && '--width', flags.height !== undefined && '--height', local.captureBackend && '--backend'].filter(Boolean);
  if (localOnly.length) throw new UsageError(`${localOnly.join(', ')}: only for the local environment, and --env is ${spec.kind}`);
  const env = await createEnvironment(spec, { worker: 0, ...DEFAULT_SCREEN, notify: io.err });
  return { env, where: storableEnvSpec(spec.text), fresh: false };
}

export const command: CliCommand = {
  name: 'act',
  summary: 'perform pyautogui code or a computer_13 action on an X display',
  usage,
  async run(argv, io) {
    const flags: DisplayFlags = { userDisplay: false };
    let code: string | undefined;
    let json: string | undefined;
    readDisplayFlags(argv, flags, (a, value) => {
      if (a === '--code') code = value();
      else if (a === '--json') json = value();
      else return false;
      return true;
    });
    if ((code === undefined) === (json === undefined)) throw new UsageError('give exactly one of --code or --json');
    let outcome;
    if (code !== undefined) outcome = parsePyautogui(code);
    else {
      let value: unknown;
      try {
        value = JSON.parse(json!);
      } catch (e) {
        io.err(`proctor act: --json is not JSON: ${(e as Error).message}`);
        return 1;
      }
      outcome = parseComputer13(value);
    }
    if (!outcome.ok) {
      io.err(`proctor act: refused: ${outcome.error.message}`);
      return 1;
    }
    const { env, where, fresh } = await openEnvironment(flags, io);
    try {
      if (fresh) io.err(`proctor act: started sandbox display ${where}`);
      for (const action of outcome.actions) {
        await env.perform([action]);
        io.out(`${where}: ${describeAction(action)}`);
      }
      return 0;
    } catch (e) {
      io.err(`proctor act: ${(e as Error).name}: ${(e as Error).message}`);
      return 1;
    } finally {
      await env.close();
    }
  },
};
