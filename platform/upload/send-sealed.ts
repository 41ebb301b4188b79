// A streamed client-mode upload's body and its sending, as the encrypt worker runs them (and the
// page, where no worker starts). Chromium feeds a fetch's ReadableStream body into the network
// through a 64 KiB pipe, refilled by the thread that made the fetch (BytesUploader): made in the
// worker, encryption and that refilling go on while the page's thread renders or is busy.
import { createCipher } from '../../lib/crypto/cipher';
import { eceEncryptStream } from '../../lib/crypto/ece-stream';
import { cryptStream } from '../../lib/crypto/stream';
import { multipartStream } from '../../lib/upload/multipart';
import { streamTransport } from '../../lib/upload/transport';
import type { FramedBody, TransportOptions, TransportResponse } from '../../lib/upload/types';

/** How to encrypt: Teknik's key and IV, or the authenticated format's secret. */
export type UploadCipher =
  | { format: 'teknik'; key: string; iv: string }
  | { format: 'ece'; secret: Uint8Array };

/** The file's ciphertext, made as it is read. */
export async function sealedStream(file: Blob, cipher: UploadCipher): Promise<ReadableStream<Uint8Array>> {
  return cipher.format === 'ece'
    ? eceEncryptStream(file.stream(), cipher.secret)
    : cryptStream(file.stream(), await createCipher(cipher.key, cipher.iv));
}

/** Sends the upload's form with `file` encrypted into its file part, over a streamed fetch. */
export async function sendSealed(
  file: Blob,
  cipher: UploadCipher,
  framed: FramedBody,
  options: TransportOptions,
): Promise<TransportResponse> {
  const { request, boundary, fileSize } = framed;
  const body = multipartStream(request, await sealedStream(file, cipher), fileSize, boundary);
  return streamTransport()({ url: request.url, headers: request.headers, body }, options);
}
