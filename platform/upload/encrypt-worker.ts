// Dedicated worker for one upload, which it either copies to disk or sends.
// Copying (`start`): reads the chosen File through its stream, re-cut to the cipher's
// chunks, encrypts each at its offset (Teknik's AES-256-CTR, or the authenticated format's records)
// and writes it into an OPFS file through a sync access handle, which exists only in dedicated workers. Reading (the browser process), encrypting
// (WebCrypto's threads) and writing (this thread) overlap, and the stream holds the reading back to
// what the writes take (lib/crypto/stream.ts, cryptStream), so only a few MiB are in memory.
//
// Protocol: the page sends one `start`, then maybe `cancel`; the worker answers with `progress`
// reports and ends with exactly one of `done`, `unsupported` (nothing written: the page falls back
// to its own path), `cancelled` or `error`.
// Sending (`send`, the stream transport in Chromium): the worker encrypts into a streamed fetch that
// it makes itself (send-sealed.ts says why here). It answers `sending` at once, then `progress` in
// bytes the network took, and ends with `answered` (the server's answer, which the page reads) or
// `send-failed` (the UploadError's kind; the page words it). `cancel` aborts the fetch.
import { createCipher } from '../../lib/crypto/cipher';
import { eceCiphertextSize } from '../../lib/crypto/ece';
import { eceEncryptStream } from '../../lib/crypto/ece-stream';
import { cryptStream } from '../../lib/crypto/stream';
import { freeBuffer } from '../../lib/free-buffer';
import { UploadError, type UploadErrorKind } from '../../lib/upload/errors';
import type { FramedBody, TransportResponse } from '../../lib/upload/types';
import { sendSealed, type UploadCipher } from './send-sealed';

export type { UploadCipher } from './send-sealed';

export interface EncryptStart {
  type: 'start';
  file: Blob;
  cipher: UploadCipher;
  /** Name of the OPFS file (in the root directory) to write. */
  name: string;
  /** Bytes per WebCrypto call and per write. */
  chunkSize: number;
  /** Detach each ciphertext once written, so its memory goes back at once (lib/free-buffer.ts). */
  freeSpent: boolean;
}

export interface SendStart {
  type: 'send';
  file: Blob;
  cipher: UploadCipher;
  framed: FramedBody;
  timeoutMs?: number;
}

export type EncryptCommand = EncryptStart | SendStart | { type: 'cancel' };

export type EncryptReport =
  | { type: 'progress'; done: number; total: number }
  | { type: 'sending' }
  | { type: 'answered'; response: TransportResponse }
  | { type: 'send-failed'; kind: UploadErrorKind; detail: string }
  | { type: 'done'; size: number }
  | { type: 'unsupported'; reason: string }
  | { type: 'cancelled' }
  | { type: 'error'; name: string; message: string };

// The sync access handle is typed in lib.webworker, which cannot be mixed with lib.dom here.
interface SyncAccessHandle {
  write(data: ArrayBufferView<ArrayBuffer>, options?: { at?: number }): number;
  truncate(size: number): void;
  getSize(): number;
  close(): void;
}
interface SyncCapableHandle {
  createSyncAccessHandle?: () => Promise<SyncAccessHandle>;
}

/**
 * Ciphertext the stream may hold ahead of the writes. The writes are fast (page cache), so a small
 * queue keeps the reads busy without holding much.
 */
const QUEUE_BYTES = 4 * 1024 * 1024;
/** Least time between two progress reports, so the page is not flooded (about 400 slices/s). */
const REPORT_EVERY_MS = 50;

const scope = globalThis as unknown as {
  postMessage(message: EncryptReport): void;
  onmessage: ((event: MessageEvent<EncryptCommand>) => void) | null;
};

let cancelled = false;
let started = false;
/** Aborts the fetch of a `send`. */
const sendAbort = new AbortController();

async function openTarget(name: string): Promise<SyncAccessHandle | string> {
  try {
    const root = await navigator.storage.getDirectory();
    const handle = (await root.getFileHandle(name, { create: true })) as unknown as SyncCapableHandle;
    if (typeof handle.createSyncAccessHandle !== 'function') return 'no createSyncAccessHandle here';
    return await handle.createSyncAccessHandle();
  } catch (err) {
    return `OPFS unavailable in the worker: ${String(err)}`;
  }
}

async function encrypt(job: EncryptStart): Promise<EncryptReport> {
  const access = await openTarget(job.name);
  if (typeof access === 'string') return { type: 'unsupported', reason: access };
  try {
    const ece = job.cipher.format === 'ece';
    const total = ece ? eceCiphertextSize(job.file.size) : job.file.size;
    // Sized once up front, so a lack of space shows before any work and no write has to grow the
    // file (writes alone: 0.5–0.7 s per GiB against 0.7–3.5 s; the whole pipeline, bound by reading
    // and encrypting, was no faster for it).
    access.truncate(total);
    const reader = (
      job.cipher.format === 'ece'
        ? eceEncryptStream(job.file.stream(), job.cipher.secret, { queueBytes: QUEUE_BYTES })
        : cryptStream(job.file.stream(), await createCipher(job.cipher.key, job.cipher.iv), {
            chunkSize: job.chunkSize,
            queueBytes: QUEUE_BYTES,
          })
    ).getReader();
    let reported = 0;
    let written = 0;
    try {
      for (;;) {
        if (cancelled) return { type: 'cancelled' };
        const { value: cipherText, done } = await reader.read();
        if (done) break;
        if (cancelled) return { type: 'cancelled' };
        const count = access.write(cipherText as Uint8Array<ArrayBuffer>, { at: written });
        if (count !== cipherText.length)
          throw new Error(
            `Only ${count} of ${cipherText.length} bytes were written at ${written} (disk full?).`,
          );
        written += count;
        if (job.freeSpent) freeBuffer(cipherText);
        const now = Date.now();
        if (now - reported >= REPORT_EVERY_MS || written === total) {
          reported = now;
          scope.postMessage({ type: 'progress', done: written, total });
        }
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
    // No flush(): it waits for the disk to take the whole copy (about 1–2 s per GiB here), and a
    // temporary copy need not survive a crash (a leftover is swept); what was written is readable.
    const size = access.getSize();
    if (size !== total || written !== total)
      throw new Error(`The encrypted copy has ${written} bytes written and ${size} in all, not ${total}.`);
    return { type: 'done', size };
  } finally {
    access.close();
  }
}

async function send(job: SendStart): Promise<EncryptReport> {
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
    // The transport turns every failure into an UploadError; its sentence is made on the page
    // (this worker has no messages), from the kind.
    const kind = err instanceof UploadError ? err.kind : 'network';
    const cause = err instanceof UploadError && err.cause !== undefined ? err.cause : err;
    return { type: 'send-failed', kind, detail: String(cause) };
  }
}

scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === 'cancel') {
    cancelled = true;
    sendAbort.abort();
    return;
  }
  if (started) return;
  started = true;
  (command.type === 'send' ? send(command) : encrypt(command)).then(
    (report) => scope.postMessage(report),
    (err: unknown) =>
      scope.postMessage({
        type: 'error',
        name: err instanceof Error ? err.name : 'Error',
        message: err instanceof Error ? err.message : String(err),
      }),
  );
};
