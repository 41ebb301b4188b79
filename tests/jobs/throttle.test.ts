import { describe, expect, it } from 'vitest';
import { throttle } from '../../lib/throttle';

/** A clock and timers the test moves by hand. */
function manualTime() {
  let now = 0;
  const timers = new Map<number, { at: number; run: () => void }>();
  let next = 1;
  return {
    clock: () => now,
    timers: {
      setTimeout: (run: () => void, ms: number) => {
        timers.set(next, { at: now + ms, run });
        return next++;
      },
      clearTimeout: (id: unknown) => void timers.delete(id as number),
    },
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at))
        if (t.at <= now) {
          timers.delete(id);
          t.run();
        }
    },
  };
}

describe('throttle', () => {
  it('delivers at most one value per interval, and the latest one at its end', () => {
    const time = manualTime();
    const seen: number[] = [];
    const report = throttle((v: number) => seen.push(v), 100, time.timers, time.clock);
    for (let i = 1; i <= 50; i++) {
      report(i);
      time.advance(4); // 250 values a second
    }
    time.advance(100);
    // 200 ms of values: the first at once, then the latest at the end of each 100 ms, the last never lost.
    expect(seen).toEqual([1, 25, 50]);
  });

  it('now() delivers at once and drops a waiting value; cancel() drops it', () => {
    const time = manualTime();
    const seen: string[] = [];
    const report = throttle((v: string) => seen.push(v), 100, time.timers, time.clock);
    report('a');
    report('b');
    report.now('end');
    time.advance(500);
    expect(seen).toEqual(['a', 'end']);
    report('c');
    report('d');
    report.cancel();
    time.advance(500);
    expect(seen).toEqual(['a', 'end', 'c']);
  });
});
