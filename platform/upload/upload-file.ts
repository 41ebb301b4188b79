// One upload, run in an extension page or the offscreen document (Chromium) / background page
// (Firefox), then recorded in history. In client mode the file is encrypted, and sent by one of two
// transports (lib/upload/stream-choice.ts decides):
// - stream: to an https server, where the browser takes request streams, the file is encrypted as
//   the network takes it (cryptStream into a fetch body over HTTP/2, both in the encrypt worker):
//   no copy on disk, a few MiB in memory. A server that cannot take it (HTTP/1.1) refuses it before anything is stored; the
//   upload then goes the disk way, from offset 0, and that origin goes the disk way from then on.
// - disk: encrypted into a disk-backed OPFS file, which XHR then sends with progress (in Chromium as
//   a File with a path, which its network process reads straight from disk). The encryption
//   runs in a dedicated worker that writes through a sync access handle (encrypt-worker.ts);
//   where that is unavailable, it runs here and writes through createWritable.
// Where both are possible, what earlier uploads measured chooses, and each encrypted upload that
// worked leaves its own figures (upload-way.ts).
// In parts (upload-parts.ts), before either: a file of MEASURED_FROM_BYTES or more, to a server that
// takes parts (Hushdrop), goes in parts in both browsers, with no stream/disk choice: part k is sent
// while part k+1 is encrypted, at about max(encrypt, send), which met or beat the stream on every
// link measured, and it leaves no figures. A server without parts (404/405 to Start: Teknik, an
// older Hushdrop) gets today's one request, and that origin is not asked again in this document.
// The profile says the format: Teknik's AES-CTR (same length as the file) or the authenticated
// format (header and a tag per 64 KiB record more, lib/crypto/ece-stream.ts); both ways take both.
// Sent as it is (modes none and server), a file the job holds in an OPFS scratch file (staged from
// the popup, right-click or clipboard, or a fetched link) goes as a File with a path too, in Chromium.
import {
  deriveIv,
  eceEncryptStream,
  encryptBlob,
  randomKey,
  randomSecret,
  STREAM_CHUNK_BYTES,
  secretText,
  sha256Hex,
} from '../../lib/crypto';
import { freeBuffer } from '../../lib/free-buffer';
import { HASHED_UP_TO, type UploadEntry } from '../../lib/history';
import { formatNumber, plural, t } from '../../lib/i18n';
import type { PhaseProgress } from '../../lib/jobs/progress';
import {
  deletionLink,
  MEASURED_FROM_BYTES,
  type SendUploadArgs,
  sendUpload,
  shareLink,
  shouldStream,
  storedSize,
  UploadError,
  type UploadOptions,
  type UploadResult,
  type UploadTarget,
  uploadEndpoint,
  xhrTransport,
} from '../../lib/upload';
import { addUpload, HistoryWriteError } from '../storage/history';
import { pathBackedScratchFile } from '../storage/path-backed-file';
import { createScratch, sweepScratch } from '../storage/scratch-files';
import type { EncryptCommand, UploadCipher } from './encrypt-worker';
import { sendInParts } from './upload-parts';
import { chooseUploadWay, type Measured, noteUploadWay } from './upload-way';
import { encryptWorkerSession } from './worker-session';
import { workerStreamTransport } from './worker-stream';

/** A phase's bytes so far, and the phases this upload runs (one bar over them: lib/jobs/progress.ts). */
export type UploadProgress = PhaseProgress;

/** Encrypted into a copy on disk, then sent. */
const DISK_PHASES = ['encrypting', 'uploading'] as const;
/** Sent as it is, or encrypted as the network takes it. */
const SEND_PHASES = ['uploading'] as const;

/**
 * The file a job uploads. `file` is what the job and its history entry show (name, type, size), and
 * what is encrypted. `pathBacked`, where the job has one (a scratch file: staging.ts), gives the same
 * bytes as a File with a path on disk, or undefined where the browser offers none; it is asked for
 * only when the file is sent as it is (modes none and server).
 */
export interface UploadInput {
  file: File;
  pathBacked?: () => Promise<File | undefined>;
}

export interface UploadOutcome {
  entry: UploadEntry;
  /** Set when the upload worked but history could not be written: the link must stay visible. */
  historyError?: HistoryWriteError;
}

/** Bytes per WebCrypto call on the disk path too (re-cut from the file's stream). */
const CHUNK = STREAM_CHUNK_BYTES;

type Progress = (p: UploadProgress) => void;

/** How the encrypted copy is made. */
interface CopyOptions {
  onProgress: Progress;
  signal?: AbortSignal;
  /** Detach each ciphertext once written (the browser adapter says; lib/free-buffer.ts). */
  freeSpent: boolean;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException(t('uploadCancelled'), 'AbortError');
}

/**
 * Encrypts in a dedicated worker into the OPFS file `name`. Resolves 'done', or 'unsupported' when
 * the worker could not start or has no sync access handle (nothing was written then).
 */
async function encryptInWorker(
  file: Blob,
  cipher: UploadCipher,
  name: string,
  { onProgress, signal, freeSpent }: CopyOptions,
): Promise<'done' | 'unsupported'> {
  const command: EncryptCommand = { type: 'start', file, cipher, name, chunkSize: CHUNK, freeSpent };
  const answer = await encryptWorkerSession<'done' | 'unsupported'>(command, signal, {
    report(report) {
      if (report.type === 'progress') {
        if (!signal?.aborted)
          onProgress({ phases: DISK_PHASES, phase: 'encrypting', done: report.done, total: report.total });
        return undefined;
      }
      if (signal?.aborted) return { error: abortReason(signal) };
      if (report.type === 'done' || report.type === 'unsupported') return { value: report.type };
      if (report.type !== 'error') return undefined;
      const err = new Error(t('encryptFailed', report.message));
      err.name = report.name === 'QuotaExceededError' ? report.name : 'EncryptError';
      return { error: err };
    },
    failed: (heard, message) =>
      heard ? { error: new Error(t('encryptWorkerFailed', message)) } : { value: 'unsupported' },
    aborted: () => abortReason(signal!),
  });
  return answer === 'no-worker' ? 'unsupported' : answer;
}

/** The fallback: encrypt here and write through createWritable (no sync handle on this thread). */
async function encryptHere(
  handle: FileSystemFileHandle,
  file: Blob,
  cipher: UploadCipher,
  { onProgress, signal, freeSpent }: CopyOptions,
): Promise<void> {
  const writable = await handle.createWritable();
  if (cipher.format === 'ece') {
    // pipeTo aborts the writable (its changes are dropped) when encryption fails or is cancelled.
    const total = storedSize({ mode: 'client', format: 'ece' }, file.size);
    let done = 0;
    const counting = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        done += chunk.length;
        onProgress({ phases: DISK_PHASES, phase: 'encrypting', done, total });
        out.enqueue(chunk);
      },
    });
    await eceEncryptStream(file.stream(), cipher.secret).pipeThrough(counting).pipeTo(writable, { signal });
    return;
  }
  try {
    await encryptBlob(
      file,
      { key: cipher.key, iv: cipher.iv },
      async (bytes, offset) => {
        await writable.write({ type: 'write', position: offset, data: bytes as Uint8Array<ArrayBuffer> });
        if (freeSpent) freeBuffer(bytes);
      },
      {
        chunkSize: CHUNK,
        signal,
        onProgress: (done, total) => onProgress({ phases: DISK_PHASES, phase: 'encrypting', done, total }),
      },
    );
    await writable.close();
  } catch (err) {
    await writable.abort().catch(() => {});
    throw err;
  }
}

/** Bytes of `file` once encrypted with `cipher`. */
const sealedSize = (file: Blob, cipher: UploadCipher) =>
  storedSize({ mode: 'client', format: cipher.format }, file.size);

async function encryptToDisk(
  file: Blob,
  cipher: UploadCipher,
  options: CopyOptions,
): Promise<{ body: File; cleanup: () => Promise<void> }> {
  const { signal } = options;
  signal?.throwIfAborted();
  const scratch = await createScratch('upload');
  try {
    const how = await encryptInWorker(file, cipher, scratch.name, options);
    if (how === 'unsupported') await encryptHere(scratch.handle, file, cipher, options);
    signal?.throwIfAborted();
    const copy = await scratch.handle.getFile();
    const expected = sealedSize(file, cipher);
    if (copy.size !== expected)
      throw new Error(t('encryptedCopyWrongSize', formatNumber(copy.size), plural('bytes', expected)));
    // The same bytes as a File with a path, where the browser has one: Chromium sends that much
    // faster (path-backed-file.ts says why). This document makes the XHR, as that way requires.
    const body = (await pathBackedScratchFile(scratch.name, expected)) ?? copy;
    return { body, cleanup: scratch.remove };
  } catch (err) {
    await scratch.remove();
    throw err;
  }
}

/** Origins that refused a streamed upload in this document (no HTTP/2): they go the disk way at once. */
const refusedStreams = new Set<string>();

type Common = Omit<SendUploadArgs, 'body' | 'transport' | 'onProgress'>;

/**
 * The stream transport: resolves with the result, or 'refused' when the server cannot take a stream.
 * The encrypt worker encrypts and makes the fetch (worker-stream.ts), so rendering here cannot
 * starve the network of bytes.
 */
async function sendStreamed(
  file: File,
  cipher: UploadCipher,
  common: Common,
  onProgress: Progress,
): Promise<UploadResult | 'refused'> {
  try {
    return await sendUpload({
      ...common,
      body: { madeByTransport: sealedSize(file, cipher) },
      transport: workerStreamTransport(file, cipher),
      onProgress: (sent, total) => onProgress({ phases: SEND_PHASES, phase: 'uploading', done: sent, total }),
    });
  } catch (err) {
    if (!(err instanceof UploadError && err.kind === 'stream-refused')) throw err;
    refusedStreams.add(new URL(uploadEndpoint(common.target)).origin);
    return 'refused';
  }
}

/**
 * The disk transport, sent with XHR: the file as it is (its path-backed copy where there is one), or
 * (with a cipher) its encrypted copy in OPFS.
 */
async function sendFromDisk(
  { file, pathBacked }: UploadInput,
  cipher: UploadCipher | undefined,
  common: Common,
  onProgress: Progress,
  freeSpent: boolean,
): Promise<{ result: UploadResult; cleanup: () => Promise<void>; measured: Measured }> {
  let body: Blob = file;
  let cleanup = async () => {};
  const started = performance.now();
  if (cipher)
    ({ body, cleanup } = await encryptToDisk(file, cipher, { onProgress, signal: common.signal, freeSpent }));
  // This document makes the XHR, as a path-backed File requires. The part still has the file's own
  // name (the request's fileName) and type (the contentType field; an untyped file is sent as
  // application/octet-stream either way).
  else body = (await pathBacked?.()) ?? file;
  const encrypted = performance.now();
  try {
    const result = await sendUpload({
      ...common,
      body,
      transport: xhrTransport(XMLHttpRequest),
      onProgress: (sent, total) =>
        onProgress({ phases: cipher ? DISK_PHASES : SEND_PHASES, phase: 'uploading', done: sent, total }),
    });
    const measured: Measured = {
      way: 'disk',
      encryptMs: encrypted - started,
      sendMs: performance.now() - encrypted,
    };
    return { result, cleanup, measured };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

let swept = false;

/** How long the server may stay silent (no upload progress, no answer) before we give up. */
export const DEFAULT_SILENCE_MS = 60_000;

export async function runUpload(
  input: UploadInput,
  target: UploadTarget,
  options: UploadOptions,
  {
    onProgress = () => {},
    signal,
    timeoutMs = DEFAULT_SILENCE_MS,
    requestStreams,
    freeSpentBuffers,
  }: {
    onProgress?: Progress;
    signal?: AbortSignal;
    timeoutMs?: number;
    /** Whether fetch may get a streamed body here: the browser adapter says (never in Firefox). */
    requestStreams: boolean;
    /** Whether spent buffers are detached to free them at once: the browser adapter says (Firefox). */
    freeSpentBuffers: boolean;
  },
): Promise<UploadOutcome> {
  const { file } = input;
  if (!swept) {
    swept = true;
    sweepScratch(['upload']).catch(() => {});
  }
  let cipher: UploadCipher | undefined;
  if (options.mode === 'client' && options.format === 'ece')
    cipher = { format: 'ece', secret: randomSecret() };
  else if (options.mode === 'client') {
    const key = randomKey();
    cipher = { format: 'teknik', key, iv: deriveIv(key) };
  }
  const teknik = cipher?.format === 'teknik' ? cipher : undefined;
  const common: Common = {
    target,
    options,
    file: { name: file.name || 'file', type: file.type || 'application/octet-stream' },
    iv: teknik?.iv,
    signal,
    timeoutMs,
  };
  let inParts: UploadResult | 'no-parts' = 'no-parts';
  if (cipher && file.size >= MEASURED_FROM_BYTES)
    inParts = await sendInParts({
      file,
      cipher,
      total: sealedSize(file, cipher),
      common,
      onProgress,
      freeSpent: freeSpentBuffers,
    });
  let result: UploadResult | 'refused' = inParts === 'no-parts' ? 'refused' : inParts;
  let cleanup = async () => {};
  let measured: Measured | undefined;
  const streamable = shouldStream({ url: uploadEndpoint(target), requestStreams, refused: refusedStreams });
  // An upload in parts chooses no way and records no figures.
  const choice =
    inParts === 'no-parts' && cipher && (await chooseUploadWay(target, cipher.format, file.size, streamable));
  if (cipher && choice && choice.way === 'stream') {
    const started = performance.now();
    result = await sendStreamed(file, cipher, common, onProgress);
    measured = { way: 'stream', sendMs: performance.now() - started };
  }
  if (result === 'refused')
    ({ result, cleanup, measured } = await sendFromDisk(input, cipher, common, onProgress, freeSpentBuffers));
  if (cipher && choice && measured)
    noteUploadWay(target, cipher.format, sealedSize(file, cipher), choice, measured);
  let succeeded = false;
  try {
    // The secret (ece) or key (Teknik) that went into the link, never to the server.
    const linkKey = cipher?.format === 'ece' ? cipher.secret : teknik?.key;
    const entry: UploadEntry = {
      id: crypto.randomUUID(),
      link: shareLink(result, linkKey, options.mode === 'server' && options.saveKey),
      url: result.url.split('#')[0]!,
      fileName: result.fileName,
      key: cipher?.format === 'ece' ? secretText(cipher.secret) : (teknik?.key ?? result.key),
      iv: teknik ? teknik.iv : cipher ? undefined : result.iv,
      format: cipher?.format === 'ece' ? 'ece' : undefined,
      variant: target.variant,
      mode: options.mode,
      deletionLink: deletionLink(target, result),
      expirationDate: result.expirationDate,
      maxDownloads: result.maxDownloads || undefined,
      size: file.size,
      type: file.type || 'application/octet-stream',
      name: file.name || 'file',
      time: Date.now(),
      server: target.variant === 'legacy' ? target.addresses.baseUrl : target.addresses.apiUrl,
      sha256: file.size <= HASHED_UP_TO ? await sha256Hex(file) : undefined,
      keyKept: options.mode === 'server' ? options.saveKey : undefined,
    };
    for (const k of Object.keys(entry) as (keyof UploadEntry)[]) if (entry[k] === undefined) delete entry[k];
    if (signal?.aborted) {
      // Cancelled after the server had the whole file: take it back rather than leave it unlisted.
      if (entry.deletionLink)
        await fetch(entry.deletionLink, { credentials: 'omit', referrerPolicy: 'no-referrer' }).catch(
          () => {},
        );
      throw abortReason(signal);
    }
    succeeded = true;
    try {
      await addUpload(entry);
      return { entry };
    } catch (err) {
      if (err instanceof HistoryWriteError) return { entry, historyError: err };
      throw err;
    }
  } finally {
    // Removing a large OPFS file takes about a second per GiB: after a success the link is shown
    // without waiting for it; after a failure or cancel it is gone before the caller hears of it.
    if (succeeded) void cleanup();
    else await cleanup();
  }
}
