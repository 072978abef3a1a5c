// Live run events from the engine: a counter that changes when a matching event arrives (throttled).
import { useEffect, useState } from 'react';
import type { RunEvent } from '../../shared/run';
import { onRunEvent } from './data/engine';

export function useRunEvents(match: (e: RunEvent) => boolean, throttleMs = 250): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onRunEvent((e) => {
      if (!match(e) || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        setTick((t) => t + 1);
      }, throttleMs);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [throttleMs]);
  return tick;
}
