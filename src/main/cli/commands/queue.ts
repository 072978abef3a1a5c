// `proctor queue status --queue redis://…`: what the shared task queue holds and who works on it.
import { UsageError, queueOption, type CliCommand } from '../command';
import { optionLines, usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { queueStatus, statusLines } from '../../queue/status';
import { followEvents } from '../../queue/live-events';
import { ProgressView } from '../../runner/progress';

const statusOptions = optionTable({
  queue: { kind: 'string', value: 'URL', help: 'the Redis holding the queue', parse: queueOption },
  run: { kind: 'string', value: 'RUN', help: "only this run's jobs (its run id, the folder name)" },
  watch: { kind: 'boolean', help: 'redraw every 2 s until nothing is left (Ctrl-C stops watching)' },
  json: { kind: 'boolean', help: 'the status as JSON' },
});

const eventsOptions = optionTable({
  queue: statusOptions.queue,
  run: { kind: 'string', value: 'RUN', help: 'the run whose events to print' },
  follow: { kind: 'boolean', help: 'wait for more events until Ctrl-C' },
});

/** Both subcommands' options, for help, completion and the closest-name hint. */
const options = { ...statusOptions, ...eventsOptions, run: statusOptions.run };

const usage = [
  usageText(
    `Usage: proctor queue status --queue redis://HOST:PORT [--run RUN] [--watch] [--json]
       proctor queue events --queue redis://HOST:PORT --run RUN [--follow]

Shows the task jobs of the shared queue (of one run with --run): waiting, active (with the step each is at),
done, failed, retried; each worker's share; the rate over the last minutes and the ETA, with a progress bar.`,
    statusOptions,
    `\`queue events\` prints the live events of a run as its workers publish them (Redis stream proctor:events:RUN):
each task's start, steps and end, from any machine.`,
  ),
  ...optionLines({ follow: eventsOptions.follow }),
].join('\n');

export const command: CliCommand = {
  name: 'queue',
  summary: 'the shared task queue: jobs by state, workers, rate and ETA',
  usage,
  options,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'status' && sub !== 'events')
      throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'give a subcommand: status or events');
    const read =
      sub === 'status' ? parseOptions(statusOptions, rest, { positionals: false }).values : undefined;
    const readEvents =
      sub === 'events' ? parseOptions(eventsOptions, rest, { positionals: false }).values : undefined;
    const queue = read?.queue ?? readEvents?.queue;
    const runId = read?.run ?? readEvents?.run;
    const watch = !!(read?.watch ?? readEvents?.follow);
    const json = !!read?.json;
    if (!queue) throw new UsageError('--queue redis://HOST:PORT is needed');
    if (sub === 'events') {
      if (!runId) throw new UsageError('--run RUN is needed');
      const view = new ProgressView((t) => io.out(t.replace(/\n$/, '')), false);
      const controller = new AbortController();
      const onSig = () => controller.abort();
      process.on('SIGINT', onSig);
      try {
        await followEvents(queue, runId, (e) => view.handle(e), { follow: watch, signal: controller.signal });
      } catch (e) {
        io.err(`proctor queue: ${(e as Error).message}`);
        return 1;
      } finally {
        process.off('SIGINT', onSig);
      }
      return 0;
    }
    const tty = process.stdout.isTTY === true && !json;
    let stop = false;
    const onSigint = () => (stop = true);
    process.on('SIGINT', onSigint);
    let drawn = 0;
    try {
      for (;;) {
        let s;
        try {
          s = await queueStatus(queue, { runId });
        } catch (e) {
          io.err(`proctor queue: ${(e as Error).message}`);
          return 1;
        }
        if (json) io.out(JSON.stringify(s));
        else {
          const lines = statusLines(s);
          if (tty && drawn) process.stdout.write(`\x1b[${drawn}F\x1b[J`);
          for (const l of lines) io.out(l);
          drawn = lines.length;
          if (!tty && watch) io.out('');
        }
        if (!watch || stop || (s.total > 0 && s.waiting + s.active + s.delayed === 0)) return 0;
        for (let t = 0; t < 20 && !stop; t++) await new Promise((r) => setTimeout(r, 100));
        if (stop) return 0;
      }
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
};
