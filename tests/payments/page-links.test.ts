import { describe, expect, it } from 'vitest';
import { badgeText, LINKS_EXAMINED_CAP, PAYMENT_LINK_SELECTOR } from '../../lib/payments/page-links';

describe('badgeText', () => {
  it('counts, with a + once the content script stopped looking', () => {
    expect(badgeText({ found: 0, capped: false })).toBe('');
    expect(badgeText({ found: 7, capped: false })).toBe('7');
    expect(badgeText({ found: 999, capped: false })).toBe('999');
    expect(badgeText({ found: 999, capped: true })).toBe('999+');
    expect(badgeText({ found: 12, capped: true })).toBe('12+');
    // Stopped at the cap without finding a real one: nothing to show.
    expect(badgeText({ found: 0, capped: true })).toBe('');
  });

  it('never more than four characters, whatever a forged report says', () => {
    expect(badgeText({ found: 1e9, capped: false })).toBe(`${LINKS_EXAMINED_CAP}+`);
    expect(badgeText({ found: Number.POSITIVE_INFINITY, capped: false })).toBe('');
    expect(badgeText({ found: -3, capped: false })).toBe('');
    expect(badgeText({ found: 2.5, capped: false })).toBe('');
    expect(badgeText({ found: '12' as unknown as number, capped: false })).toBe('');
    expect(badgeText(undefined as never)).toBe('');
  });
});

describe('PAYMENT_LINK_SELECTOR', () => {
  it('names each kind precisely, case-insensitively, and never a bare a[type]', () => {
    const parts = PAYMENT_LINK_SELECTOR.split(', ');
    expect(parts).toContain('a[type^="application/bitcoin-paymentrequest" i]');
    expect(parts).not.toContain('a[type]');
    expect(parts).toEqual(expect.arrayContaining(['a[href^="bitcoin:" i]', 'a[href^="lightning:" i]']));
    for (const part of parts) expect(part).toMatch(/ i\]$/);
  });
});
