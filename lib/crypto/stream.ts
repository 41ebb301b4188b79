import { type CtrCipher, createCipher, type KeyMaterial } from './cipher';

export const DEFAULT_CHUNK_BYTES = 1024 * 1024;

/** Receives each processed chunk and where it starts in the file; awaited before the next read. */
export type ChunkSink = (chunk: Uint8Array, offset: number) => Promise<void> | void;

export interface CryptBlobOptions {
  /** Bytes read per slice (default 1 MiB). Any size gives the same output. */
  chunkSize?: number;
  signal?: AbortSignal;
  /** Called after each chunk has been handed to the sink. */
  onProgress?: (done: number, total: number) => void;
  subtle?: SubtleCrypto;
}

/**
 * Encrypts (or decrypts) a Blob slice by slice and hands each result to `sink`. Only one chunk
 * is held at a time, so a disk-backed Blob of any size stays out of memory. Resolves with the
 * number of bytes processed; rejects with the signal's reason when aborted.
 */
export async function cryptBlob(
  blob: Blob,
  cipher: CtrCipher | { key: KeyMaterial; iv: KeyMaterial },
  sink: ChunkSink,
  options: CryptBlobOptions = {},
): Promise<number> {
  const { chunkSize = DEFAULT_CHUNK_BYTES, signal, onProgress } = options;
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1)
    throw new RangeError(`Invalid chunk size: ${chunkSize}`);
  const ctr = 'cryptAt' in cipher ? cipher : await createCipher(cipher.key, cipher.iv, options.subtle);
  const total = blob.size;
  for (let offset = 0; offset < total; ) {
    signal?.throwIfAborted();
    const end = Math.min(offset + chunkSize, total);
    const plain = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    signal?.throwIfAborted();
    await sink(await ctr.cryptAt(plain, offset), offset);
    offset = end;
    onProgress?.(offset, total);
  }
  signal?.throwIfAborted();
  return total;
}

/** cryptBlob, named for the direction at the call site. */
export const encryptBlob = cryptBlob;
/** cryptBlob, named for the direction at the call site. */
export const decryptBlob = cryptBlob;
