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
import type { EncryptCommand, EncryptReport } from './encrypt-worker';
import { sendSealed, type UploadCipher } from './send-sealed';

/** How long a cancelled worker gets to abort its fetch before it is terminated (which does too). */
const CANCEL_GRACE_MS = 2000;

/** The page's UploadError for a failure the worker reported by its kind. */
function failure(kind: UploadErrorKind, detail: string, signal: AbortSignal | undefined): UploadError {
  const cause = new Error(detail);
  if (kind === 'aborted') return abortedError(signal?.reason ?? cause);
  if (kind === 'timeout') return timeoutError();
  if (kind === 'stream-refused') return streamRefusedError(cause);
  // The stream transport throws no other kind; anything else broke the connection.
  return networkError(cause);
}

function startWorker(): Worker | undefined {
  if (typeof Worker === 'undefined') return undefined;
  try {
    return new Worker(new URL('./encrypt-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    return undefined;
  }
}

/**
 * Resolves with the server's answer, or 'no-worker' when the worker never ran (not bundled,
 * refused by CSP): nothing was sent then.
 */
function sendInWorker(
  worker: Worker,
  file: Blob,
  cipher: UploadCipher,
  framed: FramedBody,
  { onProgress, signal, timeoutMs }: TransportOptions,
): Promise<TransportResponse | 'no-worker'> {
  return new Promise((resolve, reject) => {
    let heard = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const finish = (settle: () => void) => {
      clearTimeout(graceTimer);
      signal?.removeEventListener('abort', onAbort);
      worker.onmessage = null;
      worker.onerror = null;
      // Ends the worker's fetch too, if it still runs.
      worker.terminate();
      settle();
    };
    const onAbort = () => {
      worker.postMessage({ type: 'cancel' } satisfies EncryptCommand);
      graceTimer = setTimeout(() => finish(() => reject(abortedError(signal?.reason))), CANCEL_GRACE_MS);
    };
    worker.onmessage = (event: MessageEvent<EncryptReport>) => {
      heard = true;
      const report = event.data;
      if (report.type === 'progress') {
        if (!signal?.aborted) onProgress?.(report.done, report.total);
      } else if (report.type === 'answered') finish(() => resolve(report.response));
      else if (report.type === 'send-failed')
        finish(() => reject(failure(report.kind, report.detail, signal)));
      else if (report.type === 'error') finish(() => reject(networkError(new Error(report.message))));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      // Before its first message the worker never ran; after it, bytes may have reached the
      // server, so this is a broken connection, never a refusal that would send the file again.
      if (!heard) finish(() => resolve('no-worker'));
      else finish(() => reject(networkError(new Error(event.message))));
    };
    if (signal?.aborted) {
      finish(() => reject(abortedError(signal.reason)));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({ type: 'send', file, cipher, framed, timeoutMs } satisfies EncryptCommand);
  });
}

/** The transport for `file` encrypted with `cipher`: it takes a FramedBody and makes the bytes. */
export function workerStreamTransport(file: Blob, cipher: UploadCipher): Transport {
  return async (req, options) => {
    if (!('request' in req.body)) throw new TypeError('workerStreamTransport takes a FramedBody.');
    const framed = req.body;
    const worker = startWorker();
    const answer = worker ? await sendInWorker(worker, file, cipher, framed, options) : 'no-worker';
    return answer === 'no-worker' ? sendSealed(file, cipher, framed, options) : answer;
  };
}
