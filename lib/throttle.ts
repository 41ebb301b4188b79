// Progress arrives per chunk (hundreds a second on a fast disk); a person needs about ten a second,
// and each report costs a message, a storage write and a re-render in every open view (issue 21
// measured per-chunk re-renders starving a streamed upload).
import type { Timers } from './upload/transport';

const globalTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** About ten reports a second. */
export const REPORT_INTERVAL_MS = 100;

export interface Throttled<T> {
  /** Delivers `value` now if the last delivery is at least the interval ago, else at the end of it (the latest value wins). */
  (value: T): void;
  /** Delivers `value` now, dropping any waiting one. */
  now(value: T): void;
  /** Drops a waiting value. */
  cancel(): void;
}

export function throttle<T>(
  deliver: (value: T) => void,
  intervalMs = REPORT_INTERVAL_MS,
  timers: Timers = globalTimers,
  clock: () => number = Date.now,
): Throttled<T> {
  let last = Number.NEGATIVE_INFINITY;
  let waiting: { value: T } | undefined;
  let timer: unknown;
  const cancel = () => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
    waiting = undefined;
  };
  const now = (value: T) => {
    cancel();
    last = clock();
    deliver(value);
  };
  const throttled = ((value: T) => {
    const wait = last + intervalMs - clock();
    if (wait <= 0) return now(value);
    waiting = { value };
    timer ??= timers.setTimeout(() => {
      timer = undefined;
      const pending = waiting;
      waiting = undefined;
      if (pending) now(pending.value);
    }, wait);
  }) as Throttled<T>;
  throttled.now = now;
  throttled.cancel = cancel;
  return throttled;
}
