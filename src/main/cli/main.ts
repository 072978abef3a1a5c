// Entry of the `proctor` command: finds the subcommand module by name and runs it.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nearestName } from '../nearest-name';
import {
  processIo,
  splitOptionValues,
  UnknownOptionError,
  UsageError,
  usageOptions,
  type CliCommand,
  type CliIo,
} from './command';
import { knownFlags } from './options/table';

const commandsDir = join(dirname(fileURLToPath(import.meta.url)), 'commands');

function commandFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const f of readdirSync(commandsDir)) {
    if (!/\.(ts|js|mjs)$/.test(f) || /\.test\.|\.d\.ts$/.test(f)) continue;
    files.set(f.replace(/\.(ts|js|mjs)$/, ''), join(commandsDir, f));
  }
  return files;
}

async function load(file: string): Promise<CliCommand> {
  const mod = (await import(pathToFileURL(file).href)) as { command: CliCommand };
  return mod.command;
}

/** Every command, by name (for help and shell completion). */
export async function allCommands(): Promise<CliCommand[]> {
  const out: CliCommand[] = [];
  for (const [, file] of [...commandFiles()].sort()) out.push(await load(file));
  return out;
}

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const files = commandFiles();
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(
      'proctor — an evaluation workbench for computer-use agents\n\nUsage: proctor <command> [options]\n',
    );
    for (const [, file] of [...files].sort()) {
      const c = await load(file);
      io.out(`  ${c.name.padEnd(12)} ${c.summary}`);
    }
    io.out('\nRun `proctor <command> --help` for its options.');
    return name ? 0 : 2;
  }
  if (name === '--version') {
    const { proctorVersion } = await import('../version');
    io.out(proctorVersion);
    return 0;
  }
  const file = files.get(name);
  if (!file) {
    io.err(`proctor: unknown command '${name}'. Known: ${[...files.keys()].sort().join(', ')}`);
    return 2;
  }
  const command = await load(file);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage);
    return 0;
  }
  // One convention for every command: `--name=value` is `--name value`; an unknown option is answered with the
  // closest one the command knows, whichever parser the command uses.
  // A command with an option table parses its own arguments (and names the closest option itself).
  const { known, optionalValue } = command.options
    ? { known: knownFlags(command.options), optionalValue: new Set<string>() }
    : usageOptions(command.usage);
  try {
    return await command.run(command.options ? rest : splitOptionValues(rest, optionalValue), io);
  } catch (e) {
    const parseArgsUnknown = (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION';
    if (
      e instanceof UsageError ||
      parseArgsUnknown ||
      (e as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
    ) {
      let message = parseArgsUnknown
        ? `unknown option ${/'([^']+)'/.exec((e as Error).message)?.[0] ?? ''}`.trim()
        : (e as Error).message;
      const unknown = /^unknown (?:option|argument|flag) '(--[^'=\s]+)/i.exec(message)?.[1];
      if (unknown) message = message.replace(/^unknown (?:option|argument|flag)/i, 'unknown option');
      const near = unknown && !(e instanceof UnknownOptionError) ? nearestName(unknown, known) : undefined;
      if (near && !message.includes('(closest known:')) message += ` (closest known: '${near}')`;
      io.err(`proctor ${name}: ${message}\n\n${command.usage}`);
      return 2;
    }
    throw e;
  }
}
