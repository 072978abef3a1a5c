// `proctor worker --queue redis://…`: takes task jobs from the shared queue and runs them on this machine's
// environments, writing results into the run folders on shared storage.
import { UsageError, optionValue, queueOption, type CliCommand } from '../command';
import { envOption, envUsage } from '../env-option';
import { startQueueWorker } from '../../queue/worker';

const usage = `Usage: proctor worker --queue redis://HOST:PORT [options]

Takes task jobs that \`proctor run … --queue\` added and runs each (setup → agent → grading) on an environment
of this machine, writing into the run's folder on storage every worker can write (a shared file system).
A job whose task already has a committed result does nothing; a dead attempt's folder is kept aside as a
failed attempt. Model keys come from this machine's configuration, never from the queue.

  --queue URL           the Redis holding the queue (password: in the URL or PROCTOR_REDIS_PASSWORD)
  --env SPEC            this machine's environment: ${envUsage('                        ')}
                        (default: the run's own, else local)
  --slots N             jobs at once, each on its own environment (default 1, up to 64)
  --out DIR             where the run folders are mounted on this machine (default: the enqueued path)
  --name NAME           this worker's name in \`proctor queue status\` (default HOST:PID)
  --stall-ms N          lock time: a worker silent this long is taken as dead and its job goes back (default 30000)
  --allow-unisolated    let the llm agent drive sandboxes without namespace isolation

SIGTERM or Ctrl-C: no new jobs; the running ones finish. A second signal cancels them and puts them back in
the queue for another worker; a third quits at once.`;

export const command: CliCommand = {
  name: 'worker',
  summary: 'take task jobs from a shared queue (Redis) and run them on this machine',
  usage,
  async run(argv, io) {
    let queue: string | undefined;
    let env: string | undefined;
    let slots = 1;
    let out: string | undefined;
    let name: string | undefined;
    let stallMs: number | undefined;
    let allowUnisolated = false;
    for (let i = 0; i < argv.length; i++) {
      const a = argv[i];
      switch (a) {
        case '--queue':
          queue = optionValue(argv, ++i, a);
          break;
        case '--env':
          env = envOption(optionValue(argv, ++i, a));
          break;
        case '--slots': {
          const v = optionValue(argv, ++i, a);
          if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > 64) throw new UsageError(`--slots '${v}': a number from 1 to 64`);
          slots = Number(v);
          break;
        }
        case '--out':
          out = optionValue(argv, ++i, a);
          break;
        case '--name':
          name = optionValue(argv, ++i, a);
          if (!/^[A-Za-z0-9._@+-]{1,100}$/.test(name)) throw new UsageError(`--name '${name}': letters, digits and . _ @ + - only`);
          break;
        case '--stall-ms': {
          const v = optionValue(argv, ++i, a);
          if (!/^\d+$/.test(v) || Number(v) < 1000) throw new UsageError(`--stall-ms '${v}': milliseconds, at least 1000`);
          stallMs = Number(v);
          break;
        }
        case '--allow-unisolated':
          allowUnisolated = true;
          break;
        default:
          throw new UsageError(`unknown option '${a}'`);
      }
    }
    if (!queue) throw new UsageError('--queue redis://HOST:PORT is needed');
    queueOption(queue);
    const worker = await startQueueWorker({ queue, env, slots, out, name, stallMs, allowUnisolated, log: (l) => io.out(l) });
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
