// runs.queue: the queue a run was enqueued on (`proctor run --queue`), read for the run view — its jobs by state,
// workers, rate and ETA. Redis is asked only after a plain TCP connect succeeds, so a queue that is down is one
// clear error and never a connection left retrying behind the UI.
import { connect } from 'node:net';
import type { RunQueueView } from '../../shared/queue';
import { parseQueueUrl } from '../queue/connection';

const CONNECT_TIMEOUT_MS = 2000;
const STATUS_TIMEOUT_MS = 8000;

function reachable(host: string, port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (why?: string): void => {
      socket.destroy();
      resolve(why);
    };
    socket.setTimeout(CONNECT_TIMEOUT_MS, () => done(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`));
    socket.once('connect', () => done());
    socket.once('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
  });
}

/** The run's queue view; `queue` is the manifest's `queue` field (no password), `runId` the run. */
export async function runQueueView(queue: string, runId: string): Promise<RunQueueView> {
  let target;
  try {
    target = parseQueueUrl(queue);
  } catch (e) {
    return { queue, error: (e as Error).message };
  }
  const host = String(target.options.host ?? '127.0.0.1');
  const port = Number(target.options.port ?? 6379);
  const down = await reachable(host, port);
  if (down) return { queue, error: `the queue at ${host}:${port} cannot be reached (${down})` };
  const { queueStatus } = await import('../queue/status'); // bullmq is loaded only for queued runs
  let timer: NodeJS.Timeout | undefined;
  try {
    const status = await Promise.race([
      queueStatus(queue, { runId }),
      new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(
            () => reject(new Error(`no status within ${STATUS_TIMEOUT_MS / 1000} s`)),
            STATUS_TIMEOUT_MS,
          )),
      ),
    ]);
    return { queue, status };
  } catch (e) {
    return { queue, error: `the queue at ${host}:${port}: ${(e as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}
