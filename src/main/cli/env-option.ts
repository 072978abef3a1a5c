// `--env SPEC` of the commands that drive a machine (run, demo, selftest, act, screenshot): read and checked
// against the environments registry, so a mistake is a usage error before anything starts.
import { checkEnvSpec, envKindLines, EnvSpecError, parseEnvSpec } from '../env/kinds';
import { UsageError } from './command';

/** The spec as given, checked (`checkKind: false`: only its syntax, e.g. a stored command line read again). */
export function envOption(value: string, options: { checkKind?: boolean } = {}): string {
  try {
    if (options.checkKind === false) parseEnvSpec(value);
    else checkEnvSpec(value);
  } catch (e) {
    if (e instanceof EnvSpecError) throw new UsageError(`--env: ${e.message}`);
    throw e;
  }
  return value.trim();
}

/** The known kinds for a usage text, one per line after the first (each later line starts with `indent`). */
export function envUsage(indent: string): string {
  return ['default local; one of', ...envKindLines()].join(`\n${indent}  `);
}
