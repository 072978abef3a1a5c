// `proctor metric NAME --result R --expected E`: one metric on files or literal values, under a grading profile,
// with the robust second opinion beside — for task authors checking an evaluator, and for tests.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, optionValue, type CliCommand } from '../command';
import { metrics } from '../../evaluators/catalog';
import { gradingProfiles, isGradingProfile, variantOf, type GradingProfile } from '../../evaluators/profile';
import { metricFamilyOf } from '../../evaluators/family';
import { tryMetric } from '../../evaluators/try-metric';

const usage = `Usage: proctor metric NAME --result R [--expected E] [--options JSON] [--profile P] [--json]

Runs metric NAME on R and E, faithful to the benchmark of profile P (${gradingProfiles.join(', ')}; default
osworld for OSWorld's families, else spider2v), and its robust variant beside as a second opinion.
R, E       a file path, or json:<value> for a literal value (a rule object, a string, a list)
--options  the metric's options as a JSON object, e.g. '{"strict": false}'
--json     print {"score", "reason", "profile", "second_opinion": {"score", "reason"}} (and "brittle" when they differ)`;

/** `--grading-profile` / `--profile` values: one of the three profiles, else a usage error. */
export function gradingProfileFlag(value: string): GradingProfile {
  if (!isGradingProfile(value)) throw new UsageError(`grading profile must be ${gradingProfiles.join(', ')}, not '${value}'`);
  return value;
}

/** An input: `json:<value>` parsed, else a path to an existing file (made absolute). */
function inputOf(flag: string, v: string): unknown {
  if (v.startsWith('json:')) {
    try {
      return JSON.parse(v.slice(5)) as unknown;
    } catch (e) {
      throw new UsageError(`${flag} json: is not JSON: ${(e as Error).message}`);
    }
  }
  const path = resolve(v);
  if (!existsSync(path)) {
    // a rule or list typed as it is: say how to give a literal value
    const literal = /^\s*[[{"]/.test(v) || /^(true|false|null|-?\d+(\.\d+)?)$/.test(v.trim());
    throw new UsageError(`${flag}: no file at ${path}${literal ? `; for a literal value write ${flag} 'json:${v.length > 40 ? `${v.slice(0, 40)}…` : v}'` : ''}`);
  }
  return path;
}

export const command: CliCommand = {
  name: 'metric',
  summary: 'run one metric on files or values, faithful to a benchmark, with a robust second opinion',
  usage,
  async run(argv, io) {
    let name: string | undefined;
    let result: unknown;
    let expected: unknown;
    let options: Record<string, unknown> = {};
    let profile: GradingProfile | undefined;
    let json = false;
    let hasResult = false;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      const value = () => optionValue(argv, ++i, a);
      if (a === '--result') {
        result = inputOf(a, value());
        hasResult = true;
      } else if (a === '--expected') expected = inputOf(a, value());
      else if (a === '--options') {
        const v = inputOf(a, `json:${value()}`);
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new UsageError('--options must be a JSON object');
        options = v as Record<string, unknown>;
      } else if (a === '--profile' || a === '--grading-profile') profile = gradingProfileFlag(value());
      else if (a === '--json') json = true;
      else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
      else if (name === undefined) name = a;
      else throw new UsageError(`one metric name, not '${name}' and '${a}'`);
    }
    if (!name) throw new UsageError('give a metric name');
    if (!metrics.has(name)) throw new UsageError(metrics.unknownMessage(name));
    if (!hasResult) throw new UsageError('--result is required');
    // An OSWorld family's metric is OSWorld's reading; anything else defaults to Spider2-V's
    profile ??= metricFamilyOf(name) ? 'osworld' : 'spider2v';
    const trial = await tryMetric(name, result, expected, options, profile);
    if (json) io.out(JSON.stringify(trial));
    else {
      io.out(`${name} (${profile}): ${trial.score} — ${trial.reason}`);
      if (variantOf(name, profile)) io.out(`second opinion (robust): ${trial.second_opinion.score} — ${trial.second_opinion.reason}`);
      else io.out(`(one reading: ${name} has no separate robust variant under ${profile})`);
      if (trial.brittle) io.out(`brittle evaluator: ${trial.brittle}`);
    }
    return 0;
  },
};
