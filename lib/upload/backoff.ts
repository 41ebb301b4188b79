/**
 * How long an upload waits before it asks the server again after its connection broke off: 1 s,
 * doubling, at most 30 s, each pause drawn between half and all of that (so that many clients cut
 * off by the same outage do not all come back at the same moment).
 */
export const FIRST_PAUSE_MS = 1000;
export const LONGEST_PAUSE_MS = 30_000;

/** The pause before try `attempt` (0 first); `random` in [0, 1). */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(LONGEST_PAUSE_MS, FIRST_PAUSE_MS * 2 ** Math.min(attempt, 30));
  return ceiling / 2 + (ceiling / 2) * random();
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts. Tests pass their own. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      globalThis.clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = globalThis.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
