// The authenticated format's streams: the same bytes whatever the cutting, memory held back by a
// reader that does not read, records handed over while the source is still arriving, cancel and
// source errors passed along, and the sizes the upload announces.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ECE_HEADER_BYTES,
  ECE_RECORD_BYTES,
  ECE_RECORD_OVERHEAD,
  eceCiphertextSize,
  eceDecryptBytes,
  eceDecryptStream,
  eceDecryptTransform,
  eceEncryptBytes,
  eceEncryptStream,
  eceEncryptTransform,
  ecePlaintextSize,
  LinkIntegrityError,
  randomSecret,
} from '../../lib/crypto';
import { readAll, settle, source } from './byte-sources';
import { nodeEceDecrypt, nodeEceEncrypt } from './ece-node';

const PER_RECORD = ECE_RECORD_BYTES - ECE_RECORD_OVERHEAD;

describe('eceEncryptStream and eceDecryptStream', () => {
  it('give the same bytes for any source cutting, record size and records in flight (property)', async () => {
    const secret = randomSecret();
    const salt = randomBytes(16);
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 3000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 18, max: 400 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        async (plain, pieces, recordSize, inFlight, bytes) => {
          const expected = nodeEceEncrypt(secret, salt, plain, { rs: recordSize });
          const sealed = await readAll(
            eceEncryptStream(source(plain, pieces, bytes).stream, secret, { salt, recordSize, inFlight }),
          );
          expect(sealed.equals(expected)).toBe(true);
          const opened = await readAll(
            eceDecryptStream(source(sealed, pieces, bytes).stream, secret, { recordSize, inFlight }),
          );
          expect(opened.equals(plain)).toBe(true);
        },
      ),
      { numRuns: 80 },
    );
  });

  it("read a Blob's own stream, several records long, and round-trip", async () => {
    const plain = new Uint8Array(randomBytes(3 * PER_RECORD + 12_345));
    const secret = randomSecret();
    const sealed = await readAll(eceEncryptStream(new Blob([plain]).stream(), secret));
    expect(sealed.length).toBe(eceCiphertextSize(plain.length));
    expect(nodeEceDecrypt(secret, sealed).equals(plain)).toBe(true);
    const opened = await readAll(eceDecryptStream(new Blob([new Uint8Array(sealed)]).stream(), secret));
    expect(opened.equals(plain)).toBe(true);
  });

  it('work as pipeThrough pairs', async () => {
    const plain = new Uint8Array(randomBytes(2 * PER_RECORD + 1));
    const secret = randomSecret();
    const opened = await readAll(
      new Blob([plain])
        .stream()
        .pipeThrough(eceEncryptTransform(secret))
        .pipeThrough(eceDecryptTransform(secret)),
    );
    expect(opened.equals(plain)).toBe(true);
  });

  it('encrypt an empty file as one empty last record, and open it as empty', async () => {
    const secret = randomSecret();
    const sealed = await eceEncryptBytes(new Uint8Array(0), secret);
    expect(sealed.length).toBe(ECE_HEADER_BYTES + ECE_RECORD_OVERHEAD);
    expect((await eceDecryptBytes(sealed, secret)).length).toBe(0);
  });

  it('draw a fresh salt for every file, from the random source given', async () => {
    const secret = randomSecret();
    const plain = new TextEncoder().encode('same bytes');
    const a = await eceEncryptBytes(plain, secret);
    const b = await eceEncryptBytes(plain, secret);
    expect(Buffer.from(a.subarray(0, 16)).equals(Buffer.from(b.subarray(0, 16)))).toBe(false);
    const fixed = await eceEncryptBytes(plain, secret, { random: (bytes) => bytes.fill(7) });
    expect([...fixed.subarray(0, 16)]).toEqual(new Array(16).fill(7));
  });

  it('hand a record over while the source is still arriving (they do not wait for the whole file)', async () => {
    const secret = randomSecret();
    const plain = new Uint8Array(randomBytes(4 * PER_RECORD));
    const sealed = await eceEncryptBytes(plain, secret);
    const arrived = ECE_HEADER_BYTES + 3 * ECE_RECORD_BYTES;
    let sent = false;
    // Three records arrive, then the source goes quiet (as a slow download would).
    const slow = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (!sent) controller.enqueue(sealed.slice(0, arrived));
        sent = true;
        return new Promise(() => {});
      },
    });
    const reader = eceDecryptStream(slow, secret).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).equals(Buffer.from(plain.subarray(0, PER_RECORD)))).toBe(true);
    await reader.cancel();
  });

  it('hold the source back while nobody reads: at most the queue and the records in flight', async () => {
    const secret = randomSecret();
    const plain = new Uint8Array(8 * 1024 * 1024);
    const sealed = await eceEncryptBytes(plain, secret);
    const queueBytes = 256 * 1024;
    const inFlight = 2;
    for (const [input, run] of [
      [plain, (s: ReadableStream<Uint8Array>) => eceEncryptStream(s, secret, { queueBytes, inFlight })],
      [sealed, (s: ReadableStream<Uint8Array>) => eceDecryptStream(s, secret, { queueBytes, inFlight })],
    ] as const) {
      for (const bytes of [true, false]) {
        const { stream, stats } = source(input, [10_000], bytes);
        const reader = run(stream).getReader();
        await reader.read();
        await settle();
        // The queue, the records in flight, the one read ahead, and a source piece running over.
        const bound = queueBytes + (inFlight + 2) * ECE_RECORD_BYTES + 10_000;
        expect(stats.pulled).toBeGreaterThan(0);
        expect(stats.pulled).toBeLessThanOrEqual(bound);
        await reader.cancel();
      }
    }
  });

  it('cancelling the output cancels the source with the same reason', async () => {
    const secret = randomSecret();
    const sealed = await eceEncryptBytes(new Uint8Array(1 << 20), secret);
    for (const [input, run] of [
      [new Uint8Array(1 << 20), (s: ReadableStream<Uint8Array>) => eceEncryptStream(s, secret)],
      [sealed, (s: ReadableStream<Uint8Array>) => eceDecryptStream(s, secret)],
    ] as const) {
      const { stream, stats } = source(input, [4096], true);
      const reader = run(stream).getReader();
      await reader.read();
      const reason = new Error('download cancelled');
      await reader.cancel(reason);
      expect(stats.cancelled).toBe(reason);
    }
  });

  it('end with the error of a source that fails, as it is (a network error is not a changed file)', async () => {
    const secret = randomSecret();
    const sealed = await eceEncryptBytes(new Uint8Array(4 * PER_RECORD), secret);
    const failing = (start: Uint8Array) => {
      let sent = false;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(start);
          } else controller.error(new Error('the connection was reset'));
        },
      });
    };
    await expect(readAll(eceEncryptStream(failing(new Uint8Array(100_000)), secret))).rejects.toThrow(
      'the connection was reset',
    );
    await expect(readAll(eceDecryptStream(failing(sealed.slice(0, 100_000)), secret))).rejects.toThrow(
      'the connection was reset',
    );
  });

  it('ends the output on an integrity error and cancels the source with it', async () => {
    const secret = randomSecret();
    // Long enough that the source is still open when record 1 fails.
    const sealed = await eceEncryptBytes(new Uint8Array(40 * PER_RECORD), secret);
    sealed[ECE_HEADER_BYTES + ECE_RECORD_BYTES + 5]! ^= 1;
    const { stream, stats } = source(sealed, [8192], true);
    const error = await readAll(eceDecryptStream(stream, secret)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LinkIntegrityError);
    expect(error).toMatchObject({ problem: 'changed', record: 1, name: 'LinkIntegrityError' });
    expect((error as Error).message).toBe(
      'This file was changed or cut short after it was uploaded, so it was not saved. If your browser kept a part of it, delete that part: it is incomplete.',
    );
    expect(stats.cancelled).toBe(error);
  });

  it('refuse a secret that is not 16 bytes, and a salt that is not 16 bytes', () => {
    const empty = () => new Blob([]).stream();
    expect(() => eceEncryptStream(empty(), new Uint8Array(32))).toThrow(RangeError);
    expect(() => eceDecryptStream(empty(), new Uint8Array(15))).toThrow(RangeError);
    expect(() => eceEncryptStream(empty(), randomSecret(), { salt: new Uint8Array(12) })).toThrow(RangeError);
    expect(() => eceEncryptStream(empty(), randomSecret(), { recordSize: 17 })).toThrow(RangeError);
  });
});

describe('sizes', () => {
  it('1 MiB of plaintext takes 1 MiB + 310 bytes; the overhead is 272 bytes per MiB in a long file', () => {
    expect(eceCiphertextSize(0)).toBe(38);
    expect(eceCiphertextSize(1024 * 1024) - 1024 * 1024).toBe(21 + 17 * 17);
    expect(eceCiphertextSize(1024 ** 3) - 1024 ** 3).toBe(21 + 17 * Math.ceil(1024 ** 3 / PER_RECORD));
    expect(Math.round((eceCiphertextSize(1024 ** 3) - 1024 ** 3) / 1024)).toBe(272);
  });

  it('ecePlaintextSize inverts eceCiphertextSize and refuses sizes no file has (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (plainSize) => {
        expect(ecePlaintextSize(eceCiphertextSize(plainSize))).toBe(plainSize);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (cipherSize) => {
        const plainSize = ecePlaintextSize(cipherSize);
        if (plainSize !== undefined) expect(eceCiphertextSize(plainSize)).toBe(cipherSize);
      }),
    );
    expect(ecePlaintextSize(37)).toBeUndefined();
    expect(ecePlaintextSize(ECE_HEADER_BYTES + ECE_RECORD_BYTES + 10)).toBeUndefined();
    expect(ecePlaintextSize(ECE_HEADER_BYTES + ECE_RECORD_BYTES + ECE_RECORD_OVERHEAD)).toBeUndefined();
  });
});
