/** What `fixedSizeReader` gives: reads that fill a buffer to a set size, and a way to stop the source. */
export interface FixedSizeReader {
  /**
   * Fills `buffer` with the next `size` bytes of the source (fewer only at its end) and resolves with
   * them: a view at the start of the buffer, or of the buffer that came back from a BYOB read (the
   * whole ArrayBuffer, so bytes past `size` stay usable). Empty once the source has ended.
   */
  read(buffer: ArrayBuffer, size?: number): Promise<Uint8Array<ArrayBuffer>>;
  cancel(reason?: unknown): Promise<void>;
}

/**
 * Reads `source` in pieces of exactly `size` bytes (the last one shorter): into the buffers it is
 * given when the source is a byte stream (BYOB, no copy), else by copying what the source yields.
 */
export function fixedSizeReader(source: ReadableStream<Uint8Array>, size: number): FixedSizeReader {
  let byob: ReadableStreamBYOBReader | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    byob = source.getReader({ mode: 'byob' });
    reader = byob as unknown as ReadableStreamDefaultReader<Uint8Array>;
  } catch {
    reader = source.getReader();
  }
  let rest: Uint8Array | undefined;
  let ended = false;
  return {
    async read(buffer, want = size) {
      let target = new Uint8Array(buffer, 0, want);
      let filled = 0;
      while (filled < want && !ended) {
        if (byob) {
          const { value, done } = await byob.read(new Uint8Array(target.buffer, filled, want - filled));
          // The buffer was handed over and comes back as a new object.
          if (value) target = new Uint8Array(value.buffer, 0, want);
          if (done) ended = true;
          else filled += value!.length;
          continue;
        }
        let piece = rest;
        rest = undefined;
        if (!piece) {
          const { value, done } = await reader.read();
          if (done) {
            ended = true;
            break;
          }
          piece = value;
        }
        const take = Math.min(piece.length, want - filled);
        target.set(piece.subarray(0, take), filled);
        filled += take;
        if (take < piece.length) rest = piece.subarray(take);
      }
      return target.subarray(0, filled);
    },
    cancel: (reason?: unknown) => reader.cancel(reason),
  };
}
