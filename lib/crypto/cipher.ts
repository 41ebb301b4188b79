/**
 * Teknik's file cipher: AES in CTR mode over the whole file, no padding, no header. The key
 * size follows the key's byte length (32 bytes → AES-256); counter block 0 is the 16 IV bytes
 * and each next block adds one to the full 128-bit big-endian number.
 */
import { textBytes } from './text';

/** A key or IV as text (the cipher uses its UTF-8 bytes) or as raw bytes. */
export type KeyMaterial = string | Uint8Array;

export const BLOCK_BYTES = 16;

export interface CtrCipher {
  /**
   * Encrypts `data` as the bytes found at byte `offset` of the file. CTR is its own inverse, so
   * this decrypts too. The result never depends on how the file is cut into chunks.
   */
  cryptAt(data: Uint8Array, offset: number): Promise<Uint8Array>;
}

function materialBytes(material: KeyMaterial): Uint8Array {
  return typeof material === 'string' ? textBytes(material) : material;
}

/** Counter block for block number `block`: IV + block, modulo 2^128, big-endian. */
export function counterBlock(iv: Uint8Array, block: number): Uint8Array<ArrayBuffer> {
  if (!Number.isSafeInteger(block) || block < 0) throw new RangeError(`Invalid block number: ${block}`);
  const out = new Uint8Array(BLOCK_BYTES);
  let carry = block;
  for (let i = BLOCK_BYTES - 1; i >= 0; i--) {
    const sum = iv[i]! + (carry % 256);
    out[i] = sum & 0xff;
    carry = Math.floor(carry / 256) + (sum >> 8);
  }
  return out;
}

export async function createCipher(
  key: KeyMaterial,
  iv: KeyMaterial,
  subtle: SubtleCrypto = globalThis.crypto.subtle,
): Promise<CtrCipher> {
  const keyBytes = materialBytes(key);
  const ivBytes = Uint8Array.from(materialBytes(iv));
  if (![16, 24, 32].includes(keyBytes.length)) {
    throw new RangeError(`An AES key must be 16, 24 or 32 bytes long, not ${keyBytes.length}.`);
  }
  if (ivBytes.length !== BLOCK_BYTES) {
    throw new RangeError(`An IV must be ${BLOCK_BYTES} bytes long, not ${ivBytes.length}.`);
  }
  const cryptoKey = await subtle.importKey('raw', Uint8Array.from(keyBytes), 'AES-CTR', false, ['encrypt']);

  return {
    async cryptAt(data, offset) {
      if (!Number.isSafeInteger(offset) || offset < 0) throw new RangeError(`Invalid byte offset: ${offset}`);
      if (data.length === 0) return new Uint8Array(0);
      // An offset inside a block starts the keystream at that block and drops the bytes before
      // the offset, so the output is the same whatever the chunk boundaries.
      const skip = offset % BLOCK_BYTES;
      let input = data as Uint8Array<ArrayBuffer>;
      if (skip > 0) {
        input = new Uint8Array(skip + data.length);
        input.set(data, skip);
      }
      const counter = counterBlock(ivBytes, Math.floor(offset / BLOCK_BYTES));
      // length 128: the whole block is the counter, as on the Teknik server.
      const output = await subtle.encrypt({ name: 'AES-CTR', counter, length: 128 }, cryptoKey, input);
      return new Uint8Array(output, skip);
    },
  };
}

/** Encrypts a whole buffer held in memory (small data; use cryptBlob for files). */
export async function encryptBytes(
  key: KeyMaterial,
  iv: KeyMaterial,
  data: Uint8Array,
  subtle?: SubtleCrypto,
): Promise<Uint8Array> {
  return (await createCipher(key, iv, subtle)).cryptAt(data, 0);
}

/** Same operation as encryptBytes: in CTR mode decryption is encryption. */
export const decryptBytes = encryptBytes;
