// The workbench's event hub, what every transport (IPC, the HTTP server's WebSocket route) forwards: the engine's
// live run events (the store's bus, the one source) and the events of runs other processes write (RunTail).
import { EventEmitter } from 'node:events';
import type { ApiEvents, EventName } from '../../shared/api';
import type { RunEvent } from '../../shared/run';
import { subscribeRunEvents } from '../store';

export type EventListener = <E extends EventName>(event: E, payload: ApiEvents[E]) => void;

export interface EventSource {
  subscribeAll(listener: EventListener): () => void;
}

export class EventHub implements EventSource {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish<E extends EventName>(event: E, payload: ApiEvents[E]): void {
    this.emitter.emit('event', event, payload);
  }
  subscribeAll(listener: EventListener): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
  /** Forwards the live bus's run events (runs of this process) as `run` events until the returned function is called. */
  forwardRunEvents(): () => void {
    return subscribeRunEvents((event: RunEvent) => this.publish('run', event));
  }
}
