// Options several commands share, declared once: the machine (--env), tasks at once (--parallel), the folder for
// run folders (--out), the grading profile and --json; a command's table spreads in the ones it takes.
import { gradingProfiles, isGradingProfile, type GradingProfile } from '../../evaluators/profile';
import { parallelOption, UsageError } from '../command';
import { envOption, envUsage } from '../env-option';
import type { OptionSpec } from './table';

/** `--grading-profile` / `--profile` values: one of the three profiles, else a usage error. */
export function gradingProfileFlag(value: string): GradingProfile {
  if (!isGradingProfile(value))
    throw new UsageError(`grading profile must be ${gradingProfiles.join(', ')}, not '${value}'`);
  return value;
}

export const envSpec = {
  kind: 'string',
  value: 'SPEC',
  help: `the machine: ${envUsage('')}`,
  parse: (v: string) => envOption(v),
} as const satisfies OptionSpec<string>;

export const parallelSpec = {
  kind: 'string',
  value: 'N',
  default: 1,
  help: 'sandbox displays at once (default 1)',
  parse: parallelOption,
} as const satisfies OptionSpec<number>;

export const outSpec = {
  kind: 'string',
  value: 'DIR',
  default: 'results',
  complete: 'dir',
  help: 'where the run folders go (default ./results)',
} as const satisfies OptionSpec<string>;

export const gradingProfileSpec = {
  kind: 'string',
  value: 'P',
  complete: gradingProfiles,
  help: "grade as spider2v | osworld | native (default: each task's own benchmark)",
  parse: (v: string) => gradingProfileFlag(v),
} as const satisfies OptionSpec;

export const jsonSpec = { kind: 'boolean', help: 'print the result as JSON' } as const satisfies OptionSpec;
