/**
 * Key and IV text: Teknik keys and IVs are plain strings of ASCII letters and digits, and the
 * cipher uses their UTF-8 bytes (no hex, no base64, no KDF).
 */

/** The 62 characters keys and IVs are made of, in this order (deriveIv depends on the order). */
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Characters in a key: 32 UTF-8 bytes, so AES-256. */
export const KEY_LENGTH = 32;
/** Characters in an IV: 16 UTF-8 bytes, one AES block. */
export const IV_LENGTH = 16;

/** Fills the array with random bytes, like `crypto.getRandomValues`. */
export type RandomSource = (bytes: Uint8Array) => unknown;

const defaultRandom: RandomSource = (bytes) => globalThis.crypto.getRandomValues(bytes);

// 248 = 4 × 62 is the largest multiple of 62 that fits in a byte; bytes at or above it are
// dropped so that every character is drawn from exactly four byte values (no modulo bias).
const ACCEPT_BELOW = 256 - (256 % ALPHABET.length);

/** `length` characters from ALPHABET, uniformly distributed. */
export function randomText(length: number, random: RandomSource = defaultRandom): string {
  if (!Number.isSafeInteger(length) || length < 0) throw new RangeError(`Invalid text length: ${length}`);
  let out = '';
  // A few spare bytes per draw, since about 3% of bytes are rejected; getRandomValues refuses
  // more than 65,536 bytes at once.
  const pool = new Uint8Array(Math.min(length + 8, 4096));
  while (out.length < length) {
    random(pool);
    for (const byte of pool) {
      if (byte >= ACCEPT_BELOW) continue;
      out += ALPHABET[byte % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A fresh 32-character key. */
export function randomKey(random?: RandomSource): string {
  return randomText(KEY_LENGTH, random);
}

/** A fresh 16-character IV. */
export function randomIv(random?: RandomSource): string {
  return randomText(IV_LENGTH, random);
}

const ALPHABET_ONLY = /^[A-Za-z0-9]*$/;

/** True when every character of `text` is in ALPHABET. */
export function isAlphabetText(text: string): boolean {
  return ALPHABET_ONLY.test(text);
}

const utf8 = new TextEncoder();

/** The bytes the cipher uses for a key or IV text. */
export function textBytes(text: string): Uint8Array {
  return utf8.encode(text);
}
