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
// In parts (`parts`, an upload in parts: upload-parts.ts): the same encryption, its ciphertext cut
// at every `partBytes` (wherever the format's records fall) into one OPFS file per part. The page
// hands out each part's file (`part-file`) as it wants the next part written, so it bounds the disk
// used; the worker waits for it, and reports each finished part (`part-done`), then `done`.
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

export interface PartsStart {
  type: 'parts';
  file: Blob;
  cipher: UploadCipher;
  /** Bytes of every part but the last. */
  partBytes: number;
  chunkSize: number;
  freeSpent: boolean;
}

/** The OPFS file (root directory) to write part `index` into; the page made it and holds it. */
export interface PartFile {
  type: 'part-file';
  index: number;
  name: string;
}

export type EncryptCommand = EncryptStart | SendStart | PartsStart | PartFile | { type: 'cancel' };

export type EncryptReport =
  | { type: 'progress'; done: number; total: number }
  | { type: 'sending' }
  | { type: 'answered'; response: TransportResponse }
  | { type: 'send-failed'; kind: UploadErrorKind; detail: string }
  | { type: 'part-done'; index: number; size: number }
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

/** The file's ciphertext in either format, read as the writes take it. */
async function ciphertext(job: EncryptStart | PartsStart): Promise<ReadableStream<Uint8Array>> {
  return job.cipher.format === 'ece'
    ? eceEncryptStream(job.file.stream(), job.cipher.secret, { queueBytes: QUEUE_BYTES })
    : cryptStream(job.file.stream(), await createCipher(job.cipher.key, job.cipher.iv), {
        chunkSize: job.chunkSize,
        queueBytes: QUEUE_BYTES,
      });
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
    const reader = (await ciphertext(job)).getReader();
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

/** Part files the page has handed out, by index, and whoever waits for the next. */
const partFiles = new Map<number, string>();
let partFileCame: (() => void) | undefined;

/** Waits until the page hands out part `index`'s file; undefined when cancelled first. */
async function partFile(index: number): Promise<string | undefined> {
  for (;;) {
    if (cancelled) return undefined;
    const name = partFiles.get(index);
    if (name !== undefined) return name;
    await new Promise<void>((came) => {
      partFileCame = came;
    });
  }
}

async function encryptParts(job: PartsStart): Promise<EncryptReport> {
  const total = job.cipher.format === 'ece' ? eceCiphertextSize(job.file.size) : job.file.size;
  const parts = Math.max(1, Math.ceil(total / job.partBytes));
  const sizeOf = (index: number) => (index < parts - 1 ? job.partBytes : total - job.partBytes * (parts - 1));
  let index = 0;
  let inPart = 0;
  let written = 0;
  let access: SyncAccessHandle | undefined;
  const reader = (await ciphertext(job)).getReader();
  try {
    for (;;) {
      if (cancelled) return { type: 'cancelled' };
      const { value: cipherText, done } = await reader.read();
      if (done) break;
      let at = 0;
      while (at < cipherText.length) {
        if (!access) {
          if (index >= parts) throw new Error(`The ciphertext runs past its ${total} bytes.`);
          const name = await partFile(index);
          if (name === undefined) return { type: 'cancelled' };
          const opened = await openTarget(name);
          // Only the first part can fall back (nothing was written yet); later, a lost handle fails.
          if (typeof opened === 'string') {
            if (index === 0) return { type: 'unsupported', reason: opened };
            throw new Error(opened);
          }
          access = opened;
          access.truncate(sizeOf(index));
        }
        const take = Math.min(cipherText.length - at, sizeOf(index) - inPart);
        const slice = cipherText.subarray(at, at + take) as Uint8Array<ArrayBuffer>;
        const count = access.write(slice, { at: inPart });
        if (count !== take) throw new Error(`Only ${count} of ${take} bytes were written (disk full?).`);
        at += take;
        inPart += take;
        written += take;
        if (inPart === sizeOf(index)) {
          // Closed before the page reads it: a sync access handle keeps the file from others.
          access.close();
          access = undefined;
          scope.postMessage({ type: 'part-done', index, size: inPart });
          index++;
          inPart = 0;
        }
      }
      if (job.freeSpent) freeBuffer(cipherText);
    }
  } finally {
    access?.close();
    await reader.cancel().catch(() => {});
  }
  if (written !== total || index !== parts)
    throw new Error(`The encrypted parts hold ${written} bytes in ${index} parts, not ${total} in ${parts}.`);
  return { type: 'done', size: written };
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
    partFileCame?.();
    return;
  }
  if (command.type === 'part-file') {
    partFiles.set(command.index, command.name);
    partFileCame?.();
    return;
  }
  if (started) return;
  started = true;
  (command.type === 'send'
    ? send(command)
    : command.type === 'parts'
      ? encryptParts(command)
      : encrypt(command)
  ).then(
    (report) => scope.postMessage(report),
    (err: unknown) =>
      scope.postMessage({
        type: 'error',
        name: err instanceof Error ? err.name : 'Error',
        message: err instanceof Error ? err.message : String(err),
      }),
  );
};
