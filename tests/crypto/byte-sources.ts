// Streams for the stream tests: a source that yields given bytes in given piece sizes, as a byte
// stream (BYOB) or a plain one, and counts what was pulled; and a reader that collects a stream.

/** A source that yields `plain` in the given piece sizes, as a byte stream (BYOB) or a plain one. */
export function source(plain: Uint8Array, pieces: number[], bytes: boolean) {
  let at = 0;
  let i = 0;
  const stats = { pulled: 0, cancelled: undefined as unknown };
  const next = () => {
    const size = Math.max(1, pieces[i++ % pieces.length]!);
    // A copy with its own buffer: a byte stream takes over (detaches) the buffer of what it enqueues,
    // and a Buffer's slice would share the whole input's.
    const piece = new Uint8Array(plain.subarray(at, at + size));
    at += piece.length;
    stats.pulled += piece.length;
    return piece;
  };
  const stream = bytes
    ? new ReadableStream({
        type: 'bytes',
        pull(controller) {
          const request = controller.byobRequest;
          if (at >= plain.length) {
            // A byte stream ends a pending BYOB read by answering it with 0 bytes after close().
            controller.close();
            request?.respond(0);
            return;
          }
          const piece = next();
          if (request?.view && request.view.byteLength >= piece.length) {
            new Uint8Array(request.view.buffer, request.view.byteOffset).set(piece);
            request.respond(piece.length);
          } else controller.enqueue(piece);
        },
        cancel(reason) {
          stats.cancelled = reason;
        },
      })
    : new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            if (at >= plain.length) controller.close();
            else controller.enqueue(next());
          },
          cancel(reason) {
            stats.cancelled = reason;
          },
        },
        { highWaterMark: 0 },
      );
  return { stream: stream as ReadableStream<Uint8Array>, stats };
}

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(Uint8Array.from(part));
  return Buffer.concat(parts);
}

/** Lets queued promise work and timers run for a while (to see what a stream did unprompted). */
export const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 5));
};
