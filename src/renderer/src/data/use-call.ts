// Views read the engine through this hook: the answer to one contract call from the one store, asked on mount and
// again when `refresh` changes, with the last answer shown meanwhile; several answers of one method at once; a poll.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { MethodName, Params, Result } from '../../../shared/api';
import { callKey, fetchCall, IDLE, snapshot, watch, type CallState } from './store';

/**
 * The state of `method(params)`; `params` undefined skips the call (a call that depends on an answer not there yet).
 * `refresh` is any value whose change asks again (a live event's counter, a label just added).
 */
export function useCall<M extends MethodName>(
  method: M,
  params: Params<M> | undefined,
  refresh?: unknown,
): CallState<Result<M>> {
  const key = params === undefined ? undefined : callKey(method, params);
  const subscribe = useCallback(
    (onChange: () => void) => (key ? watch(key, onChange) : () => undefined),
    [key],
  );
  const state = useSyncExternalStore(subscribe, () => (key ? snapshot(key) : IDLE)) as CallState<Result<M>>;
  const asked = useRef<{ key?: string; refresh?: unknown }>({});
  useEffect(() => {
    if (!key) return;
    // A new refresh value for the same call asks again even if a request is on its way (it may predate the change).
    const force = asked.current.key === key && asked.current.refresh !== refresh;
    asked.current = { key, refresh };
    void fetchCall(method, JSON.parse(key.slice(key.indexOf(' ') + 1)) as Params<M>, force);
  }, [method, key, refresh]);
  return state;
}

/**
 * The answers to one method asked with each of several params (the runs chosen for comparison): `data` once every
 * answer is in (in the order asked), the first failure's message, loading while any is on its way.
 */
export function useCalls<M extends MethodName>(
  method: M,
  paramsList: readonly Params<M>[],
  refresh?: unknown,
): CallState<Result<M>[]> {
  const keys = paramsList.map((p) => callKey(method, p));
  const joined = keys.join('\n');
  const subscribe = useCallback(
    (onChange: () => void) => {
      const offs = joined ? joined.split('\n').map((k) => watch(k, onChange)) : [];
      return () => offs.forEach((off) => off());
    },
    [joined],
  );
  // The same parts give the same combined state (useSyncExternalStore compares snapshots by identity).
  const last = useRef<{ parts: CallState<unknown>[]; combined: CallState<Result<M>[]> }>(undefined);
  const combine = () => {
    const parts = keys.map(snapshot);
    const prev = last.current;
    if (prev && prev.parts.length === parts.length && prev.parts.every((p, i) => p === parts[i]))
      return prev.combined;
    const combined: CallState<Result<M>[]> = {
      data: parts.every((p) => p.data !== undefined) ? (parts.map((p) => p.data) as Result<M>[]) : undefined,
      error: parts.find((p) => p.error)?.error,
      loading: parts.some((p) => p.loading),
    };
    last.current = { parts, combined };
    return combined;
  };
  const state = useSyncExternalStore(subscribe, combine);
  const asked = useRef<{ joined?: string; refresh?: unknown }>({});
  useEffect(() => {
    if (!joined) return;
    const force = asked.current.joined === joined && asked.current.refresh !== refresh;
    asked.current = { joined, refresh };
    for (const key of joined.split('\n'))
      void fetchCall(method, JSON.parse(key.slice(key.indexOf(' ') + 1)) as Params<M>, force);
  }, [method, joined, refresh]);
  return state;
}

/** A counter that goes up every `ms` while mounted: a `refresh` for an answer read again on a schedule. */
export function usePoll(ms: number): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((t) => t + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return tick;
}
