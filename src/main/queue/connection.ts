// Where the task queue lives: a `redis://HOST:PORT[/DB]` URL (`--queue`), read and checked, and the one BullMQ
// queue name every Proctor enqueuer and worker shares. A password comes from the URL's user info or from
// PROCTOR_REDIS_PASSWORD, and is never stored in a manifest or a job.
import type { RedisOptions } from 'bullmq';

/** The BullMQ queue Proctor's tasks go through. */
export const QUEUE_NAME = 'proctor-tasks';

/** Key prefix of everything Proctor keeps in Redis besides BullMQ's own keys. */
export const KEY_PREFIX = 'proctor';

export class QueueUrlError extends Error {}

export interface QueueTarget {
  /** The URL without its password, for messages and job data. */
  shown: string;
  options: RedisOptions;
}

/** Reads `redis://[user:pass@]host:port[/db]` (also `rediss://` for TLS); throws QueueUrlError naming what is wrong. */
export function parseQueueUrl(text: string, env: NodeJS.ProcessEnv = process.env): QueueTarget {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new QueueUrlError(`'${text}' is not a URL; write redis://HOST:PORT`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new QueueUrlError(`'${url.protocol}' is not redis: or rediss: (write redis://HOST:PORT)`);
  if (!url.hostname) throw new QueueUrlError(`${text}: no host; write redis://HOST:PORT`);
  const port = url.port ? Number(url.port) : 6379;
  const dbText = url.pathname.replace(/^\//, '');
  if (dbText && !/^\d{1,2}$/.test(dbText))
    throw new QueueUrlError(`${text}: the path '/${dbText}' is not a database number`);
  const password = url.password ? decodeURIComponent(url.password) : env.PROCTOR_REDIS_PASSWORD || undefined;
  const shownUrl = new URL(url.href);
  shownUrl.password = '';
  shownUrl.username = '';
  return {
    shown: shownUrl.href.replace(/\/$/, ''),
    options: {
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      ...(dbText ? { db: Number(dbText) } : {}),
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(password ? { password } : {}),
      ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
      // BullMQ workers block on Redis; they must wait for it (a restart) rather than fail their calls.
      maxRetriesPerRequest: null,
      retryStrategy: (times: number) => Math.min(200 * times, 2000),
    },
  };
}
