/**
 * A PartsSource (parts-runner.ts) cut from one stream of bytes, as it is read: part k is the stream's
 * bytes [k × partBytes, (k + 1) × partBytes), gathered into one buffer. The stream is read only while
 * fewer than `ahead` parts are made and not yet on the server, so a slow link holds the reading back
 * and memory stays at about `ahead` parts, whatever the size of the file (the server's upload page
 * reads the sealed stream of a File this way: lib/crypto/file-cipher.ts).
 */
import { type Deferred, deferred, deferredByIndex } from '../deferred';
import { t } from '../i18n';
import type { PartsSession } from './parts';
import { partSize } from './parts';
import type { PartsSource } from './parts-runner';

/** Parts held at once: two being sent, and the next one being made. */
export const PARTS_AHEAD = 3;

/** The stream ended before, or ran past, the bytes the session was started with: the file changed. */
export class StreamLengthError extends Error {
  override name = 'StreamLengthError';
  constructor() {
    super(t('uploadFileChanged'));
  }
}

/**
 * One stream cut into parts as it is read: each `cut(size, write)` hands the stream's next `size`
 * bytes to `write`, in the pieces reads bring them, with each piece's offset in the part; what a read
 * brings past a part's end is kept for the next. `end()` checks that the stream ends exactly there.
 * Both reject with StreamLengthError when the stream ends short or runs on (the file changed).
 */
export function partCutter(reader: ReadableStreamDefaultReader<Uint8Array>) {
  let carry: Uint8Array | undefined;
  return {
    async cut(size: number, write: (bytes: Uint8Array<ArrayBuffer>, at: number) => void | Promise<void>) {
      for (let filled = 0; filled < size; ) {
        let chunk = carry;
        carry = undefined;
        if (!chunk) {
          const step = await reader.read();
          if (step.done) throw new StreamLengthError();
          chunk = step.value;
        }
        const take = Math.min(chunk.length, size - filled);
        await write(chunk.subarray(0, take) as Uint8Array<ArrayBuffer>, filled);
        filled += take;
        if (take < chunk.length) carry = chunk.subarray(take);
      }
    },
    async end() {
      if (carry?.length || !(await reader.read()).done) throw new StreamLengthError();
    },
  };
}

export function streamParts(
  /** The bytes to send (a promise of them: the sealed stream of a cipher still being made). */
  stream: ReadableStream<Uint8Array> | Promise<ReadableStream<Uint8Array>>,
  session: Pick<PartsSession, 'parts' | 'partBytes' | 'total'>,
  stop: AbortSignal,
  ahead = PARTS_AHEAD,
): PartsSource<Uint8Array<ArrayBuffer>> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const waiting = deferredByIndex<Uint8Array<ArrayBuffer>>();
  let onServer = 0;
  let room: Deferred<void> | undefined;
  let closed = false;

  const make = async () => {
    reader = (await stream).getReader();
    if (stop.aborted || closed) await reader.cancel(stop.reason);
    const cutter = partCutter(reader);
    for (let index = 0; index < session.parts; index++) {
      // Waits while `ahead` parts are made and not yet on the server (a stop ends the wait: the upload
      // failed or was cancelled while none of them had reached the server).
      while (index - onServer >= ahead && !closed && !stop.aborted) {
        room = deferred<void>();
        await room.promise;
      }
      stop.throwIfAborted();
      if (closed) return;
      const part = new Uint8Array(partSize(session, index));
      await cutter.cut(part.length, (bytes, at) => part.set(bytes, at));
      waiting.of(index).resolve(part);
    }
    await cutter.end();
  };

  const stopped = () => {
    const reason = stop.reason ?? new Error('stopped');
    room?.resolve();
    reader?.cancel(reason).catch(() => {});
  };
  stop.addEventListener('abort', stopped, { once: true });

  const made = make();
  made.catch((err) => {
    waiting.rejectAll(session.parts, err);
  });
  return {
    part: (index) => waiting.of(index).promise,
    sent(index) {
      waiting.delete(index);
      onServer++;
      room?.resolve();
    },
    made,
    async close() {
      closed = true;
      room?.resolve();
      stop.removeEventListener('abort', stopped);
      waiting.clear();
      await reader?.cancel().catch(() => {});
      await made.catch(() => {});
    },
  };
}
