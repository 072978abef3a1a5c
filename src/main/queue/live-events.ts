// Live step events of queued runs through Redis: each worker appends every event of the runs it writes to the
// run's stream (`proctor:events:<runId>`, capped), so a `proctor serve` or a `queue status` on another machine
// can follow a distributed run as it follows a local one.
import IORedis, { type RedisOptions } from 'ioredis';
import type Redis from 'ioredis';
import type { RunEvent } from '../../shared/run';
import { subscribeRunEvents } from '../store/events';
import { KEY_PREFIX, parseQueueUrl } from './connection';

/** Newest events kept per run stream (older ones are on the shared run folder's events.jsonl). */
export const STREAM_CAP = 20_000;

export function eventStreamKey(runId: string): string {
  return `${KEY_PREFIX}:events:${runId}`;
}

/** Appends an event to its run's stream; failures (Redis restarting) are counted, never thrown at the run. */
export class EventRelay {
  dropped = 0;

  constructor(private readonly redis: Redis) {}

  /**
   * Relays the events of the live bus (the engine's one source) that `accept` takes, until the returned function
   * is called; `accept` may act on an event too (a worker reports a step as its job's progress).
   */
  follow(accept: (event: RunEvent) => boolean): () => void {
    return subscribeRunEvents((event) => {
      if (accept(event)) this.forward(event);
    });
  }

  forward(event: RunEvent): void {
    this.redis
      .xadd(eventStreamKey(event.runId), 'MAXLEN', '~', STREAM_CAP, '*', 'e', JSON.stringify(event))
      .catch(() => {
        this.dropped++;
      });
  }
}

/** Events of a run's stream after `fromId` (exclusive; '0' = from the start), up to `count`. */
export async function readEvents(
  redis: Redis,
  runId: string,
  fromId = '0',
  count = 1000,
): Promise<{ lastId: string; events: RunEvent[] }> {
  const rows = await redis.xrange(
    eventStreamKey(runId),
    fromId === '0' ? '-' : `(${fromId}`,
    '+',
    'COUNT',
    count,
  );
  const events: RunEvent[] = [];
  let lastId = fromId;
  for (const [id, fields] of rows) {
    lastId = id;
    const i = fields.indexOf('e');
    if (i < 0 || i + 1 >= fields.length) continue;
    try {
      events.push(JSON.parse(fields[i + 1]) as RunEvent);
    } catch {
      // a damaged entry is skipped
    }
  }
  return { lastId, events };
}

/** Hands every event of the run's stream to `onEvent`; with `follow`, waits for new ones until `signal` aborts. */
export async function followEvents(
  url: string,
  runId: string,
  onEvent: (e: RunEvent) => void,
  options: { follow?: boolean; signal?: AbortSignal } = {},
): Promise<void> {
  const redis = new IORedis(parseQueueUrl(url).options as RedisOptions);
  redis.on('error', () => undefined);
  const stop = () => redis.disconnect();
  options.signal?.addEventListener('abort', stop, { once: true });
  let last = '0';
  try {
    for (;;) {
      const { lastId, events } = await readEvents(redis, runId, last);
      for (const e of events) onEvent(e);
      last = lastId;
      if (events.length) continue;
      if (!options.follow || options.signal?.aborted) return;
      // wait for the next entry (at most 2 s, then look again, so an abort is noticed)
      await redis
        .xread('BLOCK', 2000, 'STREAMS', eventStreamKey(runId), last === '0' ? '0' : last)
        .catch((e: unknown) => {
          if (!options.signal?.aborted) throw e;
        });
      if (options.signal?.aborted) return;
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    redis.disconnect();
  }
}
