// The home page's parts worker (served as parts-worker.js): it seals the chosen file in the
// authenticated format (lib/crypto/file-cipher.ts sealedStream) and writes the ciphertext, cut at the
// session's part size, into one file of the origin's private file system per part, through a sync
// access handle, which only a dedicated worker has. The page thread then only sends each part file
// (part-files.ts says why from a file): sealing and writing there ran at about 45 MiB/s, a fifth of the
// link (bench row o). A part is written only while fewer than `ahead` parts are made and not yet on
// the server, so the disk holds a few parts at most, whatever the file's size.
//
// The worker alone creates and removes the part files, one call at a time: the page says which parts
// the server has, and the worker removes their files before it creates the next. Chromium 150's
// createSyncAccessHandle() now and then never answers while other part files are being sent or
// removed; such a part is written through a writable stream instead (SYNC_HANDLE_WAIT_MS).
//
// Protocol: the page sends one `seal`, then `sent` for each part the server has, and maybe `cancel`;
// the worker answers `part` for each part written (its file's name), and ends, once every part it made
// is on the server and removed (or at a cancel), with exactly one of `done`, `declined` (no private file
// system or sync access handle here: nothing made, the page makes the parts itself), `cancelled` or
// `error`.
import { type EceFileCipher, sealedStream } from '../../../lib/crypto/file-cipher';

import { type PartsSession, partSize } from '../../../lib/upload/parts';
import { partCutter } from '../../../lib/upload/stream-parts';
import { reportOutcome, type WorkerFailure } from '../../../lib/worker-report';

export interface SealParts {
  type: 'seal';
  file: Blob;
  cipher: EceFileCipher;
  session: Pick<PartsSession, 'parts' | 'partBytes' | 'total'>;
  /** Parts made and not yet on the server, at most. */
  ahead: number;
  /** How the part files' names begin (part-files.ts sweeps the ones a closed tab left). */
  prefix: string;
}

export type PartsCommand = SealParts | { type: 'sent'; index: number } | { type: 'cancel' };

export type PartsReport =
  | { type: 'part'; index: number; name: string }
  | { type: 'done' }
  | { type: 'declined'; detail: string }
  | { type: 'cancelled' }
  | WorkerFailure;

// The sync access handle is typed in lib.webworker, which cannot be mixed with lib.dom here.
interface SyncAccessHandle {
  write(data: ArrayBufferView<ArrayBuffer>, options?: { at?: number }): number;
  truncate(size: number): void;
  close(): void;
}
type WorkerFileHandle = FileSystemFileHandle & { createSyncAccessHandle?: () => Promise<SyncAccessHandle> };

/** Where one part's bytes are written, in order. */
interface PartSink {
  write(bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  close(): Promise<void>;
}

/**
 * How long a sync access handle is waited for; it comes in milliseconds otherwise. Unanswered, it
 * stalled 3 of 8 bench runs of row o and 3 of 79 uploads of 256 MiB in a loop, each while other part
 * files were being sent (bench/README.md, "The parts worker's stall").
 */
const SYNC_HANDLE_WAIT_MS = 3000;

/** A sink writing through a sync access handle: no copy through the browser's process. */
function syncSink(access: SyncAccessHandle, size: number): PartSink {
  access.truncate(size);
  let at = 0;
  return {
    async write(bytes) {
      const count = access.write(bytes, { at });
      if (count !== bytes.length)
        throw new Error(`Only ${count} of ${bytes.length} bytes were written (disk full?).`);
      at += count;
    },
    async close() {
      access.close();
    },
  };
}

/** Ciphertext the stream may hold ahead of the writes (they are fast: the page cache). */
const QUEUE_BYTES = 4 * 1024 * 1024;

const scope = globalThis as unknown as {
  postMessage(message: PartsReport): void;
  onmessage: ((event: MessageEvent<PartsCommand>) => void) | null;
};

let cancelled = false;
/** Parts the server has, whose files are not removed yet. */
const onServer: number[] = [];
let onServerCount = 0;
let wake: (() => void) | undefined;
let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

const timeOut = (ms: number) => new Promise<undefined>((done) => setTimeout(done, ms));

/** Resolves at the page's cancel. */
let heardCancel: () => void = () => {};
const cancelHeard = new Promise<undefined>((done) => (heardCancel = () => done(undefined)));

/** Until the page's next word (a part on the server, or a cancel). */
const nextWord = () => new Promise<void>((w) => (wake = w));

async function seal(job: SealParts): Promise<PartsReport> {
  const { session, ahead, prefix } = job;
  let root: FileSystemDirectoryHandle;
  try {
    root = await navigator.storage.getDirectory();
  } catch (err) {
    return { type: 'declined', detail: `no private file system: ${String(err)}` };
  }
  /** The files made and not yet removed, by part. */
  const files = new Map<number, string>();
  /** Files whose sync access handle never came in time. */
  const stuck: string[] = [];
  const removeSent = async () => {
    for (let index = onServer.shift(); index !== undefined; index = onServer.shift()) {
      const name = files.get(index);
      files.delete(index);
      if (name) await root.removeEntry(name).catch(() => {});
    }
  };
  reader = (await sealedStream(job.file, job.cipher, { queueBytes: QUEUE_BYTES })).getReader();
  const cutter = partCutter(reader);
  try {
    for (let index = 0; index < session.parts; index++) {
      while (index - onServerCount >= ahead && !cancelled) await nextWord();
      if (cancelled) return { type: 'cancelled' };
      await removeSent();
      let name = `${prefix}${crypto.randomUUID()}`;
      files.set(index, name);
      const size = partSize(session, index);
      let sink: PartSink;
      try {
        const handle = (await root.getFileHandle(name, { create: true })) as WorkerFileHandle;
        if (typeof handle.createSyncAccessHandle !== 'function') throw new Error('no createSyncAccessHandle');
        const pending = handle.createSyncAccessHandle();
        const access = await Promise.race([pending, timeOut(SYNC_HANDLE_WAIT_MS), cancelHeard]);
        if (!access || cancelled) {
          // Not answered (or a cancel came first): the handle is closed if it ever comes, and its file
          // is removed at the end, not awaited (its removal may wait as long as the handle).
          stuck.push(name);
          files.delete(index);
          pending.then(
            (late) => late.close(),
            () => {},
          );
        }
        if (cancelled) return { type: 'cancelled' };
        if (access) sink = syncSink(access, size);
        else {
          // This part goes through a writable stream, to a file of another name.
          name = `${prefix}${crypto.randomUUID()}`;
          files.set(index, name);
          const other = await root.getFileHandle(name, { create: true });
          const writable = await other.createWritable();
          sink = { write: (bytes) => writable.write(bytes), close: () => writable.close() };
        }
      } catch (err) {
        // Only the first part can fall back: nothing was made yet.
        if (index === 0) return { type: 'declined', detail: String(err) };
        throw err;
      }
      try {
        await cutter.cut(size, (bytes) => sink.write(bytes));
      } catch (err) {
        // A cancel cancels the stream, which then reads as ended short.
        if (cancelled) return { type: 'cancelled' };
        throw err;
      } finally {
        // Closed before the page reads it: a sync access handle keeps the file from others.
        await sink.close();
      }
      scope.postMessage({ type: 'part', index, name });
    }
    await cutter.end();
    // The last parts' files go once the server has them.
    while (onServerCount < session.parts && !cancelled) {
      await removeSent();
      if (onServerCount < session.parts) await nextWord();
    }
    return cancelled ? { type: 'cancelled' } : { type: 'done' };
  } finally {
    await reader.cancel().catch(() => {});
    // Whatever way it ended, no part file stays: the page sends nothing more once the worker has ended.
    for (const name of files.values()) await root.removeEntry(name).catch(() => {});
    // Not awaited: a removal may wait as long as the handle it holds (the page's sweep takes what stays).
    for (const name of stuck) void root.removeEntry(name).catch(() => {});
  }
}

let started = false;
scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === 'cancel') {
    cancelled = true;
    heardCancel();
    reader?.cancel().catch(() => {});
  } else if (command.type === 'sent') {
    onServer.push(command.index);
    onServerCount++;
  } else if (!started) {
    started = true;
    reportOutcome(seal(command), (report) => scope.postMessage(report));
  }
  wake?.();
};
