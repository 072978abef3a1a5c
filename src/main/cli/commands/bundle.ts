// `proctor bundle <run-dir> --out FILE [--sign KEY]`: a submission bundle of a finished run (src/main/share);
// `proctor bundle keygen --out PREFIX`: an Ed25519 key pair to sign bundles with.
import { existsSync, writeFileSync } from 'node:fs';
import { shownPath, UsageError, type CliCommand, type CliIo } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { writeBundle } from '../../share/bundle';
import { generateSigningKeys, readPrivateKey } from '../../share/signing';
import { command as reportCommand } from './report';

const options = optionTable({
  out: {
    kind: 'string',
    value: 'FILE',
    complete: 'file',
    help: 'the bundle to write (it must not exist yet), e.g. run.proctor.tar.gz; with keygen: PREFIX, to write PREFIX.key (private, mode 600) and PREFIX.pub (public), PEM. The same with openssl:\n  openssl genpkey -algorithm ed25519 -out PREFIX.key && openssl pkey -in PREFIX.key -pubout -out PREFIX.pub',
  },
  sign: {
    kind: 'string',
    value: 'KEY',
    complete: 'file',
    help: 'sign bundle.json with this Ed25519 private key (PEM); verify with --key and the public key',
  },
});

const usage = usageText(
  `Usage: proctor bundle <run-dir> --out FILE [--sign KEY]
       proctor bundle keygen --out PREFIX

Writes one .tar.gz with everything needed to check a finished Proctor run: the run folder, each task file the
run's manifest names (with the files beside it: gold files, scripts), environment.json (OS, application
versions, screen size, Proctor version, grading profile), the report (report.txt, report.json: \`proctor report\`
of the run) and bundle.json: every file's SHA-256 and the task set's hash. \`proctor verify FILE\` checks it.`,
  options,
  `Exit status: 0 when the bundle was written, 1 when the run or a task file cannot be read.`,
);

/** \`proctor report <run-dir>\` and \`--json\`, as the bundle's report. */
async function reportOf(runDir: string): Promise<{ text: string; json: string }> {
  const capture = async (args: string[]) => {
    const lines: string[] = [];
    const io: CliIo = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
    const code = await reportCommand.run(args, io);
    if (code !== 0) throw new Error(`proctor report ${runDir} failed: ${lines.join('\n')}`);
    return lines.join('\n') + '\n';
  };
  return { text: await capture([runDir]), json: await capture([runDir, '--json']) };
}

function keygen(out: string | undefined, io: CliIo): number {
  if (!out) throw new UsageError('keygen needs --out PREFIX');
  const [priv, pub] = [`${out}.key`, `${out}.pub`];
  for (const f of [priv, pub])
    if (existsSync(f)) throw new UsageError(`${f} exists already; choose another --out`);
  const keys = generateSigningKeys();
  writeFileSync(priv, keys.privatePem, { mode: 0o600, flag: 'wx' });
  writeFileSync(pub, keys.publicPem, { flag: 'wx' });
  io.out(
    `private key: ${shownPath(priv)} (keep it to yourself)\npublic key:  ${shownPath(pub)} (publish it; fingerprint ${keys.fingerprint})`,
  );
  return 0;
}

export const command: CliCommand = {
  name: 'bundle',
  summary:
    'a verifiable submission bundle of a run (files hashed, task set, environment, report; optional signature)',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    if (positionals[0] === 'keygen' && positionals.length === 1) return keygen(values.out, io);
    if (positionals.length !== 1) throw new UsageError('give one run folder');
    if (!values.out) throw new UsageError('--out FILE is needed (the bundle to write)');
    try {
      const sign = values.sign ? readPrivateKey(values.sign) : undefined;
      const r = await writeBundle(positionals[0], values.out, { report: reportOf, sign });
      const mb = (r.bytes / 1024 / 1024).toFixed(1);
      io.out(
        `bundle: ${shownPath(r.out)} (${mb} MB, ${r.manifest.files.length} files, ${r.manifest.tasks.length} tasks, written in ${(r.ms / 1000).toFixed(1)} s)\n` +
          `task set SHA-256: ${r.manifest.taskSetSha256}\n${sign ? 'signed (bundle.sig)' : 'not signed (--sign KEY to sign)'}\n` +
          (r.manifest.skipped.length
            ? `not bundled (not regular files): ${r.manifest.skipped.join(', ')}\n`
            : '') +
          `check it: npx proctor verify ${shownPath(r.out)}${sign ? ' --key PUB' : ''}`,
      );
      return 0;
    } catch (e) {
      io.err(`proctor bundle: ${(e as Error).message}`);
      return 1;
    }
  },
};
