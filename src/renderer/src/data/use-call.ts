// Views read the engine through this hook: the answer to one contract call from the one store, asked on mount and
// again when `refresh` changes, with the last answer shown meanwhile.
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
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
