import { t } from '../i18n';
import { abortedError, atAddress, networkError, UploadError } from './errors';
import { serverAddress } from './links';
import { multipartStream, randomBoundary } from './multipart';
import { buildFormData, buildUploadRequest } from './request';
import { parseUploadResponse } from './response';
import type {
  FileInfo,
  Transport,
  TransportOptions,
  TransportResponse,
  UploadOptions,
  UploadResult,
  UploadTarget,
} from './types';

export interface SendUploadArgs extends TransportOptions {
  target: UploadTarget;
  options: UploadOptions;
  /** The file as chosen: its name goes on the file part, its type into `contentType`. */
  file: FileInfo;
  /**
   * What to send: the file itself, or in client mode its ciphertext (`storedSize` bytes: the same
   * length in the Teknik format); as a Blob (a form, for xhrTransport or fetchTransport) or as a
   * stream of `size` bytes (for streamTransport), or only its size when the transport makes the
   * bytes itself (it gets a FramedBody).
   */
  body: Blob | { stream: ReadableStream<Uint8Array>; size: number } | { madeByTransport: number };
  /** Client mode, Teknik format: the IV the body was encrypted with. */
  iv?: string;
  transport: Transport;
}

/**
 * Sends one upload and reads the answer. Resolves with the result, or rejects with an
 * UploadError whose message can be shown to the person as it is.
 */
export async function sendUpload(args: SendUploadArgs): Promise<UploadResult> {
  const { target, options, file, body, iv, transport, onProgress, signal, timeoutMs } = args;
  const request = buildUploadRequest(target, options, file, iv);
  if (signal?.aborted) throw abortedError(signal.reason);

  let response: Awaited<ReturnType<Transport>>;
  try {
    response = await transport(
      {
        url: request.url,
        headers: request.headers,
        body:
          body instanceof Blob
            ? buildFormData(request, body)
            : 'madeByTransport' in body
              ? { request, boundary: randomBoundary(), fileSize: body.madeByTransport }
              : multipartStream(request, body.stream, body.size, randomBoundary()),
      },
      { onProgress, signal, timeoutMs },
    );
  } catch (error) {
    // A failure to reach the server names the address that did not answer.
    if (error instanceof UploadError) throw atAddress(error, serverAddress(target));
    if (signal?.aborted) throw abortedError(error);
    throw networkError(error, serverAddress(target));
  }

  return readUploadAnswer(target, options, iv, response);
}

/**
 * The result of an upload from the server's answer (one request's, or an upload in parts' last),
 * or the UploadError it amounts to.
 */
export function readUploadAnswer(
  target: UploadTarget,
  options: UploadOptions,
  iv: string | undefined,
  response: TransportResponse,
): UploadResult {
  const result = parseUploadResponse(target.variant, response.status, response.contentType, response.body);
  if (options.mode === 'client' && result.iv !== undefined && result.iv !== iv) {
    // The share link carries only the key; a changed IV would make the file undecryptable.
    throw new UploadError('bad-response', t('uploadIvMismatch'), { status: response.status });
  }
  return result;
}
