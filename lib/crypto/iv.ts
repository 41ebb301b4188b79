import { sha256 } from '@noble/hashes/sha2.js';
import { ALPHABET, IV_LENGTH, textBytes } from './text';

/**
 * The IV that goes with a key, so that a link carrying only the key (`url#key`) is enough to
 * decrypt.
 *
 * Rule: take SHA-256 of the key's UTF-8 bytes; for i = 0..15, IV character i is
 * ALPHABET[hash[i] mod 62], where
 * ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
 * (A–Z, then a–z, then 0–9). The IV is that 16-character text; the cipher uses its UTF-8 bytes.
 *
 * The slight modulo bias is harmless here: CTR needs each (key, counter) pair to be used once,
 * and every upload has a fresh random key, so the IV only needs to be a fixed function of it.
 */
export function deriveIv(key: string): string {
  const hash = sha256(textBytes(key));
  let iv = '';
  for (let i = 0; i < IV_LENGTH; i++) iv += ALPHABET[hash[i]! % ALPHABET.length];
  return iv;
}
