// The live event bus, the engine's one source of live run events: every RunEvent the store writes (and a workbench
// run's pauses and approvals) is published here; the UI's hub (IPC and WebSocket), the CLI's progress (through
// runTasks' onEvent) and the queue's Redis relay read it with subscribeRunEvents.
import { EventEmitter } from 'node:events';
import type { RunEvent } from '../../shared/run';

export interface RunEventBus {
  on(name: 'event', listener: (event: RunEvent) => void): this;
  off(name: 'event', listener: (event: RunEvent) => void): this;
  once(name: 'event', listener: (event: RunEvent) => void): this;
  emit(name: 'event', event: RunEvent): boolean;
}

class RunEventEmitter extends EventEmitter implements RunEventBus {}

/** The process-wide bus. A listener that throws does not stop the run (errors are caught per listener). */
export const runEvents: RunEventBus = new RunEventEmitter().setMaxListeners(100) as RunEventBus;

/**
 * Calls `listener` with every event published from now on — only the run `runId`'s when given — until the returned
 * function is called. A listener that throws does not stop the run.
 */
export function subscribeRunEvents(
  listener: (event: RunEvent) => void,
  filter: { runId?: string } = {},
): () => void {
  const { runId } = filter;
  const own =
    runId === undefined ? listener : (event: RunEvent) => void (event.runId === runId && listener(event));
  runEvents.on('event', own);
  return () => void runEvents.off('event', own);
}

/** Publishes without letting a failing listener break the writer. */
export function publish(event: RunEvent): void {
  const emitter = runEvents as unknown as EventEmitter;
  for (const listener of emitter.listeners('event')) {
    try {
      (listener as (e: RunEvent) => void)(event);
    } catch {
      // A broken listener (a UI gone away) must not stop a run.
    }
  }
}
