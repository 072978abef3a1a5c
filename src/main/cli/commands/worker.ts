// `proctor worker --queue redis://…`: takes task jobs from the shared queue and runs them on this machine's
// environments, writing results into the run folders on shared storage.
import { UsageError, queueOption, type CliCommand } from '../command';
import { usageText } from '../options/help';
import { optionTable, parseOptions } from '../options/table';
import { envOption, envUsage } from '../env-option';
import { startQueueWorker } from '../../queue/worker';

const options = optionTable({
  queue: {
    kind: 'string',
    value: 'URL',
    help: 'the Redis holding the queue (password: in the URL or PROCTOR_REDIS_PASSWORD)',
    parse: queueOption,
  },
  env: {
    kind: 'string',
    value: 'SPEC',
    help: `this machine's environment: ${envUsage('')}\n(default: the run's own, else local)`,
    parse: (v: string) => envOption(v),
  },
  slots: {
    kind: 'string',
    value: 'N',
    default: 1,
    help: 'jobs at once, each on its own environment (default 1, up to 64)',
    parse: (v: string, flag: string) => {
      if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 64)
        throw new UsageError(`${flag} '${v}': a number from 1 to 64`);
      return Number(v);
    },
  },
  out: {
    kind: 'string',
    value: 'DIR',
    complete: 'dir',
    help: 'where the run folders are mounted on this machine (default: the enqueued path)',
  },
  name: {
    kind: 'string',
    value: 'NAME',
    help: "this worker's name in `proctor queue status` (default HOST:PID)",
    parse: (v: string, flag: string) => {
      if (!/^[A-Za-z0-9._@+-]{1,100}$/.test(v))
        throw new UsageError(`${flag} '${v}': letters, digits and . _ @ + - only`);
      return v;
    },
  },
  'stall-ms': {
    kind: 'string',
    value: 'N',
    help: 'lock time: a worker silent this long is taken as dead and its job goes back (default 30000)',
    parse: (v: string, flag: string) => {
      if (!/^\d+$/.test(v) || Number(v) < 1000)
        throw new UsageError(`${flag} '${v}': milliseconds, at least 1000`);
      return Number(v);
    },
  },
  'allow-unisolated': {
    kind: 'boolean',
    help: 'let the llm agent drive sandboxes without namespace isolation',
  },
});

const usage = usageText(
  `Usage: proctor worker --queue redis://HOST:PORT [options]

Takes task jobs that \`proctor run … --queue\` added and runs each (setup → agent → grading) on an environment
of this machine, writing into the run's folder on storage every worker can write (a shared file system).
A job whose task already has a committed result does nothing; a dead attempt's folder is kept aside as a
failed attempt. Model keys come from this machine's configuration, never from the queue. The run's settings
(its grading profile, downloads, agent options) come from the run's plan (run-plan.json), as on --resume.`,
  options,
  `SIGTERM or Ctrl-C: no new jobs; the running ones finish. A second signal cancels them and puts them back in
the queue for another worker; a third quits at once.`,
);

export const command: CliCommand = {
  name: 'worker',
  summary: 'take task jobs from a shared queue (Redis) and run them on this machine',
  usage,
  options,
  async run(argv, io) {
    const { values: v } = parseOptions(options, argv, { positionals: false });
    const { queue, env, slots, out, name } = v;
    const stallMs = v['stall-ms'];
    const allowUnisolated = !!v['allow-unisolated'];
    if (!queue) throw new UsageError('--queue redis://HOST:PORT is needed');
    const worker = await startQueueWorker({
      queue,
      env,
      slots,
      out,
      name,
      stallMs,
      allowUnisolated,
      log: (l) => io.out(l),
    });
    let signals = 0;
    const onSignal = () => {
      signals++;
      if (signals === 1) {
        io.err('stopping: no new jobs; the running ones finish (signal again to put them back in the queue)');
        void worker.close();
      } else if (signals === 2) {
        io.err('stopping now: the running jobs are cancelled and go back to the queue');
        void worker.close({ now: true });
      } else process.exit(130);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    try {
      await worker.closed;
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    io.out(`worker ${worker.name} stopped`);
    return 0;
  },
};
