// The stream way (lib/upload/plan.ts): to an https server, where the browser takes request streams,
// the file is encrypted as the network takes it: no copy on disk, a few MiB in memory. The send worker
// encrypts and makes the fetch (encrypt-worker-send.ts says why there); this side words its failures,
// as the worker has no messages, and where no worker starts the same sending runs on this thread. A
// server that cannot take a stream (HTTP/1.1) refuses it before anything is stored: the way declines,
// and the plan's next way sends the file from offset 0.
import { type FileCipher, sealedSize } from '../../lib/crypto/file-cipher';
import { sendSealed, sendUpload, UploadError } from '../../lib/upload';
import {
  abortedError,
  networkError,
  streamRefusedError,
  timeoutError,
  type UploadErrorKind,
} from '../../lib/upload/errors';
import { Declined, type Sent, type UploadWay, type WayJob } from '../../lib/upload/plan';
import type { FramedBody, Transport, TransportOptions, TransportResponse } from '../../lib/upload/types';
import { workerSession } from './encrypt-worker-session';

/** The page's UploadError for a failure the worker reported by its kind. */
function failure(kind: UploadErrorKind, detail: string, signal: AbortSignal | undefined): UploadError {
  const cause = new Error(detail);
  if (kind === 'aborted') return abortedError(signal?.reason ?? cause);
  if (kind === 'timeout') return timeoutError();
  if (kind === 'stream-refused') return streamRefusedError(cause);
  // The stream transport throws no other kind; anything else broke the connection.
  return networkError(cause);
}

/** The server's answer, or Declined('no worker') when the worker never ran: nothing was sent then. */
function sendInWorker(
  file: Blob,
  cipher: FileCipher,
  framed: FramedBody,
  { onProgress, signal, timeoutMs }: TransportOptions,
): Promise<TransportResponse | Declined> {
  return workerSession<'send', TransportResponse>(
    'send',
    { type: 'send', file, cipher, framed, timeoutMs },
    signal,
    {
      report(report) {
        if (report.type === 'progress') {
          if (!signal?.aborted) onProgress?.(report.done, report.total);
          return undefined;
        }
        if (report.type === 'answered') return { value: report.response };
        if (report.type === 'send-failed') return { error: failure(report.kind, report.detail, signal) };
        return undefined;
      },
      // After its first message bytes may have reached the server: a broken connection, never a
      // refusal that would send the file again.
      failed: (message) => networkError(new Error(message)),
      aborted: () => abortedError(signal?.reason),
    },
  );
}

/** The transport for `file` encrypted with `cipher`: it takes a FramedBody and makes the bytes. */
function workerStreamTransport(file: Blob, cipher: FileCipher): Transport {
  return async (req, options) => {
    if (!('request' in req.body)) throw new TypeError('workerStreamTransport takes a FramedBody.');
    const framed = req.body;
    const answer = await sendInWorker(file, cipher, framed, options);
    return answer instanceof Declined ? sendSealed(file, cipher, framed, options) : answer;
  };
}

async function sendStreamed(job: WayJob): Promise<Sent | Declined> {
  const { file, cipher, request, onProgress } = job;
  if (!cipher) throw new TypeError('The stream way sends encrypted files only.');
  const started = performance.now();
  try {
    const result = await sendUpload({
      ...request,
      body: { madeByTransport: sealedSize(cipher, file.size) },
      transport: workerStreamTransport(file, cipher),
      onProgress: (done, total) => onProgress({ phases: ['uploading'], phase: 'uploading', done, total }),
    });
    return { result, measured: { way: 'stream', sendMs: performance.now() - started } };
  } catch (err) {
    if (err instanceof UploadError && err.kind === 'stream-refused')
      return new Declined('stream refused', String(err.cause ?? err.message));
    throw err;
  }
}

export const streamWay: UploadWay = { send: sendStreamed };
