// A `proctor` subcommand. Each file in ./commands exports one `command`; main.ts finds them by name.
import { parseQueueUrl, QueueUrlError } from '../queue/connection';
import type { OptionTable } from './options/table';

export interface CliCommand {
  name: string;
  /** One line for `proctor help`. */
  summary: string;
  /** Usage text shown by `proctor <name> --help` and on a usage error (generated from `options` when declared). */
  usage: string;
  /**
   * The command's options declared once (options/table.ts): main then hands `run` the arguments untouched (the
   * table's parser reads `--name=value`), and help, completion and unknown-option hints come from it.
   */
  options?: OptionTable;
  /** Returns the process exit code. */
  run(argv: string[], io: CliIo): Promise<number>;
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const processIo: CliIo = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};

/** A usage mistake: main prints the message and the command's usage, exit 2. */
export class UsageError extends Error {}

/**
 * An unknown option, from a parser that knew the options that apply where it was given (a subcommand's own
 * table) and has named the nearest of them, if any: main adds no guess from the command's other options.
 */
export class UnknownOptionError extends UsageError {}

export { shownPath } from '../text/shown-path';

/** `--queue redis://HOST:PORT` of run, worker and queue: the value, once it reads as a Redis URL. */
export function queueOption(value: string): string {
  try {
    parseQueueUrl(value);
  } catch (e) {
    if (e instanceof QueueUrlError) throw new UsageError(`--queue: ${e.message}`);
    throw e;
  }
  return value;
}

/** `--parallel N` of every command that runs tasks (run, demo, selftest): a whole number from 1 to 64. */
export function parallelOption(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 64)
    throw new UsageError(`--parallel must be a whole number from 1 to 64, not '${value}'`);
  return Number(value);
}

/** The options a usage text names (`--name`), and those whose value is optional (`--name[=VALUE]`). */
export function usageOptions(usage: string): { known: string[]; optionalValue: Set<string> } {
  const known = new Set<string>(['--help']);
  const optionalValue = new Set<string>();
  for (const m of usage.matchAll(/(--[a-z][a-z0-9-]*)(\[=)?/g)) {
    known.add(m[1]);
    if (m[2]) optionalValue.add(m[1]);
  }
  return { known: [...known].sort(), optionalValue };
}

/**
 * The one command-line convention of every command: `--name=value` means `--name value` (except for options whose
 * value is optional, which take only the `=` form). Arguments after `--` are left alone.
 */
export function splitOptionValues(argv: string[], optionalValue: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return [...out, ...argv.slice(i)];
    const m = /^(--[a-z][a-z0-9-]*)=([\s\S]*)$/.exec(a);
    if (m && !optionalValue.has(m[1])) out.push(m[1], m[2]);
    else out.push(a);
  }
  return out;
}

/** The value after option `name` at `argv[i]` (it must not be another option). */
export function optionValue(argv: string[], i: number, name: string): string {
  const v = argv[i];
  if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
  return v;
}

/** A whole-number option ≥ 1 from parsed flags, or `fallback` when absent (the judge commands' --max-images, …). */
export function wholeNumberFlag(flags: Record<string, unknown>, name: string, fallback: number): number {
  if (flags[name] === undefined) return fallback;
  const n = Number(flags[name]);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a whole number ≥ 1`);
  return n;
}

/** The judge commands' --screenshots: every screenshot, or the first and the last. */
export function screenshotsFlag(flags: Record<string, unknown>): 'all' | 'first-last' {
  const shots = flags['--screenshots'] ?? 'all';
  if (shots !== 'all' && shots !== 'first-last')
    throw new UsageError(`--screenshots is 'all' or 'first-last', not '${String(shots)}'`);
  return shots;
}
