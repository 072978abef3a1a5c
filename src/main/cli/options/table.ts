// A command's options declared once (name, kind, value, default, help, repeatable, env var) and the one parser
// over them (`node:util` parseArgs): help text, shell completion and the run's stored settings read the same table.
import { parseArgs } from 'node:util';
import { nearestName } from '../../nearest-name';
import { UnknownOptionError, UsageError } from '../command';

/** `string`: takes a value (`--x V` or `--x=V`); `boolean`: a switch; `optional-value`: `--x` alone or `--x=V` only. */
export type OptionKind = 'string' | 'boolean' | 'optional-value';

export interface OptionSpec<T = unknown> {
  kind: OptionKind;
  /** The value's placeholder in the help (`N`, `FILE`, `NAME`); `optional-value` shows it as `[=FILE]`. */
  value?: string;
  /** One paragraph; `\n` starts a new line. `(default …)` is added from `default` unless the text says it. */
  help: string;
  /** The value when the option is not given (and no env var holds it). */
  default?: T;
  /** Given more than once, every value is kept (in order); else the last one wins. */
  repeatable?: boolean;
  /** An environment variable read when the option is not given. */
  env?: string;
  /** A heading printed before this option in the help (starts a group). */
  group?: string;
  /** Reads and checks the value (throws UsageError naming the flag); default: the text as given. */
  parse?: (raw: string, flag: string) => T;
  /** What the shell completes the value with. */
  complete?: 'file' | 'dir' | readonly string[];
  /** Left out of help and completion. */
  hidden?: boolean;
  /** A one-letter alias (`-o` for `--output`). */
  short?: string;
}

export type OptionTable = Record<string, OptionSpec<any>>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The type of one option's value as parsed. */
export type OptionValue<S> = S extends { parse: (raw: string, flag: string) => infer T }
  ? T
  : S extends { kind: 'boolean' }
    ? boolean
    : S extends { kind: 'optional-value' }
      ? true | string
      : string;

type Slot<S> = S extends { repeatable: true } ? OptionValue<S>[] : OptionValue<S>;

/** Parsed values: an option with a default always has one; a repeatable one is a list (empty when not given). */
export type OptionValues<T extends OptionTable> = {
  [K in keyof T]: T[K] extends { default: unknown } | { repeatable: true }
    ? Slot<T[K]>
    : Slot<T[K]> | undefined;
};

export interface ParsedOptions<T extends OptionTable> {
  values: OptionValues<T>;
  positionals: string[];
  /** Options given on the command line (or by their env var), by table name, in the order first given. */
  given: (keyof T & string)[];
}

/** Declares a table (keeps its literal types for OptionValues). */
export function optionTable<const T extends OptionTable>(table: T): T {
  return table;
}

export interface ParseOptionsOptions {
  /** Refuses an option name before anything else (its value is never echoed): a message, or undefined to go on. */
  refuse?: (flag: string) => string | undefined;
  /** Positional arguments allowed (default true). */
  positionals?: boolean;
  /** Environment read for `env` options (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Parses `argv` by the table: `--name value` and `--name=value`, `--` ends the options. An unknown option is a
 * usage error naming the closest known one; a value-taking option without a value, or a switch given one, too.
 */
export function parseOptions<T extends OptionTable>(
  table: T,
  argv: readonly string[],
  o: ParseOptionsOptions = {},
): ParsedOptions<T> {
  const config: Record<string, { type: 'string' | 'boolean'; short?: string }> = {};
  for (const [name, spec] of Object.entries(table))
    config[name] = {
      type: spec.kind === 'string' ? 'string' : 'boolean',
      ...(spec.short ? { short: spec.short } : {}),
    };
  const { tokens } = parseArgs({
    args: [...argv],
    options: config,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, unknown> = {};
  const given: string[] = [];
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') {
      if (o.positionals === false) throw new UsageError(`unexpected argument '${t.value}'`);
      positionals.push(t.value);
      continue;
    }
    if (t.kind !== 'option') continue;
    const flag = t.rawName;
    const refused = o.refuse?.(flag);
    if (refused) throw new UsageError(refused);
    const spec =
      Object.hasOwn(table, t.name) && (flag === `--${t.name}` || flag === `-${table[t.name].short}`)
        ? table[t.name]
        : undefined;
    if (!spec) {
      // Only the name: a mistyped secret flag must not be echoed with its value.
      const near = nearestName(flag, knownFlags(table));
      throw new UnknownOptionError(`unknown option '${flag}'${near ? ` (closest known: '${near}')` : ''}`);
    }
    let value: unknown;
    if (spec.kind === 'boolean') {
      if (t.value !== undefined) throw new UsageError(`${flag} takes no value`);
      value = true;
    } else if (spec.kind === 'optional-value') {
      if (t.value === '')
        throw new UsageError(
          `${flag}=${spec.value ?? 'VALUE'} needs a ${(spec.value ?? 'value').toLowerCase()} name`,
        );
      value = t.value === undefined ? true : spec.parse ? spec.parse(t.value, flag) : t.value;
    } else {
      if (t.value === undefined || (!t.inlineValue && t.value.startsWith('--')))
        throw new UsageError(`${flag} needs a value`);
      value = spec.parse ? spec.parse(t.value, flag) : t.value;
    }
    if (!given.includes(t.name)) given.push(t.name);
    if (spec.repeatable) ((values[t.name] ??= []) as unknown[]).push(value);
    else values[t.name] = value;
  }
  const env = o.env ?? process.env;
  for (const [name, spec] of Object.entries(table)) {
    if (name in values) continue;
    const fromEnv = spec.env ? env[spec.env] : undefined;
    if (fromEnv !== undefined && fromEnv !== '') {
      const flag = `--${name} (from ${spec.env})`;
      const v =
        spec.kind === 'boolean'
          ? !/^(0|false|no)$/i.test(fromEnv)
          : spec.parse
            ? spec.parse(fromEnv, flag)
            : fromEnv;
      values[name] = spec.repeatable ? [v] : v;
      given.push(name);
    } else if (spec.default !== undefined) values[name] = spec.default;
    else if (spec.repeatable) values[name] = [];
  }
  return { values: values as OptionValues<T>, positionals, given: given as (keyof T & string)[] };
}

/** Every flag of the table, `--help` included. */
export function knownFlags(table: OptionTable): string[] {
  return ['--help', ...Object.keys(table).map((n) => `--${n}`)].sort();
}
