import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  cryptBlob,
  DEFAULT_CHUNK_BYTES,
  decryptBlob,
  encryptBlob,
  encryptBytes,
  randomIv,
  randomKey,
} from '../../lib/crypto';

/** Collects the sink's chunks, checking they arrive in order and back to back. */
function collector() {
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let expected = 0;
  const sink = async (chunk: Uint8Array, offset: number) => {
    expect(offset).toBe(expected);
    expected += chunk.length;
    offsets.push(offset);
    chunks.push(Uint8Array.from(chunk));
    await new Promise((resolve) => setTimeout(resolve, 0));
  };
  return { sink, chunks, offsets, bytes: () => Buffer.concat(chunks) };
}

describe('cryptBlob', () => {
  it('gives the same bytes as one-shot encryption for any chunk size (property)', async () => {
    const key = randomKey();
    const iv = randomIv();
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2000 }),
        fc.integer({ min: 1, max: 300 }),
        async (plain, size) => {
          const out = collector();
          const done = await encryptBlob(new Blob([plain]), { key, iv }, out.sink, { chunkSize: size });
          expect(done).toBe(plain.length);
          expect(out.bytes().equals(Buffer.from(await encryptBytes(key, iv, plain)))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads 1 MiB slices by default, never the whole Blob', async () => {
    const plain = new Uint8Array(randomBytes(DEFAULT_CHUNK_BYTES * 2 + 123));
    const blob = new Blob([plain]);
    const slice = vi.spyOn(blob, 'slice');
    const out = collector();
    await cryptBlob(blob, { key: randomKey(), iv: randomIv() }, out.sink);
    expect(out.offsets).toEqual([0, DEFAULT_CHUNK_BYTES, DEFAULT_CHUNK_BYTES * 2]);
    expect(slice.mock.calls).toEqual([
      [0, DEFAULT_CHUNK_BYTES],
      [DEFAULT_CHUNK_BYTES, DEFAULT_CHUNK_BYTES * 2],
      [DEFAULT_CHUNK_BYTES * 2, plain.length],
    ]);
  });

  it('decrypts back to the original', async () => {
    const key = randomKey();
    const iv = randomIv();
    const plain = new Uint8Array(randomBytes(10_007));
    const enc = collector();
    await encryptBlob(new Blob([plain]), { key, iv }, enc.sink, { chunkSize: 1000 });
    const dec = collector();
    await decryptBlob(new Blob([new Uint8Array(enc.bytes())]), { key, iv }, dec.sink, { chunkSize: 333 });
    expect(dec.bytes().equals(Buffer.from(plain))).toBe(true);
  });

  it('reports progress after each chunk', async () => {
    const progress: Array<[number, number]> = [];
    await cryptBlob(new Blob([new Uint8Array(25)]), { key: randomKey(), iv: randomIv() }, () => {}, {
      chunkSize: 10,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(progress).toEqual([
      [10, 25],
      [20, 25],
      [25, 25],
    ]);
  });

  it('handles an empty Blob without calling the sink', async () => {
    const sink = vi.fn();
    expect(await cryptBlob(new Blob([]), { key: randomKey(), iv: randomIv() }, sink)).toBe(0);
    expect(sink).not.toHaveBeenCalled();
  });

  it('stops when the signal aborts, with the signal’s reason', async () => {
    const controller = new AbortController();
    const sink = vi.fn((_chunk: Uint8Array, offset: number) => {
      if (offset === 20) controller.abort(new Error('user cancelled'));
    });
    await expect(
      cryptBlob(new Blob([new Uint8Array(100)]), { key: randomKey(), iv: randomIv() }, sink, {
        chunkSize: 10,
        signal: controller.signal,
      }),
    ).rejects.toThrow('user cancelled');
    expect(sink).toHaveBeenCalledTimes(3);
  });

  it('does not start when the signal is already aborted', async () => {
    const sink = vi.fn();
    const signal = AbortSignal.abort();
    await expect(
      cryptBlob(new Blob([new Uint8Array(5)]), { key: randomKey(), iv: randomIv() }, sink, { signal }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(sink).not.toHaveBeenCalled();
  });

  it('passes sink errors through', async () => {
    await expect(
      cryptBlob(new Blob([new Uint8Array(5)]), { key: randomKey(), iv: randomIv() }, async () => {
        throw new Error('disk full');
      }),
    ).rejects.toThrow('disk full');
  });

  it('rejects a chunk size below one byte', async () => {
    await expect(
      cryptBlob(new Blob([]), { key: randomKey(), iv: randomIv() }, () => {}, { chunkSize: 0 }),
    ).rejects.toThrow(RangeError);
  });
});
