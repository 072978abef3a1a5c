// `proctor stop <run-dir>`: stops a run that another `proctor run` process is writing, as Ctrl-C in its terminal
// would: the running tasks are cancelled, the run stays resumable. Waits until that process has ended.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { shownPath, UsageError, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { processAlive } from '../../process-alive';
import { readManifest, runFiles } from '../../store';

const options = optionTable({
  wait: {
    kind: 'string',
    value: 'SECONDS',
    default: 60,
    help: "how long to wait for the run's process to end (default 60)",
    parse: (v: string) => {
      const n = Number(v);
      if (!/^\d+(\.\d+)?$/.test(v) || !Number.isFinite(n) || n < 0)
        throw new UsageError(`--wait takes seconds, not '${v}'`);
      return n;
    },
  },
});

const usage = usageText(
  `Usage: proctor stop <run-dir> [--wait SECONDS]

Stops the run that a \`proctor run\` process writes in <run-dir> (its manifest names the process): its running
tasks are cancelled and the run stays resumable (\`proctor run --resume <run-dir>\`). Waits for that process to
end (default 60 s). A queued run is stopped by stopping its workers (SIGTERM: each finishes its task first).`,
  options,
);

/** The command line of a process (Linux /proc), or undefined where it cannot be read. */
function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

export const command: CliCommand = {
  name: 'stop',
  summary: 'stop a run another proctor process is writing (its tasks cancelled, the run resumable)',
  usage,
  options,
  async run(argv, io) {
    const { values, positionals } = parseOptions(options, argv);
    if (positionals.length !== 1) throw new UsageError('give the run folder to stop');
    const waitS = values.wait;
    const dir = resolve(positionals[0]);
    if (!existsSync(join(dir, runFiles.manifest))) {
      io.err(`proctor stop: ${shownPath(dir)} is no Proctor run folder (no ${runFiles.manifest})`);
      return 1;
    }
    const manifest = readManifest(dir);
    if (manifest.queue) {
      io.err(
        `proctor stop: ${manifest.runId} is run by queue workers (${manifest.queue}): stop the workers (SIGTERM) — each finishes its task first`,
      );
      return 1;
    }
    const pid = manifest.pid;
    if (pid === undefined || !processAlive(pid)) {
      io.out(
        `${manifest.runId} is not running (its process has ended); proctor run --resume ${shownPath(dir)} continues it`,
      );
      return 0;
    }
    // The pid may have been reused since: stop only a process that is a Proctor run.
    const cmd = commandLine(pid);
    if (cmd !== undefined && !/proctor/.test(cmd)) {
      io.err(
        `proctor stop: process ${pid} named by ${manifest.runId}'s manifest is no Proctor process now (${cmd.slice(0, 80)}); nothing was stopped`,
      );
      return 1;
    }
    process.kill(pid, 'SIGINT');
    io.out(`stopping ${manifest.runId} (process ${pid}): its running tasks are cancelled…`);
    const end = Date.now() + waitS * 1000;
    while (processAlive(pid) && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    if (processAlive(pid)) {
      io.err(
        `proctor stop: process ${pid} is still running after ${waitS} s (its tasks may be finishing their grading)`,
      );
      return 1;
    }
    io.out(`stopped; proctor run --resume ${shownPath(dir)} continues it`);
    return 0;
  },
};
