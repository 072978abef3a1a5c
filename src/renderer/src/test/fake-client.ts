// A test double of the engine contract for the renderer's unit tests: answers contract methods from fixtures the
// test gives, records every call, and lets a test emit live events. Installed as the preload bridge
// (window.proctor), so the real transport module hands it to the UI as `client`.
import type { ApiEvents, EventName, MethodName, Params, ProctorClient, Result } from '../../../shared/api';

export type Answers = { [M in MethodName]?: (params: Params<M>) => Result<M> | Promise<Result<M>> };

export interface FakeClient extends ProctorClient {
  /** The calls made so far, in order. */
  calls: { method: MethodName; params: unknown }[];
  /** Replaces the answers (a method without one fails, as an unknown method does in the engine). */
  answer(answers: Answers): void;
  /** Sends a live event to the subscribed handlers. */
  emit<E extends EventName>(event: E, payload: ApiEvents[E]): void;
}

export function fakeClient(initial: Answers = {}): FakeClient {
  let answers = initial;
  const handlers = new Map<EventName, Set<(payload: unknown) => void>>();
  const calls: FakeClient['calls'] = [];
  return {
    calls,
    answer(next) {
      answers = next;
      calls.length = 0;
    },
    async call<M extends MethodName>(method: M, params: Params<M>): Promise<Result<M>> {
      calls.push({ method, params });
      const answer = answers[method] as ((p: Params<M>) => Result<M> | Promise<Result<M>>) | undefined;
      if (!answer) throw new Error(`fake client: no answer for ${method} in this test`);
      return answer(params);
    },
    subscribe<E extends EventName>(event: E, handler: (payload: ApiEvents[E]) => void) {
      let set = handlers.get(event);
      if (!set) handlers.set(event, (set = new Set()));
      const h = handler as (payload: unknown) => void;
      set.add(h);
      return () => set.delete(h);
    },
    emit(event, payload) {
      handlers.get(event)?.forEach((h) => h(payload));
    },
    fileUrl: (path) => `/files/${path}`,
  };
}
