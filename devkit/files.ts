// Large files for tests and the bench: pseudo-random bytes written to disk a mebibyte at a time.
import { createCipheriv, createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

/**
 * Writes `size` pseudo-random bytes to `path` (the AES-CTR keystream of a key made from `seed`:
 * fast, incompressible, the same for the same seed) and returns their SHA-256. Never holds more
 * than a mebibyte.
 */
export async function writeRandomFile(path: string, size: number, seed = path): Promise<string> {
  const stream = createCipheriv('aes-128-ctr', createHash('md5').update(seed).digest(), Buffer.alloc(16));
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
