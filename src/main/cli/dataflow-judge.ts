// `proctor dataflow judge <records…>`: the command line of the judge on UFO dataflow execution records
// (dataflow/judge.ts); the `dataflow` command (commands/dataflow.ts) dispatches its `judge` subcommand
// here. It lives in cli/ because the judge does not know the command line.
import { relative, resolve } from 'node:path';
import { resolveEndpoint } from '../agents/endpoint';
import { UsageError, type CliIo } from './command';
import { optionTable, parseOptions } from './options/table';
import { recordTypes, type RecordType } from '../dataflow/record';
import { expandPaths } from '../tasks/files';
import { formatProblem } from '../tasks/validation';
import { judgeDataflowFile, type DataflowJudgeOutcome } from '../dataflow/judge';

export const dataflowJudgeUsage = `Usage: proctor dataflow judge <records…> [--model M] [--base-url URL] [--logs <folder>]
                              [--out <folder>] [--in-place] [--route --out <results> [--type execution|dataflow]]
                              [--overwrite] [--screenshots all|first-last] [--max-images N] [--concurrency N] [--json]

Judges executed UFO dataflow records (files, or folders walked for .json files; *.judged.json skipped) with the
LLM judge, as UFO's ExecuteEvalAgent: the request, the executed plan (Subtask, ControlText, Function, Args,
Success per step) and the execution's screenshots, the final one always. Writes the record again with
execution_result {result: {reason, sub_scores, complete}, error} in the execution schema's form and
time_cost.execute_eval; a model error or unreadable replies give error + complete "unsure".
Screenshots (action_step<N>.png, action_step_final.png) are looked for in <record dir>/<name>/,
<record dir>/logs/<name>/, <record dir>/logs/<unique_id>/, or with --logs in <logs>/<name>/, <logs>/<unique_id>/, <logs>.
Output: <name>.judged.json beside the record (default), <out>/<name>.json (--out), the record itself (--in-place),
or with --route filed as <out>/<type>/<bucket>/<unique_id>.json by complete (execution_pass|fail|unsure).
An existing output is not replaced without --overwrite. Exit 1 if a record was refused or could not be judged.`;

const wholeNumber = (v: string, flag: string): number => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a whole number ≥ 1`);
  return n;
};

/** `proctor dataflow judge`'s options (the help lines come from here). */
export const dataflowJudgeOptions = optionTable({
  model: { kind: 'string', value: 'M', help: "the judge's model (default the config's judge section)" },
  'base-url': { kind: 'string', value: 'URL', help: 'any OpenAI-compatible server' },
  logs: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'where the screenshots are (also looked for beside the record)',
  },
  out: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'write <out>/<name>.json (with --route: the results folder)',
  },
  'in-place': { kind: 'boolean', help: 'write the judged record over the record itself' },
  route: { kind: 'boolean', help: 'file each judged record by complete under --out' },
  type: {
    kind: 'string',
    value: 'T',
    complete: ['execution', 'dataflow'],
    help: 'with --route: the type to file as (execution | dataflow)',
  },
  overwrite: { kind: 'boolean', help: 'replace an existing output' },
  screenshots: {
    kind: 'string',
    value: 'S',
    default: 'all',
    complete: ['all', 'first-last'],
    help: 'every screenshot, or the first and the last',
    parse: (v: string) => {
      if (v !== 'all' && v !== 'first-last')
        throw new UsageError(`--screenshots is 'all' or 'first-last', not '${v}'`);
      return v as 'all' | 'first-last';
    },
  },
  'max-images': {
    kind: 'string',
    value: 'N',
    default: 40,
    help: 'screenshots sent at most',
    parse: wholeNumber,
  },
  concurrency: { kind: 'string', value: 'N', default: 2, help: 'records judged at once', parse: wholeNumber },
  json: { kind: 'boolean', help: 'print the outcomes as JSON' },
});

function shown(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('/') || rel === '' || rel.length > file.length ? file : rel;
}

export async function runDataflowJudge(argv: string[], io: CliIo): Promise<number> {
  const { values: v, positionals: paths } = parseOptions(dataflowJudgeOptions, argv);
  const flags: Record<string, string | undefined> = {
    '--model': v.model,
    '--base-url': v['base-url'],
    '--logs': v.logs,
    '--out': v.out,
    '--type': v.type,
  };
  const switches = new Set(
    (['in-place', 'route', 'overwrite', 'json'] as const).filter((k) => v[k]).map((k) => `--${k}`),
  );
  if (paths.length === 0) throw new UsageError('give at least one record file or folder');
  const route = switches.has('--route');
  if (route && !flags['--out']) throw new UsageError('--route needs --out <results folder>');
  if (switches.has('--in-place') && flags['--out'] && !route)
    throw new UsageError('--in-place and --out: give one (or --route --out <results>)');
  let type: RecordType | undefined;
  if (flags['--type'] !== undefined) {
    if (!route) throw new UsageError('--type is for --route');
    if (!recordTypes.includes(flags['--type'] as RecordType) || flags['--type'] === 'instantiation')
      throw new UsageError('--type must be execution or dataflow');
    type = flags['--type'] as RecordType;
  }
  const shots = v.screenshots;
  const maxImages = v['max-images'];
  const concurrency = v.concurrency;

  const { files, problems: missing } = await expandPaths(paths);
  const explicit = new Set(paths.map((p) => resolve(p)));
  const records = files.filter(
    (f) =>
      f.toLowerCase().endsWith('.json') && (explicit.has(f) || !f.toLowerCase().endsWith('.judged.json')),
  );
  const resolved = resolveEndpoint({
    flags: { model: flags['--model'], baseUrl: flags['--base-url'] },
    section: 'judge',
  });
  io.err(
    `judge: ${resolved.endpoint.model} at ${resolved.endpoint.baseUrl} (key ${resolved.endpoint.apiKey ? `from ${resolved.sources.apiKey}` : 'not set'})`,
  );

  const outcomes: DataflowJudgeOutcome[] = new Array(records.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (let i = next++; i < records.length; i = next++) {
      const o = await judgeDataflowFile(records[i], {
        endpoint: resolved,
        prices: resolved.prices,
        logs: flags['--logs'],
        out: flags['--out'],
        inPlace: switches.has('--in-place'),
        route,
        type,
        overwrite: switches.has('--overwrite'),
        screenshots: shots === 'first-last' ? 'first_last' : 'all',
        maxImages,
        log: (line) => io.err(line),
      });
      outcomes[i] = o;
      done++;
      const v = o.judgement?.verdict;
      io.err(
        `[${done}/${records.length}] ${shown(o.file)}: ${v ? (v.error ? `unsure — ${v.error}` : v.complete) : 'not judged'}`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, records.length)) }, worker));

  const judged = outcomes.filter((o) => o.judgement);
  const errors = judged.filter((o) => o.judgement!.verdict.error).length;
  const refused = outcomes.filter((o) => o.status !== 'written').length + missing.length;
  const count = (c: string) =>
    judged.filter((o) => !o.judgement!.verdict.error && o.judgement!.verdict.complete === c).length;
  const tokens = judged.reduce(
    (t, o) => ({
      prompt: t.prompt + (o.judgement!.verdict.tokens?.prompt ?? 0),
      completion: t.completion + (o.judgement!.verdict.tokens?.completion ?? 0),
    }),
    { prompt: 0, completion: 0 },
  );
  const summary = {
    records: records.length,
    judged: judged.length,
    yes: count('yes'),
    no: count('no'),
    unsure: count('unsure'),
    errors,
    refused,
    tokens,
  };
  if (switches.has('--json')) {
    io.out(
      JSON.stringify(
        {
          outcomes: outcomes.map((o) => ({
            file: o.file,
            status: o.status,
            written: o.written,
            bucket: o.route?.bucket,
            executionResult: o.judgement?.executionResult,
            problems: o.problems,
          })),
          missing,
          summary,
        },
        null,
        2,
      ),
    );
  } else {
    for (const p of missing) io.out(formatProblem(p, shown(p.file)));
    for (const o of outcomes) {
      for (const p of o.problems) io.out(formatProblem(p, shown(p.file)));
      for (const w of o.written) io.out(`${shown(o.file)} -> ${shown(w)}`);
    }
    io.out(
      `${records.length} records: ${summary.yes} yes, ${summary.no} no, ${summary.unsure} unsure, ${errors} judge errors, ${refused} refused; tokens ${tokens.prompt} in + ${tokens.completion} out`,
    );
  }
  return refused > 0 || errors > 0 ? 1 : 0;
}
