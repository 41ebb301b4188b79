import { createCipheriv, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { counterBlock, createCipher, encryptBytes, randomIv, randomKey, textBytes } from '../../lib/crypto';

/** Node's OpenSSL aes-256-ctr, which counts over the full 128 bits. */
function nodeCtr(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const cipher = createCipheriv('aes-256-ctr', key, iv);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}

describe('AES-256-CTR against node:crypto', () => {
  it('agrees on random data of random lengths with random key and IV texts', async () => {
    for (let round = 0; round < 40; round++) {
      const key = randomKey();
      const iv = randomIv();
      const length = round < 5 ? round : Math.floor(Math.random() * 70_000);
      const plain = randomBytes(length);
      const ours = await encryptBytes(key, iv, plain);
      expect(ours.length).toBe(length);
      expect(Buffer.from(ours).equals(Buffer.from(nodeCtr(textBytes(key), textBytes(iv), plain)))).toBe(true);
    }
  });

  it('keeps the ciphertext as long as the plaintext (no header, no padding)', async () => {
    for (const length of [0, 1, 15, 16, 17, 31, 32, 33]) {
      expect((await encryptBytes(randomKey(), randomIv(), new Uint8Array(length))).length).toBe(length);
    }
  });

  it('rejects keys and IVs of the wrong byte length', async () => {
    await expect(createCipher('short', randomIv())).rejects.toThrow(RangeError);
    await expect(createCipher(randomKey(), 'abc')).rejects.toThrow(RangeError);
    // 16 characters but 17 UTF-8 bytes.
    await expect(createCipher(randomKey(), 'é234567890123456')).rejects.toThrow(RangeError);
  });
});

describe('chunked encryption', () => {
  it('never depends on the chunk size, aligned or not (property)', async () => {
    const key = randomKey();
    const iv = randomIv();
    const cipher = await createCipher(key, iv);
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 0, maxLength: 600 }),
        fc.array(fc.integer({ min: 1, max: 97 }), { minLength: 1, maxLength: 12 }),
        async (plain, sizes) => {
          const whole = await cipher.cryptAt(plain, 0);
          const parts: Uint8Array[] = [];
          // Cycle through the drawn sizes, so boundaries land at every alignment.
          for (let at = 0, i = 0; at < plain.length; i++) {
            const size = sizes[i % sizes.length]!;
            parts.push(await cipher.cryptAt(plain.subarray(at, at + size), at));
            at += size;
          }
          expect(Buffer.concat(parts).equals(Buffer.from(whole))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('encrypts any slice at any offset like the whole file does (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 300 }),
        fc.nat(),
        fc.nat(),
        async (plain, a, b) => {
          const start = a % plain.length;
          const end = start + (b % (plain.length - start + 1));
          const cipher = await createCipher(randomKey(), randomIv());
          const whole = await cipher.cryptAt(plain, 0);
          const slice = await cipher.cryptAt(plain.subarray(start, end), start);
          expect(Buffer.from(slice).equals(Buffer.from(whole.subarray(start, end)))).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('rejects negative or fractional offsets', async () => {
    const cipher = await createCipher(randomKey(), randomIv());
    await expect(cipher.cryptAt(new Uint8Array(4), -1)).rejects.toThrow(RangeError);
    await expect(cipher.cryptAt(new Uint8Array(4), 1.5)).rejects.toThrow(RangeError);
  });
});

describe('counter carry over the full 128 bits', () => {
  const key = Buffer.from(randomKey());
  // IVs a few blocks below 2^32, 2^64, 2^96 and 2^128 (these need not be alphanumeric).
  const boundaries: Array<[string, string]> = [
    ['2^32', '000102030405060708090a0bfffffffd'],
    ['2^64', '0001020304050607fffffffffffffffd'],
    ['2^96', '00010203fffffffffffffffffffffffd'],
    ['2^128', 'fffffffffffffffffffffffffffffffd'],
  ];

  for (const [name, ivHex] of boundaries) {
    it(`carries across the ${name} block boundary like node:crypto`, async () => {
      const iv = Buffer.from(ivHex, 'hex');
      const plain = randomBytes(16 * 8 + 5);
      const reference = nodeCtr(key, iv, plain);
      const cipher = await createCipher(key, iv);
      expect(Buffer.from(await cipher.cryptAt(plain, 0)).equals(Buffer.from(reference))).toBe(true);
      // Start past the boundary, and at an unaligned offset just before it.
      for (const at of [16 * 4, 16 * 2 + 9, 16 * 3 - 1]) {
        const part = await cipher.cryptAt(plain.subarray(at), at);
        expect(Buffer.from(part).equals(Buffer.from(reference.subarray(at)))).toBe(true);
      }
    });
  }

  it('adds large block numbers with carry', () => {
    const iv = Buffer.from('00000000000000000000000000ffffff', 'hex');
    expect(Buffer.from(counterBlock(iv, 1)).toString('hex')).toBe('00000000000000000000000001000000');
    expect(Buffer.from(counterBlock(iv, 2 ** 40)).toString('hex')).toBe('00000000000000000000010000ffffff');
    const top = Buffer.alloc(16, 0xff);
    expect(Buffer.from(counterBlock(top, 1)).toString('hex')).toBe('0'.repeat(32));
    const big = (0xffffffn + BigInt(Number.MAX_SAFE_INTEGER)).toString(16).padStart(32, '0');
    expect(Buffer.from(counterBlock(iv, Number.MAX_SAFE_INTEGER)).toString('hex')).toBe(big);
  });
});
