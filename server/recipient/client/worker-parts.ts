// The home page's parts made by its parts worker (parts-worker.ts): sealed and written to part files
// off the page's thread, each sent from its file, which the worker removes once the server has it
// (the page only removes what a worker that did not end in time left). Where no worker
// runs (none here, or refused), or it has no private file system with sync access handles (WebKit's
// MiniBrowser, a private window), the page makes the parts itself, as `streamed` does (part-files.ts).
import type { EceFileCipher } from '../../../lib/crypto/file-cipher';
import { type Deferred, deferred, deferredByIndex } from '../../../lib/deferred';
import { abortedError } from '../../../lib/upload/errors';
import type { PartsSession } from '../../../lib/upload/parts';
import type { PartsSource } from '../../../lib/upload/parts-runner';
import { PARTS_AHEAD, StreamLengthError } from '../../../lib/upload/stream-parts';
import { PART_PREFIX } from './part-files';
import type { PartsCommand, PartsReport } from './parts-worker';

/**
 * How long a cancelled worker gets to stop (and remove the part files it made) before it is ended:
 * longer than it may wait for a sync access handle (parts-worker.ts, SYNC_HANDLE_WAIT_MS, 3 s), or a
 * cancel during that wait would end it before it removes its files.
 */
const CANCEL_GRACE_MS = 5000;

/** The worker's error, as the page shows it. */
function workerError(r: Extract<PartsReport, { type: 'error' }>): Error {
  if (r.name === 'StreamLengthError') return new StreamLengthError();
  return Object.assign(new Error(r.message), { name: r.name });
}

/**
 * The parts of `file` sealed with `cipher` for `session`, made by the parts worker at `workerUrl`;
 * `streamed()` makes them on the page instead where the worker cannot.
 */
export function workerParts<B>(
  workerUrl: string,
  file: Blob,
  cipher: EceFileCipher,
  session: Pick<PartsSession, 'parts' | 'partBytes' | 'total'>,
  stop: AbortSignal,
  streamed: () => PartsSource<B>,
): PartsSource<B | File> {
  let worker: Worker;
  try {
    if (typeof Worker === 'undefined') return streamed();
    worker = new Worker(workerUrl);
  } catch {
    return streamed();
  }
  /** The source the parts come from: this worker's, or the page's own once the worker declined. */
  const chosen: Deferred<PartsSource<B | File>> = deferred();
  const names = new Map<number, string>();
  const ready = deferredByIndex<string>();
  const made = deferred<void>();
  made.promise.catch(() => {});
  /** The worker's last word is in (it has removed every part file it made). */
  const ended = deferred<void>();
  let heard = false;
  let closed = false;
  const fail = (err: unknown) => {
    ready.rejectAll(session.parts, err);
    made.reject(err);
  };
  const remove = async (name: string) => {
    const dir = await navigator.storage.getDirectory();
    await dir.removeEntry(name).catch(() => {});
  };

  let grace: ReturnType<typeof setTimeout> | undefined;
  /**
   * Asks the worker to stop, and ends it if it has not within the grace: the upload's failure or
   * cancel waits for `made`, which a worker stuck in a call that never answers would never settle.
   */
  const endWithinGrace = () => {
    worker.postMessage({ type: 'cancel' } satisfies PartsCommand);
    grace ??= setTimeout(() => {
      worker.terminate();
      ended.resolve();
      // A worker stuck before its first word has made nothing: its own (failed) source is the answer.
      chosen.resolve(own);
      fail(abortedError(stop.reason));
    }, CANCEL_GRACE_MS);
  };

  const own: PartsSource<B | File> = {
    async part(index) {
      const name = await ready.of(index).promise;
      const dir = await navigator.storage.getDirectory();
      return (await dir.getFileHandle(name)).getFile();
    },
    async sent(index) {
      // The worker removes its file (parts-worker.ts says why not here).
      names.delete(index);
      ready.delete(index);
      worker.postMessage({ type: 'sent', index } satisfies PartsCommand);
    },
    made: made.promise,
    async close() {
      closed = true;
      endWithinGrace();
      await ended.promise;
      clearTimeout(grace);
      worker.terminate();
      fail(abortedError(stop.reason));
      await Promise.all([...names.values()].map((name) => remove(name).catch(() => {})));
      names.clear();
    },
  };

  /** The worker cannot make the parts, and none was made: the page makes them. */
  const fallBack = () => {
    ended.resolve();
    worker.terminate();
    if (!closed) chosen.resolve(streamed());
  };
  worker.onmessage = (event: MessageEvent<PartsReport>) => {
    const r = event.data;
    if (r.type === 'declined' && !heard) return fallBack();
    heard = true;
    chosen.resolve(own);
    if (r.type === 'part') {
      names.set(r.index, r.name);
      ready.of(r.index).resolve(r.name);
      return;
    }
    ended.resolve();
    if (r.type === 'done') made.resolve();
    else if (r.type === 'error') fail(workerError(r));
    else fail(abortedError(stop.reason));
  };
  worker.onerror = (event) => {
    event.preventDefault();
    // A worker that failed before its first word never ran (not served, refused): the page makes the parts.
    if (!heard) return fallBack();
    ended.resolve();
    fail(new Error(event.message));
  };
  stop.addEventListener('abort', endWithinGrace, { once: true });
  worker.postMessage({
    type: 'seal',
    file,
    cipher,
    session: { parts: session.parts, partBytes: session.partBytes, total: session.total },
    ahead: PARTS_AHEAD,
    prefix: PART_PREFIX,
  } satisfies PartsCommand);

  return {
    part: async (index) => (await chosen.promise).part(index),
    sent: async (index) => (await chosen.promise).sent(index),
    made: chosen.promise.then((source) => source.made),
    async close() {
      stop.removeEventListener('abort', endWithinGrace);
      // Closed before the worker said anything: its parts (none yet) are let go.
      if (!heard) chosen.resolve(own);
      await (await chosen.promise).close();
    },
  };
}
