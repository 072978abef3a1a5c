// Bounds on what one reply may ask for, so a model cannot stall or flood a run.
import type { Action } from '../../shared/run';

export const LIMITS = Object.freeze({
  /** Characters of a whole reply. */
  replyChars: 100_000,
  /** Actions from one reply. */
  actions: 200,
  /** Characters typed by one write(). */
  textChars: 10_000,
  /** Seconds of one sleep. */
  sleepSeconds: 60,
  /** Seconds of one duration= or interval=. */
  durationSeconds: 10,
  /** clicks= of one click. */
  clicks: 10,
  /** presses= of one press. */
  presses: 100,
  /**
   * Wheel clicks of one scroll. pyautogui itself takes any whole number (on X11 it repeats the wheel button that
   * many times; agents write scroll(-800) routinely), so Proctor's cap is what its local executor performs in one
   * call (env/local/primitives.ts MAX_REPEAT), not a tighter guess of what models need.
   */
  scrollClicks: 1000,
  /** Keys in one press([...]) / hotkey(...). */
  keys: 50,
  /** Seconds one reply may take in sleeps, durations and intervals together. */
  replySeconds: 120,
});

/** Seconds an action spends waiting on purpose (sleep, duration=, interval=), without the input itself. */
export function waitingSeconds(a: Action): number {
  switch (a.type) {
    case 'sleep':
      return a.seconds;
    case 'moveTo':
    case 'moveRel':
    case 'dragTo':
    case 'dragRel':
      return a.duration ?? 0;
    case 'click':
      return (a.interval ?? 0) * Math.max(0, (a.clicks ?? 1) - 1);
    case 'write':
      return (a.interval ?? 0) * [...a.text].length;
    case 'press':
      return (a.interval ?? 0) * a.keys.length * (a.presses ?? 1);
    default:
      return 0;
  }
}
