// The stream transport as the page uses it: the encrypt worker encrypts the file and makes the
// streamed fetch (send-sealed.ts says why), and this side words its failures, as the worker has no
// messages. Where no worker starts, the same sending runs on this thread.
import {
  abortedError,
  networkError,
  streamRefusedError,
  timeoutError,
  type UploadError,
  type UploadErrorKind,
} from '../../lib/upload/errors';
import type { FramedBody, Transport, TransportOptions, TransportResponse } from '../../lib/upload/types';
import { sendSealed, type UploadCipher } from './send-sealed';
import { encryptWorkerSession } from './worker-session';

/** The page's UploadError for a failure the worker reported by its kind. */
function failure(kind: UploadErrorKind, detail: string, signal: AbortSignal | undefined): UploadError {
  const cause = new Error(detail);
  if (kind === 'aborted') return abortedError(signal?.reason ?? cause);
  if (kind === 'timeout') return timeoutError();
  if (kind === 'stream-refused') return streamRefusedError(cause);
  // The stream transport throws no other kind; anything else broke the connection.
  return networkError(cause);
}

/** The server's answer, or 'no-worker' when the worker never ran: nothing was sent then. */
function sendInWorker(
  file: Blob,
  cipher: UploadCipher,
  framed: FramedBody,
  { onProgress, signal, timeoutMs }: TransportOptions,
): Promise<TransportResponse | 'no-worker'> {
  return encryptWorkerSession<TransportResponse>({ type: 'send', file, cipher, framed, timeoutMs }, signal, {
    report(report) {
      if (report.type === 'progress') {
        if (!signal?.aborted) onProgress?.(report.done, report.total);
        return undefined;
      }
      if (report.type === 'answered') return { value: report.response };
      if (report.type === 'send-failed') return { error: failure(report.kind, report.detail, signal) };
      if (report.type === 'error') return { error: networkError(new Error(report.message)) };
      return undefined;
    },
    // Before its first message the worker never ran; after it, bytes may have reached the server,
    // so this is a broken connection, never a refusal that would send the file again.
    failed: (heard, message) =>
      heard ? { error: networkError(new Error(message)) } : { value: 'no-worker' },
    aborted: () => abortedError(signal?.reason),
  });
}

/** The transport for `file` encrypted with `cipher`: it takes a FramedBody and makes the bytes. */
export function workerStreamTransport(file: Blob, cipher: UploadCipher): Transport {
  return async (req, options) => {
    if (!('request' in req.body)) throw new TypeError('workerStreamTransport takes a FramedBody.');
    const framed = req.body;
    const answer = await sendInWorker(file, cipher, framed, options);
    return answer === 'no-worker' ? sendSealed(file, cipher, framed, options) : answer;
  };
}
