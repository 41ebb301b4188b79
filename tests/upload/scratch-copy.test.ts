// copyIntoScratch (platform/storage/scratch-copy.ts): a byte stream is copied through one buffer
// read into again (BYOB), so the copy holds one buffer whatever the size; the bytes arrive whole and
// in order; an abort or an error of the source leaves nothing (the writable is aborted). Against a
// stand-in for an OPFS file's writable; the browsers run it end to end in tests/e2e/large.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { copyIntoScratch } from '../../platform/storage/scratch-copy';
import type { Scratch } from '../../platform/storage/scratch-files';

/** A scratch file whose writable keeps what is written, and says whether it was closed or aborted. */
function fakeScratch() {
  const chunks: Uint8Array[] = [];
  const state = { closed: false, aborted: undefined as unknown };
  const handle = {
    async createWritable() {
      const stream = new WritableStream<Uint8Array>({
        write(chunk) {
          chunks.push(chunk);
        },
        close() {
          state.closed = true;
        },
        abort(reason) {
          state.aborted = reason ?? 'aborted';
        },
      });
      // A FileSystemWritableFileStream writes without a writer of one's own, as this does.
      return Object.assign(stream, {
        async write(chunk: Uint8Array) {
          const writer = stream.getWriter();
          try {
            await writer.write(chunk.slice());
          } finally {
            writer.releaseLock();
          }
        },
      });
    },
  };
  const written = () => Buffer.concat(chunks);
  return { scratch: { handle } as unknown as Scratch, written, state };
}

/** A byte stream of `total` bytes (i mod 251), given in pieces of at most `piece`; notes each pull. */
function byteSource(total: number, piece: number, fail?: Error) {
  const pulls: { byob: boolean; bufferBytes: number }[] = [];
  let sent = 0;
  let cancelled: unknown;
  const stream = new ReadableStream({
    type: 'bytes',
    pull(controller) {
      const req = controller.byobRequest;
      pulls.push({ byob: !!req?.view, bufferBytes: req?.view?.buffer.byteLength ?? 0 });
      if (fail && sent >= total / 2) {
        controller.error(fail);
        return;
      }
      const n = Math.min(piece, total - sent);
      const bytes = Uint8Array.from({ length: n }, (_, i) => (sent + i) % 251);
      sent += n;
      if (req?.view) {
        new Uint8Array(req.view.buffer, req.view.byteOffset, n).set(bytes);
        req.respond(n);
      } else controller.enqueue(bytes);
      if (sent === total) {
        controller.close();
        // A BYOB read pending at the close must be answered with an empty view.
        controller.byobRequest?.respond(0);
      }
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  return { stream, pulls, cancelled: () => cancelled };
}

const expected = (total: number) => Buffer.from(Array.from({ length: total }, (_, i) => i % 251));

describe('copyIntoScratch', () => {
  it('copies a byte stream whole, reading every piece into one buffer of 1 MiB', async () => {
    const { scratch, written, state } = fakeScratch();
    const source = byteSource(3 * 64 * 1024 + 5, 64 * 1024);
    await copyIntoScratch(scratch, source.stream);
    expect(written()).toEqual(expected(3 * 64 * 1024 + 5));
    expect(state.closed).toBe(true);
    expect(source.pulls.length).toBeGreaterThan(0);
    expect(source.pulls.every((p) => p.byob && p.bufferBytes === 1024 * 1024)).toBe(true);
  });

  it('copies a stream that is not a byte stream as it comes', async () => {
    const { scratch, written, state } = fakeScratch();
    await copyIntoScratch(scratch, new Blob([Uint8Array.from(expected(1000))]).stream());
    expect(written()).toEqual(expected(1000));
    expect(state.closed).toBe(true);
  });

  it('aborted: rejects with the reason, keeps nothing, cancels the source', async () => {
    const { scratch, state } = fakeScratch();
    const abort = new AbortController();
    let pulls = 0;
    const stream = new ReadableStream({
      type: 'bytes',
      pull(controller) {
        const req = controller.byobRequest!;
        // The second read is answered only after the abort.
        if (++pulls === 2) abort.abort(new Error('cancelled by the person'));
        new Uint8Array(req.view!.buffer, req.view!.byteOffset, 10).fill(1);
        req.respond(10);
      },
    });
    await expect(copyIntoScratch(scratch, stream, abort.signal)).rejects.toThrow('cancelled by the person');
    expect(state.closed).toBe(false);
    expect(state.aborted).toBeDefined();
  });

  it("a source's error: rejects with it and keeps nothing", async () => {
    const { scratch, state } = fakeScratch();
    const source = byteSource(4 * 1024 * 1024, 1024 * 1024, new Error('the connection was cut'));
    await expect(copyIntoScratch(scratch, source.stream)).rejects.toThrow('the connection was cut');
    expect(state.closed).toBe(false);
    expect(state.aborted).toBeDefined();
  });
});
