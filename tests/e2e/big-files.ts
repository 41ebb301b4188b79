// Large test files on disk, made and checked a mebibyte at a time (never whole in memory).
import { createCipheriv, createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { decipherFor } from './checks';

export const MIB = 1024 * 1024;

/**
 * Writes `size` pseudo-random bytes to `path` (AES-CTR keystream of a key made from the path:
 * fast, incompressible) and returns their SHA-256.
 */
export async function writeRandomFile(path: string, size: number): Promise<string> {
  const stream = createCipheriv('aes-128-ctr', createHash('md5').update(path).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(MIB);
  const hash = createHash('sha256');
  const file = await open(path, 'w');
  try {
    for (let written = 0; written < size; written += MIB) {
      const chunk = stream.update(zeros.subarray(0, Math.min(MIB, size - written)));
      hash.update(chunk);
      await file.write(chunk);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

/** SHA-256 of a stored ciphertext once decrypted with a link's key and its derived IV. */
export async function decryptedHash(path: string, key: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: MIB }), decipherFor(key), hash);
  return hash.digest('hex');
}
