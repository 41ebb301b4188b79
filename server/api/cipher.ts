// Teknik's cipher (teknik.md §1): AES-CTR over the UTF-8 bytes of the key and IV text, the IV being the
// whole initial 128-bit counter. Node's aes-*-ctr increments the full counter big-endian, as the server did.

import { type Cipher, createCipheriv } from 'node:crypto';

const ALGORITHM_BY_KEY_BYTES: Record<number, string> = {
  16: 'aes-128-ctr',
  24: 'aes-192-ctr',
  32: 'aes-256-ctr',
};

/**
 * Why the server could not use this key/IV, worded like the .NET exceptions the real API reported as
 * `Exception: …` (teknik.md §1 "Failure modes"), or null when usable.
 */
export function cipherProblem(key: string, iv: string): string | null {
  const keyBytes = Buffer.byteLength(key, 'utf8');
  const ivBytes = Buffer.byteLength(iv, 'utf8');
  if (!ALGORITHM_BY_KEY_BYTES[keyBytes]) return 'Specified key is not a valid size for this algorithm.';
  if (ivBytes !== 16) return `Counter size must be same as block size (actual: ${ivBytes}, expected: 16)`;
  return null;
}

/**
 * A CTR keystream transform (encryption and decryption are the same operation) that starts at byte
 * `offset` of the stream, so ranged downloads can be decrypted without reading from the start.
 */
export function ctrTransform(key: string, iv: string, offset = 0): Cipher {
  const problem = cipherProblem(key, iv);
  if (problem) throw new Error(problem);
  const keyBytes = Buffer.from(key, 'utf8');
  const algorithm = ALGORITHM_BY_KEY_BYTES[keyBytes.length]!;
  const block = BigInt(Math.floor(offset / 16));
  const start = (BigInt(`0x${Buffer.from(iv, 'utf8').toString('hex')}`) + block) % (1n << 128n);
  const counter = Buffer.from(start.toString(16).padStart(32, '0'), 'hex');
  const cipher = createCipheriv(algorithm, keyBytes, counter);
  // Skip the part of the first block that lies before `offset`.
  const skip = offset % 16;
  if (skip > 0) cipher.update(Buffer.alloc(skip));
  return cipher;
}
