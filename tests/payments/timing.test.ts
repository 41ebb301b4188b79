// Time left, clock offset and the history's expiry (lib/payments/timing.ts).
import { describe, expect, it } from 'vitest';
import { clockOffsetSeconds, expiresMs, secondsLeft } from '../../lib/payments/timing';

const at = (seconds: number) => new Date(seconds * 1000 + 999);

describe('timing', () => {
  it('counts whole seconds until expiry, negative after, none without expiry', () => {
    expect(secondsLeft({ expires: 1_000n }, at(900))).toBe(100);
    expect(secondsLeft({ expires: 1_000n }, at(1_000))).toBe(0);
    expect(secondsLeft({ expires: 1_000n }, at(1_001))).toBe(-1);
    expect(secondsLeft({}, at(1))).toBeUndefined();
  });

  it('keeps far-off expiries far off, with their sign', () => {
    expect(secondsLeft({ expires: 2n ** 64n - 1n }, at(0))).toBe(1e12);
    expect(secondsLeft({ expires: 0n }, new Date(8.64e15))).toBe(-1e12);
  });

  it('says how far the local clock is from the request', () => {
    expect(clockOffsetSeconds({ time: 1_000n }, at(1_300))).toBe(300);
    expect(clockOffsetSeconds({ time: 1_000n }, at(700))).toBe(-300);
  });

  it('expiry as a date only when JavaScript can hold it', () => {
    expect(expiresMs(1_700_000_000n)).toBe(1_700_000_000_000);
    expect(expiresMs(2n ** 63n)).toBeUndefined();
    expect(expiresMs(undefined)).toBeUndefined();
  });
});
