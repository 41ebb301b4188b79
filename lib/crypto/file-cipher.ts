// How one client-mode upload's file is encrypted, and its ciphertext as a stream: the one function
// every way of sending runs on (the copy on disk, the parts, the streamed request), in the encrypt
// workers and, where none starts, in the page.
import { createCipher } from './cipher';
import { ECE_SALT_BYTES, eceCiphertextSize, randomSecret } from './ece';
import { eceEncryptStream } from './ece-stream';
import { deriveIv } from './iv';
import type { LinkFormat } from './link';
import { cryptStream, STREAM_CHUNK_BYTES } from './stream';
import { randomKey } from './text';

/**
 * Teknik's key and IV (the IV derived from the key: README), or the authenticated format's secret and
 * the file's salt. The salt is drawn with the secret, not per stream, so that sealing the same file
 * again gives the same bytes: an upload resumed after a reload (lib/upload/resume-record.ts) sends
 * only the parts the server does not hold, and they must fit the ones it does.
 */
export type FileCipher = { format: 'teknik'; key: string; iv: string } | EceFileCipher;
export type EceFileCipher = { format: 'ece'; secret: Uint8Array; salt: Uint8Array };

/** A fresh cipher for one upload in `format`: never reused for another file. */
export function newFileCipher(format: LinkFormat): FileCipher {
  if (format === 'ece')
    return {
      format,
      secret: randomSecret(),
      salt: globalThis.crypto.getRandomValues(new Uint8Array(ECE_SALT_BYTES)),
    };
  const key = randomKey();
  return { format, key, iv: deriveIv(key) };
}

/** Bytes of a `size`-byte file once sealed: the same in Teknik's format, a header and a tag per record more in the other. */
export function sealedSize(cipher: Pick<FileCipher, 'format'>, size: number): number {
  return cipher.format === 'ece' ? eceCiphertextSize(size) : size;
}

export interface SealedStreamOptions {
  /** Bytes per WebCrypto call in Teknik's format (its records fix the other's). */
  chunkSize?: number;
  /** Ciphertext the stream may hold ahead of its reader. */
  queueBytes?: number;
}

/** The file's ciphertext, made as it is read (a slow reader holds the reading back). */
export async function sealedStream(
  file: Blob,
  cipher: FileCipher,
  { chunkSize = STREAM_CHUNK_BYTES, queueBytes }: SealedStreamOptions = {},
): Promise<ReadableStream<Uint8Array>> {
  return cipher.format === 'ece'
    ? eceEncryptStream(file.stream(), cipher.secret, { salt: cipher.salt, queueBytes })
    : cryptStream(file.stream(), await createCipher(cipher.key, cipher.iv), { chunkSize, queueBytes });
}
