// `proctor dataflow run|instantiate|execute|demo`: UFO's dataflow pipeline on GUI LibreOffice (pipeline/);
// `proctor dataflow route <records…> --out <results>`: file UFO dataflow records by type and verdict;
// `proctor dataflow judge`: the judge on executed records (../dataflow-judge.ts).
import { UsageError, type CliCommand, type CliIo, shownPath } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions, type OptionSpec } from '../options/table';
import { expandPaths } from '../../tasks/files';
import { formatProblem } from '../../tasks/validation';
import { recordTypes, type RecordType } from '../../dataflow/record';
import { routeRecords } from '../../dataflow/route';
import { dataflowJudgeOptions, dataflowJudgeUsage, runDataflowJudge } from '../dataflow-judge';
import { demoTasksDir, pipelineReport } from '../../dataflow/pipeline/report';
import {
  STAGES,
  STANDIN_MODEL,
  resolveStageModels,
  type ModelFlags,
  type Stage,
} from '../../dataflow/pipeline/models';
import { runPipeline, type PipelineMode } from '../../dataflow/pipeline/run';

const stageModel = (stage: string) =>
  ({
    kind: 'string',
    value: 'M',
    help: `the ${stage} stage's model (default --model)`,
  }) as const satisfies OptionSpec;
const stageUrl = (stage: string) =>
  ({
    kind: 'string',
    value: 'URL',
    help: `the ${stage} stage's server (default --base-url)`,
  }) as const satisfies OptionSpec;

/** The model options of run, instantiate and execute: shared, and per stage. */
const modelOptions = optionTable({
  model: {
    kind: 'string',
    value: 'M',
    group: 'Model options (run, instantiate, execute):',
    help: `the model of every stage; ${STANDIN_MODEL}: the deterministic stand-in (no network; it solves the bundled tasks)`,
  },
  'base-url': {
    kind: 'string',
    value: 'URL',
    help: 'any OpenAI-compatible server (key from PROCTOR_API_KEY/OPENAI_API_KEY or the config)',
  },
  'choose-model': stageModel('choose'),
  'choose-base-url': stageUrl('choose'),
  'prefill-model': stageModel('prefill'),
  'prefill-base-url': stageUrl('prefill'),
  'filter-model': stageModel('filter'),
  'filter-base-url': stageUrl('filter'),
  'eval-model': stageModel('evaluate'),
  'eval-base-url': stageUrl('evaluate'),
});

const pipelineOut = {
  kind: 'string',
  value: 'DIR',
  complete: 'dir',
  help: 'the folder results/ and logs/ are made in (needed; demo: default ./dataflow-demo, replaced)',
} as const satisfies OptionSpec;
const overwriteSpec = {
  kind: 'boolean',
  help: 'replace records and documents already written',
} as const satisfies OptionSpec;
const jsonOut = { kind: 'boolean', help: 'print the report as JSON' } as const satisfies OptionSpec;
const templatesSpec = {
  kind: 'string',
  value: 'DIR',
  complete: 'dir',
  help: 'the templates to choose from (run, instantiate; default the bundled resources/dataflow/templates)',
} as const satisfies OptionSpec;
const strictSpec = {
  kind: 'boolean',
  help: 'match controls by exact text only (run, execute)',
} as const satisfies OptionSpec;
const thresholdSpec = {
  kind: 'string',
  value: 'N',
  help: "a control's text matches at this partial ratio or more when no text is exact (run, execute; default 70)",
  parse: (v: string) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
      throw new UsageError('--threshold must be a number from 0 to 100');
    return n;
  },
} as const satisfies OptionSpec<number>;

type PipelineSub = 'run' | 'instantiate' | 'execute' | 'demo';

/** Each pipeline subcommand's options: what it reads, and nothing it would ignore. */
const pipelineOptions = {
  run: optionTable({
    out: pipelineOut,
    ...modelOptions,
    templates: templatesSpec,
    strict: strictSpec,
    threshold: thresholdSpec,
    overwrite: overwriteSpec,
    json: jsonOut,
  }),
  instantiate: optionTable({
    out: pipelineOut,
    ...modelOptions,
    templates: templatesSpec,
    overwrite: overwriteSpec,
    json: jsonOut,
  }),
  execute: optionTable({
    out: pipelineOut,
    ...modelOptions,
    strict: strictSpec,
    threshold: thresholdSpec,
    overwrite: overwriteSpec,
    json: jsonOut,
  }),
  demo: optionTable({ out: pipelineOut, json: jsonOut }),
} as const;

const routeOptions = optionTable({
  out: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'the results folder records are filed below (needed)',
  },
  type: {
    kind: 'string',
    value: 'T',
    complete: recordTypes,
    help: 'file every record as this type (instantiation | execution | dataflow) instead of the type it reads as',
    parse: (v: string) => {
      if (!recordTypes.includes(v as RecordType))
        throw new UsageError(`--type must be one of ${recordTypes.join(', ')}`);
      return v as RecordType;
    },
  },
  overwrite: { kind: 'boolean', help: 'replace a record whose unique_id is already filed' },
  json: { kind: 'boolean', help: 'print the outcomes as JSON' },
});

/** Every subcommand's options, for the closest-name hint and shell completion. */
const options = {
  ...pipelineOptions.run,
  ...routeOptions,
  ...dataflowJudgeOptions,
  out: pipelineOut,
  type: routeOptions.type,
  json: jsonOut,
  overwrite: overwriteSpec,
};

const pipelineUsage = usageText(
  `Usage: proctor dataflow run <tasks…> --out <folder> [model options] [--templates <folder>] [--strict] [--threshold N] [--overwrite] [--json]
       proctor dataflow instantiate <tasks…> --out <folder> [model options] [--templates <folder>] [--overwrite] [--json]
       proctor dataflow execute <instantiation records…> --out <folder> [model options] [--strict] [--threshold N] [--overwrite] [--json]
       proctor dataflow demo [--out <folder>] [--json]

UFO's dataflow on GUI LibreOffice (Writer, Calc, Impress) in a sandbox display. Tasks are UFO's input files
{app, unique_id, task, refined_steps} (files, or folders walked for .json); app word|excel|powerpoint or
writer|calc|impress. Stages: choose a template by its description, prefill (the request rewritten into a plan on
the controls AT-SPI reads from the opened copy), filter (is it doable: a task judged not doable is not executed),
execute (each step's control matched by its text, its function run through Proctor's actions, a screenshot per
step and a final one), evaluate (the judge on the instantiated request, the steps and the screenshots).
  run          all stages; records filed under <folder>/results/dataflow/execution_{pass,fail,unsure}/
  instantiate  choose, prefill, filter; records under <folder>/results/instantiation/instantiation_{pass,fail}/
  execute      execute and evaluate instantiation records; under <folder>/results/execution/execution_{pass,fail,unsure}/
  demo         run on the bundled tasks (resources/dataflow/tasks) with the built-in stand-in: offline, no key
Documents: <folder>/results/saved_document/<unique_id>.<ext> (instantiated), saved_document/executed/ (after
execution); stage logs, prompts, replies, screenshots: <folder>/logs/<unique_id>/. Open it with proctor serve <folder>.
Matching: exact text (case-insensitive) first, else the best partial ratio >= --threshold (default 70);
--strict: exact only. Exit 1 if a task could not be read or a record not filed.`,
  { ...pipelineOptions.run, ...pipelineOptions.demo },
);

const usage = `${pipelineUsage}

${usageText(
  `Usage: proctor dataflow route <records…> --out <results> [--type instantiation|execution|dataflow] [--overwrite] [--json]

Validates each UFO dataflow record (files, or folders walked for .json files) and files it as
<results>/<type>/<bucket>/<unique_id>.json, written atomically:
  instantiation → instantiation_pass | instantiation_fail        (by instantiation_evaluation.result.judge)
  execution     → execution_pass | execution_fail | execution_unsure (by execution_result.result.complete)
  dataflow      → the same buckets as execution
The type is read from the record (executed → execution, else instantiation); dataflow records look like
execution records, so route them with --type dataflow. A complete other than yes / no / unsure is filed as
unsure with a warning. A record whose unique_id is already filed is refused unless --overwrite.
Exit 1 if any record was invalid or refused.`,
  routeOptions,
)}

${usageText(dataflowJudgeUsage, dataflowJudgeOptions)}`;

export const command: CliCommand = {
  name: 'dataflow',
  summary:
    "UFO's dataflow on LibreOffice (run, instantiate, execute, demo); route records into pass / fail / unsure folders; judge executed records",
  usage,
  options,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'judge') return runDataflowJudge(rest, io);
    if (sub === 'run' || sub === 'instantiate' || sub === 'execute' || sub === 'demo')
      return runPipelineCommand(sub, rest, io);
    if (sub !== 'route')
      throw new UsageError(
        sub
          ? `unknown subcommand '${sub}'`
          : 'give a subcommand: run, instantiate, execute, demo, route, judge',
      );
    const { values, positionals: paths } = parseOptions(routeOptions, rest);
    const { out, type, overwrite, json } = values;
    if (!out) throw new UsageError('--out <results folder> is required');
    if (paths.length === 0) throw new UsageError('give at least one record file or folder');
    const { files, problems: missing } = await expandPaths(paths);
    const records = files.filter((f) => f.toLowerCase().endsWith('.json'));
    const outcomes = await routeRecords(records, { out, type, overwrite: !!overwrite });
    const filed = outcomes.filter((o) => o.status === 'filed').length;
    const refused = outcomes.length - filed + missing.length;
    if (json) {
      io.out(
        JSON.stringify({ outcomes, missing, summary: { records: outcomes.length, filed, refused } }, null, 2),
      );
    } else {
      for (const p of missing) io.out(formatProblem(p, shownPath(p.file)));
      for (const o of outcomes) {
        for (const p of o.problems) io.out(formatProblem(p, shownPath(p.file)));
        if (o.status === 'filed') io.out(`${shownPath(o.file)} -> ${shownPath(o.target!)}`);
      }
      io.out(`${outcomes.length} records, ${filed} filed, ${refused} refused`);
    }
    return refused > 0 ? 1 : 0;
  },
};

const MODES: Record<PipelineSub, PipelineMode> = {
  run: 'dataflow',
  instantiate: 'instantiation',
  execute: 'execution',
  demo: 'dataflow',
};

async function runPipelineCommand(sub: PipelineSub, rest: string[], io: CliIo): Promise<number> {
  const demoRefuses = (flag: string) =>
    sub === 'demo' && Object.hasOwn(modelOptions, flag.replace(/^--/, '').replace(/=.*$/, ''))
      ? `demo runs with the stand-in ${STANDIN_MODEL}: use run for a served model`
      : undefined;
  const { values: v, positionals: paths } = parseOptions(
    pipelineOptions[sub] as typeof pipelineOptions.run,
    rest,
    { refuse: demoRefuses },
  );
  const models: ModelFlags = { model: v.model, baseUrl: v['base-url'], perStage: {} };
  for (const s of STAGES) {
    const prefix = s === 'evaluate' ? 'eval' : s;
    const model = v[`${prefix}-model` as keyof typeof modelOptions];
    const baseUrl = v[`${prefix}-base-url` as keyof typeof modelOptions];
    if (model !== undefined || baseUrl !== undefined)
      models.perStage![s as Stage] = {
        ...(model !== undefined ? { model } : {}),
        ...(baseUrl !== undefined ? { baseUrl } : {}),
      };
  }
  let out = v.out;
  const { templates, threshold } = v;
  const strict = !!v.strict;
  let overwrite = !!v.overwrite;
  const json = !!v.json;
  if (sub === 'demo') {
    if (paths.length)
      throw new UsageError('demo runs the bundled tasks: give no task files (use run for your own)');
    if (models.model || models.baseUrl || Object.keys(models.perStage!).length)
      throw new UsageError(`demo runs with the stand-in ${STANDIN_MODEL}: use run for a served model`);
    models.model = STANDIN_MODEL;
    paths.push(demoTasksDir);
    out ??= 'dataflow-demo';
    overwrite = true;
  }
  if (!out) throw new UsageError('--out <folder> is required (results/ and logs/ are made in it)');
  if (paths.length === 0)
    throw new UsageError(
      sub === 'execute'
        ? 'give at least one instantiation record file or folder'
        : 'give at least one task file or folder',
    );
  let stageModels;
  try {
    stageModels = resolveStageModels(models, (line) => io.err(line));
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const { files, problems: missing } = await expandPaths(paths);
  const inputs = files.filter((f) => f.toLowerCase().endsWith('.json'));
  if (!inputs.length && !missing.length) throw new UsageError(`no .json files in ${paths.join(', ')}`);
  io.err(
    `dataflow ${sub}: ${inputs.length} ${sub === 'execute' ? 'records' : 'tasks'}; models: ${STAGES.filter(
      (s) => sub !== 'instantiate' || s !== 'evaluate',
    )
      .filter((s) => sub !== 'execute' || s === 'evaluate')
      .map((s) => `${s} ${stageModels[s].name}`)
      .join(', ')}`,
  );
  const started = performance.now();
  const outcomes = await runPipeline(inputs, {
    mode: MODES[sub],
    out,
    models: stageModels,
    templatesRoot: templates,
    strict,
    threshold,
    overwrite,
    log: (line) => io.err(line),
  });
  const report = pipelineReport(outcomes, { out, seconds: Math.round(performance.now() - started) / 1000 });
  if (json) io.out(JSON.stringify({ ...report.json, missing }, null, 2));
  else {
    for (const p of missing) io.out(formatProblem(p, shownPath(p.file)));
    for (const line of report.lines) io.out(line);
  }
  return report.failed || missing.length ? 1 : 0;
}
