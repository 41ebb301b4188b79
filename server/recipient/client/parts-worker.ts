// The home page's parts worker (served as parts-worker.js): it seals the chosen file in the
// authenticated format (lib/crypto/file-cipher.ts sealedStream) and writes the ciphertext, cut at the
// session's part size, into one file of the origin's private file system per part, through a sync
// access handle, which only a dedicated worker has. The page thread then only sends each part file
// (part-files.ts says why from a file): sealing and writing there ran at about 45 MiB/s, a fifth of the
// link (bench row o). A part is written only while fewer than `ahead` parts are made and not yet on
// the server, so the disk holds a few parts at most, whatever the file's size.
//
// Protocol: the page sends one `seal`, then `sent` for each part the server has (and that the page has
// removed), and maybe `cancel`; the worker answers `part` for each part written (its file's name), and
// ends with exactly one of `done`, `declined` (no private file system or sync access handle here:
// nothing made, the page makes the parts itself), `cancelled` or `error`.
import { type EceFileCipher, sealedStream } from '../../../lib/crypto/file-cipher';

import { type PartsSession, partSize } from '../../../lib/upload/parts';
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

/** Ciphertext the stream may hold ahead of the writes (they are fast: the page cache). */
const QUEUE_BYTES = 4 * 1024 * 1024;

const scope = globalThis as unknown as {
  postMessage(message: PartsReport): void;
  onmessage: ((event: MessageEvent<PartsCommand>) => void) | null;
};

let cancelled = false;
let onServer = 0;
let wake: (() => void) | undefined;
let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

/** The stream ended before, or ran past, the session's bytes: the file changed (the page says so). */
const changed = () => Object.assign(new Error('file changed'), { name: 'StreamLengthError' });

async function seal(job: SealParts): Promise<PartsReport> {
  const { session, ahead, prefix } = job;
  let root: FileSystemDirectoryHandle;
  try {
    root = await navigator.storage.getDirectory();
  } catch (err) {
    return { type: 'declined', detail: `no private file system: ${String(err)}` };
  }
  reader = (await sealedStream(job.file, job.cipher, { queueBytes: QUEUE_BYTES })).getReader();
  let carry: Uint8Array | undefined;
  let writing: string | undefined;
  try {
    for (let index = 0; index < session.parts; index++) {
      while (index - onServer >= ahead && !cancelled) await new Promise<void>((w) => (wake = w));
      if (cancelled) return { type: 'cancelled' };
      const name = `${prefix}${crypto.randomUUID()}`;
      writing = name;
      let access: SyncAccessHandle;
      try {
        const handle = (await root.getFileHandle(name, { create: true })) as unknown as {
          createSyncAccessHandle?: () => Promise<SyncAccessHandle>;
        };
        if (typeof handle.createSyncAccessHandle !== 'function') throw new Error('no createSyncAccessHandle');
        access = await handle.createSyncAccessHandle();
      } catch (err) {
        // Only the first part can fall back: nothing was made yet.
        if (index === 0) return { type: 'declined', detail: String(err) };
        throw err;
      }
      try {
        const size = partSize(session, index);
        access.truncate(size);
        for (let filled = 0; filled < size; ) {
          let chunk = carry;
          carry = undefined;
          if (!chunk) {
            const step = await reader.read();
            if (cancelled) return { type: 'cancelled' };
            if (step.done) throw changed();
            chunk = step.value;
          }
          const take = Math.min(chunk.length, size - filled);
          const count = access.write(chunk.subarray(0, take) as Uint8Array<ArrayBuffer>, { at: filled });
          if (count !== take) throw new Error(`Only ${count} of ${take} bytes were written (disk full?).`);
          filled += take;
          if (take < chunk.length) carry = chunk.subarray(take);
        }
      } finally {
        // Closed before the page reads it: a sync access handle keeps the file from others.
        access.close();
      }
      writing = undefined;
      scope.postMessage({ type: 'part', index, name });
    }
    if (carry?.length || !(await reader.read()).done) throw changed();
    return { type: 'done' };
  } finally {
    if (writing) await root.removeEntry(writing).catch(() => {});
    await reader.cancel().catch(() => {});
  }
}

let started = false;
scope.onmessage = (event) => {
  const command = event.data;
  if (command.type === 'cancel') {
    cancelled = true;
    reader?.cancel().catch(() => {});
  } else if (command.type === 'sent') onServer++;
  else if (!started) {
    started = true;
    reportOutcome(seal(command), (report) => scope.postMessage(report));
  }
  wake?.();
};
