// cryptStream: the same bytes as one-shot encryption whatever the cutting, memory held back by a
// reader that does not read, and cancel and errors passed along.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCipher, cryptStream, encryptBytes, randomIv, randomKey } from '../../lib/crypto';
import { readAll, settle, source } from './byte-sources';

describe('cryptStream', () => {
  it('gives the same bytes as one-shot encryption for any source cutting and chunk size (property)', async () => {
    const key = randomKey();
    const iv = randomIv();
    const cipher = await createCipher(key, iv);
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        async (plain, pieces, blocks, inFlight, bytes) => {
          const { stream } = source(plain, pieces, bytes);
          const out = await readAll(cryptStream(stream, cipher, { chunkSize: blocks * 16, inFlight }));
          expect(out.equals(Buffer.from(await encryptBytes(key, iv, plain)))).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("reads a Blob's own stream and decrypts back to the original", async () => {
    const key = randomKey();
    const iv = randomIv();
    const plain = new Uint8Array(randomBytes(1_000_003));
    const cipher = await createCipher(key, iv);
    const encrypted = await readAll(cryptStream(new Blob([plain]).stream(), cipher));
    expect(encrypted.equals(Buffer.from(await encryptBytes(key, iv, plain)))).toBe(true);
    const decrypted = await readAll(
      cryptStream(new Blob([new Uint8Array(encrypted)]).stream(), cipher, { chunkSize: 4096 }),
    );
    expect(decrypted.equals(Buffer.from(plain))).toBe(true);
  });

  it('holds the source back while nobody reads: at most the queue and the chunks in flight', async () => {
    for (const bytes of [true, false]) {
      const plain = new Uint8Array(4 * 1024 * 1024);
      const { stream, stats } = source(plain, [10_000], bytes);
      const chunkSize = 16 * 1024;
      const queueBytes = 64 * 1024;
      const out = cryptStream(stream, await createCipher(randomKey(), randomIv()), {
        chunkSize,
        inFlight: 2,
        queueBytes,
      });
      const reader = out.getReader();
      await settle();
      // Each read fills one chunk; the last piece may run over into the next one.
      const bound = queueBytes + 3 * chunkSize + 10_000;
      expect(stats.pulled).toBeGreaterThan(0);
      expect(stats.pulled).toBeLessThanOrEqual(bound);
      await reader.read();
      await settle();
      expect(stats.pulled).toBeLessThanOrEqual(bound + chunkSize);
      await reader.cancel();
    }
  });

  it('cancelling the output cancels the source with the same reason', async () => {
    const { stream, stats } = source(new Uint8Array(1 << 20), [4096], true);
    const reader = cryptStream(stream, await createCipher(randomKey(), randomIv())).getReader();
    await reader.read();
    const reason = new Error('upload cancelled');
    await reader.cancel(reason);
    expect(stats.cancelled).toBe(reason);
  });

  it('ends with the error of a source that fails', async () => {
    let sent = false;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) {
          sent = true;
          controller.enqueue(new Uint8Array(100));
        } else controller.error(new Error('the file was changed on disk'));
      },
    });
    await expect(readAll(cryptStream(failing, await createCipher(randomKey(), randomIv())))).rejects.toThrow(
      'the file was changed on disk',
    );
  });

  it('refuses a chunk size that is not a multiple of 16', async () => {
    const cipher = await createCipher(randomKey(), randomIv());
    expect(() => cryptStream(new Blob([]).stream(), cipher, { chunkSize: 1000 })).toThrow(RangeError);
  });
});
