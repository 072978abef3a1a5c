// Follows the events.jsonl of runs that another process (`proctor run`) is writing, and republishes new
// lines on the hub, so the UI can attach to a run it did not start.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunEvent } from '../../shared/run';
import type { EventHub } from './events';

const POLL_MS = 200;

/** The run's last events say it finished (looks at the last 4 KiB only). */
function endsFinished(file: string, size: number): boolean {
  const n = Math.min(size, 4096);
  const buf = Buffer.alloc(n);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, n, size - n);
  } finally {
    closeSync(fd);
  }
  return buf.toString('utf8').includes('"kind":"run.finished"');
}

export class RunTail {
  private readonly followed = new Map<
    string,
    { offset: number; rest: string; timer: ReturnType<typeof setInterval> }
  >();
  constructor(private readonly hub: EventHub) {}

  /** Starts following a run folder's events.jsonl from its current end (idempotent; not for finished runs). */
  follow(runDir: string): void {
    if (this.followed.has(runDir)) return;
    const file = join(runDir, 'events.jsonl');
    if (!existsSync(file)) return;
    const offset = statSync(file).size;
    if (endsFinished(file, offset)) return;
    const state = { offset, rest: '', timer: setInterval(() => this.poll(runDir, file), POLL_MS) };
    state.timer.unref?.();
    this.followed.set(runDir, state);
  }

  private poll(runDir: string, file: string): void {
    const state = this.followed.get(runDir);
    if (!state || !existsSync(file)) return;
    const size = statSync(file).size;
    if (size <= state.offset) return;
    const fd = openSync(file, 'r');
    const buf = Buffer.alloc(Math.min(size - state.offset, 8 * 1024 * 1024));
    try {
      readSync(fd, buf, 0, buf.length, state.offset);
    } finally {
      closeSync(fd);
    }
    state.offset += buf.length;
    const text = state.rest + buf.toString('utf8');
    const lines = text.split('\n');
    state.rest = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      let event: RunEvent;
      try {
        event = JSON.parse(line) as RunEvent;
      } catch {
        continue;
      }
      this.hub.publish('run', event);
      if (event.kind === 'run.finished') this.unfollow(runDir);
    }
  }

  unfollow(runDir: string): void {
    const state = this.followed.get(runDir);
    if (state) clearInterval(state.timer);
    this.followed.delete(runDir);
  }

  close(): void {
    for (const dir of [...this.followed.keys()]) this.unfollow(dir);
  }
}
