// The encrypt worker that sends (the stream way, in Chromium): it encrypts the file into a streamed
// fetch that it makes itself (lib/upload/transport.ts sendSealed). Why here: Chromium feeds a fetch's
// ReadableStream body into the network through a 64 KiB pipe, refilled by the thread that made the
// fetch (BytesUploader); made in this worker, encryption and that refilling go on while the page's
// thread renders or is busy.
//
// Protocol: the page sends one `send`, then maybe `cancel` (which aborts the fetch); the worker answers
// `sending` at once, then `progress` in bytes the network took, and ends with `answered` (the server's
// answer, which the page reads) or `send-failed` (the UploadError's kind: the page words it, as this
// worker has no messages).
import type { FileCipher } from '../../lib/crypto/file-cipher';
import { UploadError, type UploadErrorKind } from '../../lib/upload/errors';
import { sendSealed } from '../../lib/upload/transport';
import type { FramedBody, TransportResponse } from '../../lib/upload/types';

export interface SendCommand {
  type: 'send';
  file: Blob;
  cipher: FileCipher;
  framed: FramedBody;
  timeoutMs?: number;
}

export type SendReport =
  | { type: 'sending' }
  | { type: 'progress'; done: number; total: number }
  | { type: 'answered'; response: TransportResponse }
  | { type: 'send-failed'; kind: UploadErrorKind; detail: string };

/** Least time between two progress reports, so the page is not flooded. */
const REPORT_EVERY_MS = 50;

const scope = globalThis as unknown as {
  postMessage(message: SendReport): void;
  onmessage: ((event: MessageEvent<SendCommand | { type: 'cancel' }>) => void) | null;
};

const sendAbort = new AbortController();

async function send(job: SendCommand): Promise<SendReport> {
  scope.postMessage({ type: 'sending' });
  let reported = 0;
  try {
    const response = await sendSealed(job.file, job.cipher, job.framed, {
      signal: sendAbort.signal,
      timeoutMs: job.timeoutMs,
      onProgress: (done, total) => {
        const now = Date.now();
        if (now - reported < REPORT_EVERY_MS && done !== total) return;
        reported = now;
        scope.postMessage({ type: 'progress', done, total });
      },
    });
    return { type: 'answered', response };
  } catch (err) {
    // The transport turns every failure into an UploadError; anything else broke the connection.
    const kind = err instanceof UploadError ? err.kind : 'network';
    const cause = err instanceof UploadError && err.cause !== undefined ? err.cause : err;
    return { type: 'send-failed', kind, detail: String(cause) };
  }
}

let started = false;
scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === 'cancel') sendAbort.abort();
  else if (!started) {
    started = true;
    void send(command).then((report) => scope.postMessage(report));
  }
};
