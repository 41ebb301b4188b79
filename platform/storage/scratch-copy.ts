// Copying a byte stream (a download, a Blob's stream) into a scratch file through one buffer that
// each read fills again once its bytes are written.
//
// Why not pipeTo: it hands every chunk the source makes to the file, and each chunk then waits for
// the collector. Firefox collected them late: copying a 300 MiB download grew its background page
// by about 120 MiB. With one buffer read into again (a BYOB read moves it, it is not copied), the
// copy holds a single buffer whatever the file's size, in every browser.
import type { Scratch } from './scratch-files';

/** Bytes read and written at a time. */
const BUFFER_BYTES = 1024 * 1024;

/**
 * Writes all of `source` into the scratch file, replacing what it held. On an error of either side,
 * or when `signal` aborts, nothing is kept (the writable is aborted) and the source is cancelled;
 * it rejects with the error, or the signal's reason.
 */
export async function copyIntoScratch(
  scratch: Scratch,
  source: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): Promise<void> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = source.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream: its chunks are its own to make, so they are passed on as they come.
    await source.pipeTo(await scratch.handle.createWritable(), { signal });
    return;
  }
  signal?.throwIfAborted();
  // A pending read ends (as if done) when the reader is cancelled: the loop then sees the abort.
  const stop = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  let writable: FileSystemWritableFileStream | undefined;
  try {
    writable = await scratch.handle.createWritable();
    let buffer = new ArrayBuffer(BUFFER_BYTES);
    for (;;) {
      const { value, done } = await reader.read(new Uint8Array(buffer));
      signal?.throwIfAborted();
      if (done) break;
      await writable.write(value);
      buffer = value.buffer;
    }
    await writable.close();
  } catch (err) {
    await writable?.abort(err).catch(() => {});
    await reader.cancel(err).catch(() => {});
    throw err;
  } finally {
    signal?.removeEventListener('abort', stop);
  }
}
