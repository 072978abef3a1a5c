// What the queue of a distributed run looks like (`proctor queue status`, and the run view of the UI): pure types.

/** The jobs of a queue (of one run, or of all), its workers, rate and ETA. */
export interface QueueStatus {
  queue: string;
  runId?: string;
  waiting: number;
  active: number;
  delayed: number;
  done: number;
  failed: number;
  /** Jobs that took more than one attempt (a failure or a stall). */
  retried: number;
  total: number;
  workersOnline: string[];
  perWorker: { name: string; active: number; done: number }[];
  running: { taskKey: string; step?: number; worker?: string; attempt: number }[];
  failures: { taskKey: string; reason: string }[];
  /** Tasks finished per minute over the last ten minutes (or since the first start, if later). */
  perMinute?: number;
  etaMs?: number;
}

/** A run's queue as the UI sees it: its address (no password), and its status, or why it could not be read. */
export interface RunQueueView {
  queue: string;
  status?: QueueStatus;
  error?: string;
}
