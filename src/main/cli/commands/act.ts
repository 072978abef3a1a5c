// `proctor act`: perform pyautogui code or a computer_13 action on an X display (or another environment, --env)
// and print what was done.
import { UsageError, type CliCommand, type CliIo } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions, type OptionValues } from '../options/table';
import { parseComputer13, parsePyautogui, describeAction } from '../../actions/index';
import type { Environment } from '../../env/environment';
import { checkEnvSpec, createEnvironment, storableEnvSpec } from '../../env/kinds';
import { localScreen } from '../../env/local/kind';
import { createLocalEnvironment, type LocalEnvironmentOptions } from '../../env/local/local-environment';
import { envOption, envUsage } from '../env-option';
import { DEFAULT_SCREEN } from '../../../shared/screen';

/** The display options `act` and `screenshot` share. */
export const displayOptions = optionTable({
  display: {
    kind: 'string',
    value: ':N',
    help: 'drive this X display (a sandbox another process started)',
    parse: (v: string) => {
      if (!/^:\d+(\.\d+)?$/.test(v)) throw new UsageError(`--display must look like :N, got '${v}'`);
      return v;
    },
  },
  'user-display': {
    kind: 'boolean',
    help: 'drive YOUR display ($DISPLAY); move the pointer into a screen corner to stop',
  },
  width: {
    kind: 'string',
    value: 'W',
    help: 'width of a fresh sandbox display (default 1920)',
    parse: pixels,
  },
  height: {
    kind: 'string',
    value: 'H',
    help: 'height of a fresh sandbox display (default 1080)',
    parse: pixels,
  },
  env: {
    kind: 'string',
    value: 'SPEC',
    help: `the machine: ${envUsage('')}`,
    parse: (v: string) => envOption(v),
  },
});

function pixels(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 64)
    throw new UsageError(`${flag} must be a whole number of pixels (at least 64)`);
  return n;
}

const options = optionTable({
  code: { kind: 'string', value: '"<pyautogui code>"', help: 'pyautogui code to perform' },
  json: { kind: 'string', value: "'<computer_13 action>'", help: 'a computer_13 action (JSON) to perform' },
  ...displayOptions,
});

const usage = usageText(
  `Usage: proctor act (--code "<pyautogui code>" | --json '<computer_13 action>') [--display :N | --user-display]
                   [--width W --height H] [--env SPEC]

Parses the actions (refused whole, with line, column and reason, when any part is not allowed), performs them
and prints one line per action. Without --display, a fresh sandbox display is started and stopped afterwards.`,
  options,
  'Exit 1 when the actions are refused or fail.',
);

export interface DisplayFlags {
  display?: string;
  userDisplay: boolean;
  width?: number;
  height?: number;
  /** Environment spec (--env); default local. */
  env?: string;
}

/** The display flags `act` and `screenshot` read from their parsed options. */
export function displayFlagsOf(v: OptionValues<typeof displayOptions>): DisplayFlags {
  return {
    userDisplay: !!v['user-display'],
    ...(v.display !== undefined ? { display: v.display } : {}),
    ...(v.width !== undefined ? { width: v.width } : {}),
    ...(v.height !== undefined ? { height: v.height } : {}),
    ...(v.env !== undefined ? { env: v.env } : {}),
  };
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
    if (size && (flags.width !== undefined || flags.height !== undefined))
      throw new UsageError(`give the screen size once: --env ${spec.text} or --width/--height`);
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
  const localOnly = [
    flags.display && '--display',
    flags.userDisplay && '--user-display',
    flags.width !== undefined && '--width',
    flags.height !== undefined && '--height',
    local.captureBackend && '--backend',
  ].filter(Boolean);
  if (localOnly.length)
    throw new UsageError(
      `${localOnly.join(', ')}: only for the local environment, and --env is ${spec.kind}`,
    );
  const env = await createEnvironment(spec, { worker: 0, ...DEFAULT_SCREEN, notify: io.err });
  return { env, where: storableEnvSpec(spec.text), fresh: false };
}

export const command: CliCommand = {
  name: 'act',
  summary: 'perform pyautogui code or a computer_13 action on an X display',
  usage,
  options,
  async run(argv, io) {
    const { values } = parseOptions(options, argv, { positionals: false });
    const flags = displayFlagsOf(values);
    const { code, json } = values;
    if ((code === undefined) === (json === undefined))
      throw new UsageError('give exactly one of --code or --json');
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
