// `proctor validate <paths…>`: validate task files, splits, summaries, trajectories, UFO records and judge output.
import { UsageError, type CliCommand, shownPath } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { formatProblem, validatePaths } from '../../tasks/validation';
import { assetReport, formatAssetReport } from '../../tasks/asset-report';

const options = optionTable({
  json: { kind: 'boolean', help: 'print a machine-readable report instead' },
  strict: {
    kind: 'boolean',
    help: 'warnings (duplicate ids, counterparts, unknown names, skipped files) count as errors',
  },
  'check-assets': {
    kind: 'boolean',
    help: "also check that the files each task needs are where setup and grading will read them (a Spider2-V checkout's files beside each task, in place) and say which tasks have all of theirs; a split file (test_all.json) stands for the tasks it lists",
  },
  downloads: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'with --check-assets: look up what tasks download (download steps, cloud_file) in DIR',
  },
});

const usage = usageText(
  `Usage: proctor validate <paths…> [--json] [--strict] [--check-assets [--downloads DIR]]
Walks files and folders, detects each JSON file's kind (task native / Spider2-V / OSWorld, split, summary,
UFO instantiation / execution record, judge output, a run's manifest.json and run-plan.json) and validates it; each line of a
.jsonl file is validated by what the file is: a run's events.jsonl, steps.jsonl and verdicts.jsonl against
Proctor's run schemas, traj.jsonl as OSWorld trajectory lines. Prints one line per problem (file, line or JSON
pointer, message), then a summary. Only regular files are read; symbolic links are followed while they stay
inside the folder given, and whatever is passed over is named as a warning. Exit 1 if any file is invalid.`,
  options,
);

export const command: CliCommand = {
  name: 'validate',
  summary: 'validate task files, splits, results, trajectories and UFO records against their schemas',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals: paths } = parseOptions(options, argv);
    const flags = {
      json: !!values.json,
      strict: !!values.strict,
      checkAssets: !!values['check-assets'],
      downloads: values.downloads,
    };
    if (paths.length === 0) throw new UsageError('give at least one file or folder');
    if (flags.downloads !== undefined && !flags.checkAssets)
      throw new UsageError('--downloads goes with --check-assets');
    const report = await validatePaths(paths, { strict: flags.strict, checkAssets: flags.checkAssets });
    const assets = flags.checkAssets ? await assetReport(paths, { downloads: flags.downloads }) : undefined;
    if (flags.json) {
      io.out(
        JSON.stringify(
          {
            ...report,
            files: report.files.map((f) => ({
              ...f,
              file: shownPath(f.file),
              problems: f.problems.map((p) => ({ ...p, file: shownPath(p.file) })),
            })),
            skipped: report.skipped.length,
            ...(assets
              ? { assets: { ...assets, tasks: assets.tasks.map((t) => ({ ...t, file: shownPath(t.file) })) } }
              : {}),
          },
          null,
          2,
        ),
      );
    } else {
      for (const f of report.files) for (const p of f.problems) io.out(formatProblem(p, shownPath(p.file)));
      const unknownJson = report.skipped.filter((f) => /\.jsonl?$/i.test(f));
      if (unknownJson.length)
        io.out(
          `not checked: ${unknownJson.length} JSON file${unknownJson.length > 1 ? 's' : ''} of no known kind or kept by a run (${unknownJson
            .slice(0, 3)
            .map((f) => shownPath(f))
            .join(', ')}${unknownJson.length > 3 ? ', …' : ''})`,
        );
      const s = report.summary;
      io.out(
        `${s.files} file${s.files === 1 ? '' : 's'}, ${s.valid} valid, ${s.invalid} invalid, ${s.warnings} warning${s.warnings === 1 ? '' : 's'}`,
      );
      if (assets)
        for (const line of formatAssetReport(assets, (f) => shownPath(f), new Set(['download'])))
          io.out(line);
    }
    return report.summary.invalid > 0 || (assets?.summary.missing ?? 0) > 0 ? 1 : 0;
  },
};
