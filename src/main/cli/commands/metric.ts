// `proctor metric NAME --result R --expected E`: one metric on files or literal values, under a grading profile,
// with the robust second opinion beside — for task authors checking an evaluator, and for tests.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { metrics } from '../../evaluators/catalog';
import { gradingProfiles, variantOf } from '../../evaluators/profile';
import { gradingProfileFlag } from '../options/common';
import { metricFamilyOf } from '../../evaluators/family';
import { tryMetric } from '../../evaluators/try-metric';

const usageHead = `Usage: proctor metric NAME --result R [--expected E] [--options JSON] [--profile P] [--json]

Runs metric NAME on R and E, faithful to the benchmark of profile P (${gradingProfiles.join(', ')}; default
osworld for OSWorld's families, else spider2v), and its robust variant beside as a second opinion.`;

export { gradingProfileFlag };

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
    throw new UsageError(
      `${flag}: no file at ${path}${literal ? `; for a literal value write ${flag} 'json:${v.length > 40 ? `${v.slice(0, 40)}…` : v}'` : ''}`,
    );
  }
  return path;
}

const profileSpec = {
  kind: 'string',
  value: 'P',
  complete: gradingProfiles,
  help: `${gradingProfiles.join(' | ')} (default osworld for OSWorld's families, else spider2v)`,
  parse: (v: string) => gradingProfileFlag(v),
} as const;

const metricOptions = optionTable({
  result: {
    kind: 'string',
    value: 'R',
    complete: 'file',
    help: 'a file path, or json:<value> for a literal value (a rule object, a string, a list)',
    parse: (v: string, flag: string) => inputOf(flag, v),
  },
  expected: {
    kind: 'string',
    value: 'E',
    complete: 'file',
    help: 'the same, for the expected side',
    parse: (v: string, flag: string) => inputOf(flag, v),
  },
  options: {
    kind: 'string',
    value: 'JSON',
    help: "the metric's options as a JSON object, e.g. '{\"strict\": false}'",
    parse: (v: string, flag: string) => {
      const o = inputOf(flag, `json:${v}`);
      if (typeof o !== 'object' || o === null || Array.isArray(o))
        throw new UsageError('--options must be a JSON object');
      return o as Record<string, unknown>;
    },
  },
  profile: profileSpec,
  'grading-profile': { ...profileSpec, hidden: true, help: 'the same as --profile' },
  json: {
    kind: 'boolean',
    help: 'print {"score", "reason", "profile", "second_opinion": {"score", "reason"}} (and "brittle" when they differ)',
  },
});

const usage = usageText(usageHead, metricOptions);

export const command: CliCommand = {
  name: 'metric',
  summary: 'run one metric on files or values, faithful to a benchmark, with a robust second opinion',
  usage,
  options: metricOptions,
  async run(argv, io) {
    const { values, positionals, given } = parseOptions(metricOptions, argv);
    if (positionals.length > 1)
      throw new UsageError(`one metric name, not '${positionals[0]}' and '${positionals[1]}'`);
    const name = positionals[0];
    const { result, expected } = values;
    const options = values.options ?? {};
    let profile = values.profile ?? values['grading-profile'];
    const json = !!values.json;
    const hasResult = given.includes('result');
    if (!name) throw new UsageError('give a metric name');
    if (!metrics.has(name)) throw new UsageError(metrics.unknownMessage(name));
    if (!hasResult) throw new UsageError('--result is required');
    // An OSWorld family's metric is OSWorld's reading; anything else defaults to Spider2-V's
    profile ??= metricFamilyOf(name) ? 'osworld' : 'spider2v';
    const trial = await tryMetric(name, result, expected, options, profile);
    if (json) io.out(JSON.stringify(trial));
    else {
      io.out(`${name} (${profile}): ${trial.score} — ${trial.reason}`);
      if (variantOf(name, profile))
        io.out(`second opinion (robust): ${trial.second_opinion.score} — ${trial.second_opinion.reason}`);
      else io.out(`(one reading: ${name} has no separate robust variant under ${profile})`);
      if (trial.brittle) io.out(`brittle evaluator: ${trial.brittle}`);
    }
    return 0;
  },
};
