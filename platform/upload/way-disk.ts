// The disk way (lib/upload/plan.ts): one request sent with XHR from a file on disk, with progress. In
// client mode the file is first encrypted into a copy in OPFS: the files worker writes it through a
// sync access handle (encrypt-worker-files.ts); where no worker has one, this document encrypts and
// writes through createWritable. The copy then goes as a File with a path where Chromium has one,
// which its network process reads straight from disk (path-backed-file.ts; this document makes the
// XHR, as that requires). Modes none and server send the file as it is (its path-backed copy where the
// job holds one: a scratch file staged from the popup, right-click or clipboard, or a fetched link).
// It never declines, so every plan ends with it.
import { STREAM_CHUNK_BYTES } from '../../lib/crypto';
import { type FileCipher, sealedSize, sealedStream } from '../../lib/crypto/file-cipher';
import { freeBuffer } from '../../lib/free-buffer';
import { formatNumber, plural, t } from '../../lib/i18n';
import type { PhaseProgress } from '../../lib/jobs/progress';
import { sendUpload, xhrTransport } from '../../lib/upload';
import { Declined, type Sent, type UploadWay, type WayJob } from '../../lib/upload/plan';
import { pathBackedScratchFile } from '../storage/path-backed-file';
import { createScratch } from '../storage/scratch-files';
import { sealIntoFiles } from './encrypt-worker-session';

/** Encrypted into a copy on disk, then sent. */
const DISK_PHASES = ['encrypting', 'uploading'] as const;
/** Sent as it is. */
const SEND_PHASES = ['uploading'] as const;

function abortReason(signal: AbortSignal | undefined): unknown {
  return signal?.reason ?? new DOMException(t('uploadCancelled'), 'AbortError');
}

/** Where no worker has a sync access handle: encrypt here and write through createWritable. */
async function encryptHere(handle: FileSystemFileHandle, job: WayJob, cipher: FileCipher): Promise<void> {
  const { file, freeSpent, onProgress } = job;
  const total = sealedSize(cipher, file.size);
  let done = 0;
  const counting = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, out) {
      done += chunk.length;
      onProgress({ phases: DISK_PHASES, phase: 'encrypting', done, total });
      out.enqueue(chunk);
    },
  });
  const writable = await handle.createWritable();
  const writing = new WritableStream<Uint8Array>({
    async write(chunk) {
      await writable.write(chunk as Uint8Array<ArrayBuffer>);
      if (freeSpent) freeBuffer(chunk);
    },
    close: () => writable.close(),
    abort: (reason) => writable.abort(reason),
  });
  // pipeTo aborts the writable (its changes are dropped) when encryption fails or is cancelled.
  await (await sealedStream(file, cipher))
    .pipeThrough(counting)
    .pipeTo(writing, { signal: job.request.signal });
}

/** The file encrypted into a scratch file: a File to send (path-backed where possible), and its removal. */
async function encryptToDisk(
  job: WayJob,
  cipher: FileCipher,
): Promise<{ body: Blob; cleanup: () => Promise<void> }> {
  const { file, request, onProgress } = job;
  const { signal } = request;
  signal?.throwIfAborted();
  const scratch = await createScratch('upload');
  try {
    const total = sealedSize(cipher, file.size);
    const stop = signal ?? new AbortController().signal;
    const sealed = await sealIntoFiles({
      file,
      cipher,
      partBytes: Math.max(1, total),
      chunkSize: STREAM_CHUNK_BYTES,
      freeSpent: job.freeSpent,
      signal: stop,
      onProgress: (done) => {
        if (!stop.aborted) onProgress({ phases: DISK_PHASES, phase: 'encrypting', done, total });
      },
      handOut: (give) => give(0, scratch.name),
      aborted: () => abortReason(signal),
    });
    if (sealed instanceof Declined) await encryptHere(scratch.handle, job, cipher);
    signal?.throwIfAborted();
    const copy = await scratch.handle.getFile();
    if (copy.size !== total)
      throw new Error(t('encryptedCopyWrongSize', formatNumber(copy.size), plural('bytes', total)));
    // The same bytes as a File with a path, where the browser has one: Chromium sends that much
    // faster (path-backed-file.ts says why).
    const body = (await pathBackedScratchFile(scratch.name, total)) ?? copy;
    return { body, cleanup: scratch.remove };
  } catch (err) {
    await scratch.remove();
    throw err;
  }
}

async function sendFromDisk(job: WayJob): Promise<Sent> {
  const { cipher, request, onProgress } = job;
  const phases = cipher ? DISK_PHASES : SEND_PHASES;
  const started = performance.now();
  const copy = cipher && (await encryptToDisk(job, cipher));
  const encrypted = performance.now();
  // The part still has the file's own name (the request's fileName) and type (the contentType
  // field; an untyped file is sent as application/octet-stream either way).
  const body = copy ? copy.body : ((await job.pathBacked?.()) ?? job.file);
  try {
    const result = await sendUpload({
      ...request,
      body,
      transport: xhrTransport(XMLHttpRequest),
      onProgress: (done, total) =>
        onProgress({ phases, phase: 'uploading', done, total } satisfies PhaseProgress),
    });
    if (!copy) return { result };
    const measured = {
      way: 'disk',
      encryptMs: encrypted - started,
      sendMs: performance.now() - encrypted,
    } as const;
    return { result, measured, cleanup: copy.cleanup };
  } catch (err) {
    await copy?.cleanup();
    throw err;
  }
}

export const diskWay: UploadWay = { send: sendFromDisk };
