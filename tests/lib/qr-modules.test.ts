// QR codes for the texts Hushdrop hands to phones (lib/qr-modules.ts): drawn while a QR code can
// hold the text, a plain `too-long` past the largest one, never an exception that stops a page.
import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { qrModules } from '../../lib/qr-modules';

/** The longest text of one repeated character that uqr still encodes (found by bisection). */
function longestEncodable(char: string): number {
  let fits = 1;
  let fails = 10_000;
  while (fails - fits > 1) {
    const mid = (fits + fails) >> 1;
    try {
      encode(char.repeat(mid), { ecc: 'M', border: 4 });
      fits = mid;
    } catch {
      fails = mid;
    }
  }
  return fits;
}

describe('qrModules', () => {
  it('draws a short link: one square per dark module, inside the quiet zone', () => {
    const qr = qrModules('bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0015');
    expect(qr.kind).toBe('drawn');
    if (qr.kind !== 'drawn') return;
    const { data, size } = encode('bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.0015', {
      ecc: 'M',
      border: 4,
    });
    expect(qr.size).toBe(size);
    const dark = data.flat().filter(Boolean).length;
    expect(qr.path.match(/M\d+ \d+h1v1h-1z/g)).toHaveLength(dark);
    // The 4-module quiet zone stays white.
    expect(qr.path).not.toMatch(/M[0-3] |M\d+ [0-3]h/);
  });

  it('draws the longest text a QR code holds, and says too-long one byte past it', () => {
    // A bitcoin: link with a long message: byte mode, the case that broke the payment page.
    const limit = longestEncodable('a');
    expect(limit).toBeGreaterThan(2000);
    expect(qrModules('a'.repeat(limit)).kind).toBe('drawn');
    expect(qrModules('a'.repeat(limit + 1))).toEqual({ kind: 'too-long' });
  });

  it('says too-long for a wallet link far past the limit, where uqr itself throws', () => {
    const uri = `bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?message=${'Order%20'.repeat(400)}`;
    expect(() => encode(uri, { ecc: 'M', border: 4 })).toThrow();
    expect(qrModules(uri)).toEqual({ kind: 'too-long' });
  });
});
