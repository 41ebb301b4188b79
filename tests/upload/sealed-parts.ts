// An upload in parts of bytes sealed in the authenticated format as they are read, as the server's
// upload page sends a file (its parts cut from the sealed stream), through fetch: for the runner's tests.
import { type FileCipher, newFileCipher, sealedSize, sealedStream } from '../../lib/crypto/file-cipher';
import { uploadInParts } from '../../lib/upload/parts-runner';
import { streamParts } from '../../lib/upload/stream-parts';
import type { UploadOptions, UploadTarget } from '../../lib/upload/types';
import { fetchExchange } from './fetch-exchange';

export const ECE: UploadOptions = { mode: 'client', format: 'ece', saveKey: false, genDeletionKey: true };
export const FILE = { name: 'Bericht März.pdf', type: 'application/pdf' };

export function sealedPartsUpload(
  target: UploadTarget,
  plain: Uint8Array<ArrayBuffer>,
  more: Partial<Parameters<typeof uploadInParts<Uint8Array<ArrayBuffer>>>[0]> = {},
  cipher: FileCipher = newFileCipher('ece'),
) {
  const blob = new Blob([plain]);
  return uploadInParts({
    target,
    options: ECE,
    file: FILE,
    total: sealedSize(cipher, blob.size),
    exchange: fetchExchange,
    open: (session, stop) => streamParts(sealedStream(blob, cipher), session, stop),
    ...more,
  });
}
