// `proctor dataflow route <records…> --out <results>`: file UFO dataflow records by type and verdict.
import { UsageError, type CliCommand, shownPath } from '../command';
import { expandPaths } from '../../tasks/files';
import { formatProblem } from '../../tasks/validation';
import { recordTypes, type RecordType } from '../../dataflow/record';
import { routeRecords } from '../../dataflow/route';
import { dataflowJudgeUsage, runDataflowJudge } from '../dataflow-judge';

const usage = `Usage: proctor dataflow route <records…> --out <results> [--type instantiation|execution|dataflow] [--overwrite] [--json]

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
  summary: 'route UFO dataflow records into pass / fail / unsure result folders; judge executed records',
  usage,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'judge') return runDataflowJudge(rest, io);
    if (sub !== 'route') throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'give a subcommand: route, judge');
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
