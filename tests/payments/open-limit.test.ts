// How many payment tabs a page may have the background open (lib/payments/open-limit.ts).
import { describe, expect, it } from 'vitest';
import { OPENS_PER_MINUTE, PaymentOpenLimit } from '../../lib/payments/open-limit';

describe('PaymentOpenLimit', () => {
  it('gives a page tab one payment tab at a time, even for messages that arrive together', () => {
    const limit = new PaymentOpenLimit();
    const verdicts = Array.from({ length: 5 }, () => limit.take(7, 0));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(1);
    expect(verdicts.slice(1)).toEqual(Array(4).fill({ ok: false, reason: 'one-at-a-time' }));
    // Another page tab is not held back by this one.
    expect(limit.take(8, 0)).toEqual({ ok: true });
  });

  it('frees the slot when the payment tab closes, or when no tab was made', () => {
    const limit = new PaymentOpenLimit();
    expect(limit.take(7, 0).ok).toBe(true);
    limit.placed(7, 100);
    limit.release(7); // a placed tab holds its slot
    expect(limit.take(7, 1).ok).toBe(false);
    limit.closed(100);
    expect(limit.take(7, 2).ok).toBe(true);
    limit.release(7);
    expect(limit.take(7, 3).ok).toBe(true);
  });

  it(`allows ${OPENS_PER_MINUTE} a minute per page tab, then again a minute after the first`, () => {
    const limit = new PaymentOpenLimit();
    for (let i = 0; i < OPENS_PER_MINUTE; i++) {
      expect(limit.take(7, i * 1000)).toEqual({ ok: true });
      limit.placed(7, 100 + i);
      limit.closed(100 + i);
    }
    expect(limit.take(7, 5000)).toEqual({ ok: false, reason: 'per-minute' });
    expect(limit.take(7, 60_001)).toEqual({ ok: true });
  });

  it('forgets a page tab that closed', () => {
    const limit = new PaymentOpenLimit();
    expect(limit.take(7, 0).ok).toBe(true);
    limit.closed(7);
    expect(limit.take(7, 1).ok).toBe(true);
  });
});
