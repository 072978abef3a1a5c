// `proctor dataflow run|instantiate|execute|demo`: UFO's dataflow pipeline on GUI LibreOffice (pipeline/);
// `proctor dataflow route <records…> --out <results>`: file UFO dataflow records by type and verdict;
// `proctor dataflow judge`: the judge on executed records (../dataflow-judge.ts).
import { UsageError, type CliCommand, type CliIo, shownPath } from '../command';
import { expandPaths } from '../../tasks/files';
import { formatProblem } from '../../tasks/validation';
import { recordTypes, type RecordType } from '../../dataflow/record';
import { routeRecords } from '../../dataflow/route';
import { dataflowJudgeUsage, runDataflowJudge } from '../dataflow-judge';
import { demoTasksDir, pipelineReport } from '../../dataflow/pipeline/report';
import { STAGES, STANDIN_MODEL, resolveStageModels, type ModelFlags, type Stage } from '../../dataflow/pipeline/models';
import { runPipeline, type PipelineMode } from '../../dataflow/pipeline/run';

const pipelineUsage = `Usage: proctor dataflow run <tasks…> --out <folder> [model options] [--templates <folder>] [--strict] [--threshold N] [--overwrite] [--json]
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
Model options: --model M --base-url URL (any OpenAI-compatible server; key from PROCTOR_API_KEY/OPENAI_API_KEY or
the config), per stage --choose-model/--prefill-model/--filter-model/--eval-model and --<stage>-base-url;
--model ${STANDIN_MODEL}: the deterministic stand-in (no network; it solves the bundled tasks).
Matching: exact text (case-insensitive) first, else the best partial ratio >= --threshold (default 70);
--strict: exact only. Exit 1 if a task could not be read or a record not filed.`;

const usage = `${pipelineUsage}

Usage: proctor dataflow route <records…> --out <results> [--type instantiation|execution|dataflow] [--overwrite] [--json]

Validates each UFO dataflow record (files, or folders walked for .json files) and files it as
<results>/<type>/<bucket>/<unique_id>.json, written atomically:
  instantiation → instantiation_pass | instantiation_fail        (by instantiation_evaluation.result.judge)
  execution     → execution_pass | execution_fail | execution_unsure (by execution_result.result.complete)
  dataflow      → the same buckets as execution
The type is read from the record (executed → execution, else instantiation); dataflow records look like
execution records, so route them with --type dataflow. A complete other than yes / no / unsure is filed as
unsure with a warning. A record whose unique_id is already filed is refused unless --overwrite.
Exit 1 if any record was invalid or refused.

${dataflowJudgeUsage}`;

export const command: CliCommand = {
  name: 'dataflow',
  summary: "UFO's dataflow on LibreOffice (run, instantiate, execute, demo); route records into pass / fail / unsure folders; judge executed records",
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'judge') return runDataflowJudge(rest, io);
    if (sub === 'run' || sub === 'instantiate' || sub === 'execute' || sub === 'demo') return runPipelineCommand(sub, rest, io);
    if (sub !== 'route') throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'give a subcommand: run, instantiate, execute, demo, route, judge');
    const paths: string[] = [];
    let out: string | undefined;
    let type: RecordType | undefined;
    let overwrite = false;
    let json = false;
    for (let i = 0; i < rest.length; i++) {
      const a = rest[i];
      if (a === '--out') out = rest[++i];
      else if (a.startsWith('--out=')) out = a.slice(6);
      else if (a === '--type' || a.startsWith('--type=')) {
        const v = a === '--type' ? rest[++i] : a.slice(7);
        if (!recordTypes.includes(v as RecordType)) throw new UsageError(`--type must be one of ${recordTypes.join(', ')}`);
        type = v as RecordType;
      } else if (a === '--overwrite') overwrite = true;
      else if (a === '--json') json = true;
      else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
      else paths.push(a);
    }
    if (!out) throw new UsageError('--out <results folder> is required');
    if (paths.length === 0) throw new UsageError('give at least one record file or folder');
    const { files, problems: missing } = await expandPaths(paths);
    const records = files.filter((f) => f.toLowerCase().endsWith('.json'));
    const outcomes = await routeRecords(records, { out, type, overwrite });
    const filed = outcomes.filter((o) => o.status === 'filed').length;
    const refused = outcomes.length - filed + missing.length;
    if (json) {
      io.out(JSON.stringify({ outcomes, missing, summary: { records: outcomes.length, filed, refused } }, null, 2));
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

const MODES: Record<'run' | 'instantiate' | 'execute' | 'demo', PipelineMode> = { run: 'dataflow', instantiate: 'instantiation', execute: 'execution', demo: 'dataflow' };

async function runPipelineCommand(sub: 'run' | 'instantiate' | 'execute' | 'demo', rest: string[], io: CliIo): Promise<number> {
  const paths: string[] = [];
  const models: ModelFlags = { perStage: {} };
  let out: string | undefined;
  let templates: string | undefined;
  let threshold: number | undefined;
  let strict = false;
  let overwrite = false;
  let json = false;
  const stageFlag = /^--(choose|prefill|filter|eval)-(model|base-url)$/;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq > 0 ? a.slice(0, eq) : a;
    const value = (): string => {
      const v = eq > 0 ? a.slice(eq + 1) : rest[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
      return v;
    };
    if (a === '--help' || a === '-h') {
      io.out(pipelineUsage);
      return 0;
    } else if (name === '--out') out = value();
    else if (name === '--model') models.model = value();
    else if (name === '--base-url') models.baseUrl = value();
    else if (stageFlag.test(name)) {
      const [, s, what] = stageFlag.exec(name)!;
      const stage: Stage = s === 'eval' ? 'evaluate' : (s as Stage);
      const entry = (models.perStage![stage] ??= {});
      if (what === 'model') entry.model = value();
      else entry.baseUrl = value();
    } else if (name === '--templates') templates = value();
    else if (name === '--threshold') {
      const v = Number(value());
      if (!Number.isFinite(v) || v < 0 || v > 100) throw new UsageError('--threshold must be a number from 0 to 100');
      threshold = v;
    } else if (a === '--strict') strict = true;
    else if (a === '--overwrite') overwrite = true;
    else if (a === '--json') json = true;
    else if (a.startsWith('-')) throw new UsageError(`unknown option '${a}'`);
    else paths.push(a);
  }
  if (sub === 'demo') {
    if (paths.length) throw new UsageError('demo runs the bundled tasks: give no task files (use run for your own)');
    if (models.model || models.baseUrl || Object.keys(models.perStage!).length) throw new UsageError(`demo runs with the stand-in ${STANDIN_MODEL}: use run for a served model`);
    models.model = STANDIN_MODEL;
    paths.push(demoTasksDir);
    out ??= 'dataflow-demo';
    overwrite = true;
  }
  if (!out) throw new UsageError('--out <folder> is required (results/ and logs/ are made in it)');
  if (paths.length === 0) throw new UsageError(sub === 'execute' ? 'give at least one instantiation record file or folder' : 'give at least one task file or folder');
  let stageModels;
  try {
    stageModels = resolveStageModels(models, (line) => io.err(line));
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const { files, problems: missing } = await expandPaths(paths);
  const inputs = files.filter((f) => f.toLowerCase().endsWith('.json'));
  if (!inputs.length && !missing.length) throw new UsageError(`no .json files in ${paths.join(', ')}`);
  io.err(`dataflow ${sub}: ${inputs.length} ${sub === 'execute' ? 'records' : 'tasks'}; models: ${STAGES.filter((s) => sub !== 'instantiate' || s !== 'evaluate').filter((s) => sub !== 'execute' || s === 'evaluate').map((s) => `${s} ${stageModels[s].name}`).join(', ')}`);
  const started = performance.now();
  const outcomes = await runPipeline(inputs, { mode: MODES[sub], out, models: stageModels, templatesRoot: templates, strict, threshold, overwrite, log: (line) => io.err(line) });
  const report = pipelineReport(outcomes, { out, seconds: Math.round(performance.now() - started) / 1000 });
  if (json) io.out(JSON.stringify({ ...report.json, missing }, null, 2));
  else {
    for (const p of missing) io.out(formatProblem(p, shownPath(p.file)));
    for (const line of report.lines) io.out(line);
  }
  return report.failed || missing.length ? 1 : 0;
}
