import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALPHABET,
  deriveIv,
  IV_LENGTH,
  isAlphabetText,
  KEY_LENGTH,
  type RandomSource,
  randomIv,
  randomKey,
  randomText,
} from '../../lib/crypto';

/** A random source that cycles through the byte values start, start+1, … (mod 256). */
function cyclingSource(start = 0): RandomSource & { drawn: number } {
  let next = start;
  const source = Object.assign(
    (bytes: Uint8Array) => {
      for (let i = 0; i < bytes.length; i++) bytes[i] = next++ & 0xff;
      source.drawn += bytes.length;
    },
    { drawn: 0 },
  );
  return source;
}

describe('random key and IV text', () => {
  it('has 62 distinct characters: A–Z, a–z, 0–9', () => {
    expect(new Set(ALPHABET).size).toBe(62);
    expect(isAlphabetText(ALPHABET)).toBe(true);
    expect(ALPHABET).toMatch(/^[A-Z]{26}[a-z]{26}[0-9]{10}$/);
  });

  it('makes keys of 32 and IVs of 16 alphabet characters', () => {
    for (let i = 0; i < 200; i++) {
      const key = randomKey();
      const iv = randomIv();
      expect(key).toHaveLength(KEY_LENGTH);
      expect(iv).toHaveLength(IV_LENGTH);
      expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(iv).toMatch(/^[A-Za-z0-9]{16}$/);
    }
  });

  it('gives every character the same share of the byte values (no modulo bias)', () => {
    // Feeding each byte value equally often must give each character exactly equal counts:
    // with plain `byte % 62` the first 8 characters would get 5 values of 256 instead of 4.
    const source = cyclingSource();
    const text = randomText(62 * 4 * 50, source);
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    expect(new Set(counts.values())).toEqual(new Set([200]));
  });

  it('drops the byte values 248–255 instead of folding them onto the alphabet', () => {
    const source = cyclingSource(248);
    // 248..255 are rejected, then 0 → 'A', 1 → 'B', …
    expect(randomText(3, source)).toBe('ABC');
    const high: RandomSource = (bytes) => bytes.fill(255);
    let calls = 0;
    const mostlyHigh: RandomSource = (bytes) => {
      calls++;
      if (calls < 3) high(bytes);
      else bytes.fill(61);
    };
    expect(randomText(4, mostlyHigh)).toBe('9999');
  });

  it('uses the given random source and no other', () => {
    expect(randomText(5, (bytes) => bytes.fill(62 + 1))).toBe('BBBBB');
    expect(randomText(0)).toBe('');
    expect(() => randomText(-1)).toThrow(RangeError);
  });

  it('draws roughly uniformly from the real random source', () => {
    const text = randomText(62 * 2000);
    const counts = new Map<string, number>();
    for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Expected 2000 each, sd ≈ 44; 400 is over 9 sd, so this never fails by chance.
    for (const n of counts.values()) expect(Math.abs(n - 2000)).toBeLessThan(400);
  });
});

describe('deriveIv', () => {
  /** The documented rule, computed independently with node:crypto. */
  const byRule = (key: string) =>
    [...createHash('sha256').update(key, 'utf8').digest().subarray(0, 16)]
      .map((b) => ALPHABET[b % 62])
      .join('');

  it('follows the documented rule', () => {
    expect(deriveIv('abcdefghijklmnopqrstuvwxyzABCDEF')).toBe(byRule('abcdefghijklmnopqrstuvwxyzABCDEF'));
    for (let i = 0; i < 50; i++) {
      const key = randomKey();
      expect(deriveIv(key)).toBe(byRule(key));
    }
  });

  it('is deterministic, 16 alphabet characters, and differs between keys', () => {
    fc.assert(
      fc.property(fc.string(), (key) => {
        const iv = deriveIv(key);
        expect(iv).toBe(deriveIv(key));
        expect(iv).toMatch(/^[A-Za-z0-9]{16}$/);
      }),
    );
    const ivs = new Set(Array.from({ length: 500 }, () => deriveIv(randomKey())));
    expect(ivs.size).toBe(500);
  });

  it('has a fixed value for a fixed key (guards the README rule)', () => {
    // SHA-256 starts cf d2 f1 fa …: 0xcf = 207, 207 mod 62 = 21 → 'V'; 0xd2 = 210 → 24 → 'Y'; …
    expect(deriveIv('abcdefghijklmnopqrstuvwxyzABCDEF')).toBe('VY3CdcZ6gKGKHh0T');
  });
});
