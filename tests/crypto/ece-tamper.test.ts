// Whoever stores or carries a file in the authenticated format cannot change it unseen: every bit
// flip, cut, reordering, dropped or added record and appended byte is refused with a
// LinkIntegrityError, and nothing of a record that fails ever comes out of the decrypting stream.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ECE_HEADER_BYTES,
  ECE_RECORD_BYTES,
  ECE_RECORD_OVERHEAD,
  type EceLayout,
  eceDecryptStream,
  eceEncryptBytes,
  type IntegrityProblem,
  LinkIntegrityError,
  randomSecret,
} from '../../lib/crypto';
import { source } from './byte-sources';

interface Sealed {
  plain: Buffer;
  sealed: Buffer;
  secret: Uint8Array;
  layout: EceLayout;
  recordSize: number;
  /** Plaintext bytes per record. */
  per: number;
  records: number;
}

async function seal(plainSize: number, recordSize = ECE_RECORD_BYTES): Promise<Sealed> {
  const plain = randomBytes(plainSize);
  const secret = randomSecret();
  const layout = { recordSize };
  const sealed = Buffer.from(await eceEncryptBytes(new Uint8Array(plain), secret, layout));
  const per = recordSize - ECE_RECORD_OVERHEAD;
  return { plain, sealed, secret, layout, recordSize, per, records: Math.max(1, Math.ceil(plainSize / per)) };
}

/** What the decrypting stream handed over before it ended, and how it ended. */
async function open(file: Sealed, bytes: Uint8Array, pieces = [4093]) {
  const emitted: Buffer[] = [];
  let error: unknown;
  try {
    const stream = eceDecryptStream(source(bytes, pieces, true).stream, file.secret, file.layout);
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>)
      emitted.push(Buffer.from(chunk));
  } catch (e) {
    error = e;
  }
  return { emitted: Buffer.concat(emitted), error };
}

/** The record a byte position falls in (−1: the header). */
const recordAt = (file: Sealed, position: number) =>
  position < ECE_HEADER_BYTES ? -1 : Math.floor((position - ECE_HEADER_BYTES) / file.recordSize);

/**
 * Opens `bad` (a changed copy of the file) and checks it is refused, and that what came out is the
 * start of the plaintext with nothing from the first record that differs or after it.
 */
async function expectRefused(file: Sealed, bad: Uint8Array, ...problems: IntegrityProblem[]) {
  const { emitted, error } = await open(file, bad);
  expect(error, 'refused').toBeInstanceOf(LinkIntegrityError);
  if (problems.length) expect(problems).toContain((error as LinkIntegrityError).problem);
  let differs = 0;
  while (differs < bad.length && differs < file.sealed.length && bad[differs] === file.sealed[differs])
    differs++;
  const allowed = Math.max(0, recordAt(file, differs)) * file.per;
  expect(emitted.length, 'plaintext handed over').toBeLessThanOrEqual(allowed);
  expect(emitted.equals(file.plain.subarray(0, emitted.length)), 'only the original plaintext').toBe(true);
  return { emitted, error: error as LinkIntegrityError };
}

const flipped = (bytes: Buffer, bit: number) => {
  const copy = Buffer.from(bytes);
  copy[bit >> 3]! ^= 1 << (bit & 7);
  return copy;
};

/** The file's records as separate buffers (the header apart). */
const recordsOf = (file: Sealed) =>
  Array.from({ length: file.records }, (_, i) =>
    file.sealed.subarray(
      ECE_HEADER_BYTES + i * file.recordSize,
      ECE_HEADER_BYTES + (i + 1) * file.recordSize,
    ),
  );
const header = (file: Sealed) => file.sealed.subarray(0, ECE_HEADER_BYTES);

/** Runs checks a few at a time: each opens a file, and WebCrypto runs on a thread pool. */
async function inBatches<T>(items: T[], check: (item: T) => Promise<unknown>, size = 16) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(check));
}

describe('an untouched file opens', () => {
  it('whole, for every way of cutting the stream (the checks below can pass only by refusing)', async () => {
    for (const file of [await seal(200, 64), await seal(3 * (ECE_RECORD_BYTES - 17) - 5)]) {
      for (const pieces of [[1], [17, 64], [65_536], [1 << 20]]) {
        const { emitted, error } = await open(file, file.sealed, pieces);
        expect(error).toBeUndefined();
        expect(emitted.equals(file.plain)).toBe(true);
      }
    }
  });
});

describe('every single-bit flip is refused', () => {
  it('all bits of a small file in 64-byte records (5 records)', async () => {
    const file = await seal(200, 64);
    expect(file.records).toBe(5);
    const bits = Array.from({ length: file.sealed.length * 8 }, (_, i) => i);
    await inBatches(bits, async (bit) => {
      const byte = bit >> 3;
      // A flipped salt gives other keys (the first record fails); rs and the key id length are pinned.
      const expected: IntegrityProblem =
        byte < 16
          ? 'wrong-link'
          : byte < ECE_HEADER_BYTES
            ? 'header'
            : recordAt(file, byte) === 0
              ? 'wrong-link'
              : 'changed';
      await expectRefused(file, flipped(file.sealed, bit), expected);
    });
  });

  it('all bits of a one-record file in the 64 KiB layout', async () => {
    const file = await seal(40);
    expect(file.sealed.length).toBe(ECE_HEADER_BYTES + 40 + ECE_RECORD_OVERHEAD);
    const bits = Array.from({ length: file.sealed.length * 8 }, (_, i) => i);
    await inBatches(bits, (bit) => expectRefused(file, flipped(file.sealed, bit)));
  });

  it('sampled bits of a three-record file in the 64 KiB layout (property)', async () => {
    const file = await seal(3 * (ECE_RECORD_BYTES - 17) - 1000);
    expect(file.records).toBe(3);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: file.sealed.length * 8 - 1 }), async (bit) => {
        await expectRefused(file, flipped(file.sealed, bit));
      }),
      { numRuns: 60 },
    );
  });
});

describe('a cut file is refused', () => {
  it('at every length short of the whole (small records)', async () => {
    const file = await seal(200, 64);
    const lengths = Array.from({ length: file.sealed.length }, (_, i) => i);
    await inBatches(lengths, (length) => expectRefused(file, file.sealed.subarray(0, length)));
  });

  it('at every record boundary, as cut short, and the record before the cut is held back', async () => {
    for (const file of [await seal(200, 64), await seal(3 * (ECE_RECORD_BYTES - 17) + 10)]) {
      for (let kept = 0; kept < file.records; kept++) {
        const cut = file.sealed.subarray(0, ECE_HEADER_BYTES + kept * file.recordSize);
        const { emitted } = await expectRefused(file, cut, 'cut-short');
        // The last record still there is intact but says more follow: it is not handed over either.
        expect(emitted.length).toBeLessThanOrEqual(Math.max(0, kept - 1) * file.per);
      }
    }
  });

  it('inside a record of the 64 KiB layout (property)', async () => {
    const file = await seal(2 * (ECE_RECORD_BYTES - 17) + 300);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: file.sealed.length - 1 }), async (length) => {
        await expectRefused(file, file.sealed.subarray(0, length));
      }),
      { numRuns: 40 },
    );
  });

  it('when the last record is missing, and when one in the middle is', async () => {
    const file = await seal(200, 64);
    const records = recordsOf(file);
    await expectRefused(file, Buffer.concat([header(file), ...records.slice(0, -1)]), 'cut-short');
    for (let drop = 0; drop < records.length - 1; drop++)
      await expectRefused(file, Buffer.concat([header(file), ...records.filter((_, i) => i !== drop)]));
  });
});

describe('moved, added and foreign records are refused', () => {
  it('any two records swapped', async () => {
    const file = await seal(200, 64);
    const records = recordsOf(file);
    for (let i = 0; i < records.length; i++)
      for (let j = i + 1; j < records.length; j++) {
        const swapped = [...records];
        [swapped[i], swapped[j]] = [swapped[j]!, swapped[i]!];
        await expectRefused(file, Buffer.concat([header(file), ...swapped]));
      }
  });

  it('any reordering of the full records of the 64 KiB layout (property)', async () => {
    const file = await seal(4 * (ECE_RECORD_BYTES - 17));
    const records = recordsOf(file);
    await fc.assert(
      fc.asyncProperty(
        fc
          .shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 })
          .filter((o) => o.some((r, i) => r !== i)),
        async (order) => {
          await expectRefused(file, Buffer.concat([header(file), ...order.map((i) => records[i]!)]));
        },
      ),
      { numRuns: 23 },
    );
  });

  it('a record repeated, or taken from another file with the same secret', async () => {
    const file = await seal(200, 64);
    const other = await seal(200, 64);
    const theirs = Buffer.from(
      await eceEncryptBytes(new Uint8Array(other.plain), file.secret, { recordSize: file.recordSize }),
    );
    const records = recordsOf(file);
    const foreign = recordsOf({ ...file, sealed: theirs });
    await expectRefused(file, Buffer.concat([header(file), records[0]!, records[0]!, ...records.slice(2)]));
    await expectRefused(file, Buffer.concat([header(file), records[0]!, foreign[1]!, ...records.slice(2)]));
  });

  it('any bytes appended (property)', async () => {
    const short = await seal(200, 64); // the last record is not full: appended bytes join it
    const full = await seal(4 * 47, 64); // the last record is full: appended bytes follow it
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.boolean(),
        async (extra, onFull) => {
          const file = onFull ? full : short;
          const { emitted } = await expectRefused(
            file,
            Buffer.concat([file.sealed, extra]),
            ...(onFull ? (['extended'] as const) : []),
          );
          // The last record is not handed over before its end has been seen.
          expect(emitted.length).toBeLessThanOrEqual((file.records - 1) * file.per);
        },
      ),
      { numRuns: 80 },
    );
  });

  it('another valid record appended after the last one', async () => {
    const file = await seal(4 * 47, 64);
    const records = recordsOf(file);
    await expectRefused(file, Buffer.concat([file.sealed, records[1]!]), 'extended');
  });
});

describe('any mix of changes (property)', () => {
  it('is refused unless nothing changed', async () => {
    const file = await seal(300, 64);
    const change = fc.oneof(
      fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bits: fc.integer({ min: 1, max: 255 }) }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 80 }),
      }),
      fc.record({
        kind: fc.constant('delete' as const),
        at: fc.nat(),
        length: fc.integer({ min: 1, max: 80 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 4 }), async (changes) => {
        let bytes = Buffer.from(file.sealed);
        for (const c of changes) {
          const at = c.at % (bytes.length + 1);
          if (c.kind === 'flip' && at < bytes.length) bytes[at]! ^= c.bits;
          if (c.kind === 'cut') bytes = bytes.subarray(0, at);
          if (c.kind === 'insert')
            bytes = Buffer.concat([bytes.subarray(0, at), c.bytes, bytes.subarray(at)]);
          if (c.kind === 'delete')
            bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + c.length)]);
        }
        if (bytes.equals(file.sealed)) return;
        await expectRefused(file, bytes);
      }),
      { numRuns: 150 },
    );
  });
});
