// The encrypt worker that writes files (the disk way and the parts way): it reads the file through its
// stream, encrypts it in either format (sealedStream), and writes the ciphertext, cut every
// `partBytes`, into OPFS files through sync access handles, which exist only in dedicated workers. The
// disk way's encrypted copy is one such file (partBytes = the whole ciphertext); an upload in parts
// has one per part. The page makes each file (and holds it, so no sweep takes it) and hands it out
// (`part-file`) when it wants that part written, so it bounds the disk used: the worker waits for it.
// Reading (the browser process), encrypting (WebCrypto's threads) and writing (this thread) overlap,
// and the stream holds the reading back to what the writes take, so only a few MiB are in memory.
//
// Protocol: the page sends one `seal`, the part files, and maybe `cancel`; the worker answers with
// `progress` (ciphertext written) and `part-done` reports, and ends with exactly one of `done`,
// `declined` (no sync access handle here: nothing written, the page takes another path), `cancelled`
// or `error`.
import { type FileCipher, sealedSize, sealedStream } from '../../lib/crypto/file-cipher';
import { freeBuffer } from '../../lib/free-buffer';
import { reportOutcome } from '../../lib/worker-report';

export interface SealCommand {
  type: 'seal';
  file: Blob;
  cipher: FileCipher;
  /** Bytes of every part but the last (at least 1). */
  partBytes: number;
  /** Bytes per WebCrypto call in Teknik's format. */
  chunkSize: number;
  /** Detach each ciphertext once written, so its memory goes back at once (lib/free-buffer.ts). */
  freeSpent: boolean;
}

/** The OPFS file (root directory) to write part `index` into; the page made it and holds it. */
export interface PartFile {
  type: 'part-file';
  index: number;
  name: string;
}

export type FilesCommand = SealCommand | PartFile | { type: 'cancel' };

export type FilesReport =
  | { type: 'progress'; done: number; total: number }
  | { type: 'part-done'; index: number; size: number }
  | { type: 'done'; size: number }
  | { type: 'declined'; detail: string }
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
  postMessage(message: FilesReport): void;
  onmessage: ((event: MessageEvent<FilesCommand>) => void) | null;
};

let cancelled = false;
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

/** A sync access handle on the OPFS file `name`, or why there is none. */
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

async function seal(job: SealCommand): Promise<FilesReport> {
  const total = sealedSize(job.cipher, job.file.size);
  const parts = Math.max(1, Math.ceil(total / job.partBytes));
  const sizeOf = (index: number) => (index < parts - 1 ? job.partBytes : total - job.partBytes * (parts - 1));
  let index = 0;
  let inPart = 0;
  let written = 0;
  let reported = 0;
  let access: SyncAccessHandle | undefined;

  /** Opens part `index`'s file, sized up front so a lack of space shows before any work; or the end. */
  const openPart = async (): Promise<FilesReport | undefined> => {
    if (index >= parts) throw new Error(`The ciphertext runs past its ${total} bytes.`);
    const name = await partFile(index);
    if (name === undefined) return { type: 'cancelled' };
    const opened = await openTarget(name);
    // Only the first part can fall back (nothing was written yet); later, a lost handle fails.
    if (typeof opened === 'string') {
      if (index === 0) return { type: 'declined', detail: opened };
      throw new Error(opened);
    }
    access = opened;
    access.truncate(sizeOf(index));
    return undefined;
  };
  const closePart = () => {
    const size = access!.getSize();
    // Closed before the page reads it: a sync access handle keeps the file from others. No flush():
    // it waits for the disk (about 1–2 s per GiB here), and a scratch file need not survive a crash.
    access!.close();
    access = undefined;
    if (size !== sizeOf(index)) throw new Error(`Part ${index + 1} has ${size} bytes, not ${sizeOf(index)}.`);
    scope.postMessage({ type: 'part-done', index, size });
    index++;
    inPart = 0;
  };

  const reader = (
    await sealedStream(job.file, job.cipher, { chunkSize: job.chunkSize, queueBytes: QUEUE_BYTES })
  ).getReader();
  try {
    for (;;) {
      if (cancelled) return { type: 'cancelled' };
      const { value: cipherText, done } = await reader.read();
      if (done) break;
      if (cancelled) return { type: 'cancelled' };
      for (let at = 0; at < cipherText.length; ) {
        if (!access) {
          const end = await openPart();
          if (end) return end;
        }
        const take = Math.min(cipherText.length - at, sizeOf(index) - inPart);
        const slice = cipherText.subarray(at, at + take) as Uint8Array<ArrayBuffer>;
        const count = access!.write(slice, { at: inPart });
        if (count !== take) throw new Error(`Only ${count} of ${take} bytes were written (disk full?).`);
        at += take;
        inPart += take;
        written += take;
        if (inPart === sizeOf(index)) closePart();
      }
      if (job.freeSpent) freeBuffer(cipherText);
      const now = Date.now();
      if (now - reported >= REPORT_EVERY_MS || written === total) {
        reported = now;
        scope.postMessage({ type: 'progress', done: written, total });
      }
    }
    // No ciphertext at all (an empty file in Teknik's format): its one part is an empty file.
    if (total === 0) {
      const end = await openPart();
      if (end) return end;
      closePart();
    }
  } finally {
    access?.close();
    await reader.cancel().catch(() => {});
  }
  if (written !== total || index !== parts)
    throw new Error(`The encrypted parts hold ${written} bytes in ${index} parts, not ${total} in ${parts}.`);
  return { type: 'done', size: written };
}

let started = false;
scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === 'cancel') cancelled = true;
  else if (command.type === 'part-file') partFiles.set(command.index, command.name);
  else if (!started) {
    started = true;
    reportOutcome(seal(command), (report) => scope.postMessage(report));
  }
  partFileCame?.();
};
