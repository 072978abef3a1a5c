// `proctor verify FILE [--key PUB] [--tasks DIR]`: check a submission bundle (src/main/share/verify.ts); exit 1
// on any mismatch, each naming its file.
import { UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { verifyBundle } from '../../share/verify';
import { readPublicKey } from '../../share/signing';
import { defaultExtractLimits } from '../../share/tar';

const options = optionTable({
  key: {
    kind: 'string',
    value: 'PUB',
    complete: 'file',
    help: "the signer's Ed25519 public key (PEM): the signature must hold under it",
  },
  tasks: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'the published task set: each bundled task file (and the files beside it) must be identical, and re-grading uses the published files',
  },
  'max-size': {
    kind: 'string',
    value: 'GB',
    help: 'refuse bundles whose files add up to more (default 8)',
    parse: (v: string) => {
      const gb = Number(v);
      if (!(gb > 0)) throw new UsageError(`--max-size is a number of GB above 0, not '${v}'`);
      return gb;
    },
  },
  json: { kind: 'boolean', help: 'print the result as JSON' },
});

const usage = usageText(
  `Usage: proctor verify FILE [--key PUB] [--tasks DIR] [--max-size GB] [--json]

Checks a bundle written by \`proctor bundle\`: unpacks it safely (regular files only, no path leaving the
bundle, at most --max-size), checks the signature of bundle.json with the signer's public key, re-computes
every file's SHA-256 and the task set's hash, and re-grades every task from the stored artefacts as
\`proctor eval\` does (with the bundled task files, or the published ones with --tasks), comparing the new
scores with the run's verdicts, result.txt and summary.json. Every mismatch names its file.`,
  options,
  `Exit status: 0 when everything matches, 1 on any mismatch or an unreadable bundle.`,
);

export const command: CliCommand = {
  name: 'verify',
  summary: 'check a submission bundle: hashes, signature, task set, and a re-grading from its artefacts',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    if (positionals.length !== 1) throw new UsageError('give one bundle file');
    let maxBytes = defaultExtractLimits.maxBytes;
    if (values['max-size'] !== undefined) maxBytes = values['max-size'] * 1024 ** 3;
    let result;
    try {
      const key = values.key ? readPublicKey(values.key) : undefined;
      result = await verifyBundle(positionals[0], {
        key,
        tasks: values.tasks,
        limits: { ...defaultExtractLimits, maxBytes },
      });
    } catch (e) {
      io.err(`proctor verify: ${(e as Error).message}`);
      return 1;
    }
    if (values.json) {
      io.out(JSON.stringify(result, null, 2));
      return result.ok ? 0 : 1;
    }
    const regraded = result.tasks.filter((t) => t.newScore !== undefined).length;
    io.out(
      `bundle ${positionals[0]}: run ${result.runId ?? '?'}, ${result.files} files, signature ${result.signature}`,
    );
    if (result.taskSetSha256) io.out(`task set SHA-256: ${result.taskSetSha256}`);
    io.out(`re-graded ${regraded} of ${result.tasks.length} tasks from the stored artefacts`);
    for (const t of result.tasks) {
      if (t.notRegraded) io.out(`  ${t.key}: not re-graded (${t.notRegraded})`);
      else if (t.keptChecks.length)
        io.out(`  ${t.key}: stored scores kept for ${t.keptChecks.join('; ')} (they need the live machine)`);
    }
    for (const n of result.notes) io.out(`note: ${n}`);
    if (result.ok) {
      io.out('OK: every hash, the task set and every re-graded score match');
      return 0;
    }
    io.out(`MISMATCH: ${result.mismatches.length}`);
    for (const mm of result.mismatches) io.out(`  ${mm.file}: ${mm.message}`);
    return 1;
  },
};
