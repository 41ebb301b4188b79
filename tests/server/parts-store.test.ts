// The store's writes in parts (server/storage/types.ts), on the store under test (disk, or S3 in the s3
// project): a part longer or shorter than its index allows is refused and leaves its index absent (also
// when a whole copy had arrived before), parts replace each other, nothing is visible before Done, and
// `heldParts` names the parts stored whole, never one still arriving.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { MIN_PART_BYTES } from '../../server/config/settings';
import { openDiskStorage } from '../../server/storage/disk';
import { openS3Storage } from '../../server/storage/s3';
import {
  PartLengthError,
  type PartsLayout,
  PartsMissingError,
  type Storage,
} from '../../server/storage/types';
import { s3ForTestServer, storageUnderTest } from './storage-under-test';
import { randomBytesOf } from './test-helpers';

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) await close();
});

async function store(): Promise<Storage> {
  const s3 = await s3ForTestServer();
  if (s3) {
    const storage = openS3Storage(s3);
    opened.push(() => storage.close());
    return storage;
  }
  const dir = await mkdtemp(join(tmpdir(), 'hushdrop-parts-'));
  const storage = await openDiskStorage(dir);
  opened.push(async () => {
    await storage.close();
    await rm(dir, { recursive: true, force: true });
  });
  return storage;
}

const layout: PartsLayout = { count: 2, partBytes: MIN_PART_BYTES, totalBytes: MIN_PART_BYTES + 1000 };
const bytes = randomBytesOf(layout.totalBytes, 3);
const part = (index: number) =>
  bytes.subarray(index * layout.partBytes, Math.min(bytes.length, (index + 1) * layout.partBytes));
const from = (data: Uint8Array) => Readable.from([Buffer.from(data)]);

describe('a write in parts', () => {
  it('refuses a part longer or shorter than its index allows and keeps nothing of it', async () => {
    const { blobs } = await store();
    const id = 'partsStoreTest1';
    const handle = await blobs.beginParts(id);
    const longer = Buffer.concat([Buffer.from(part(1)), Buffer.from([1])]);
    await expect(blobs.putPart(id, handle, layout, 1, from(longer))).rejects.toBeInstanceOf(PartLengthError);
    await expect(blobs.putPart(id, handle, layout, 1, from(part(1).subarray(1)))).rejects.toBeInstanceOf(
      PartLengthError,
    );
    await expect(blobs.putPart(id, handle, layout, 0, from(part(1)))).rejects.toThrow(
      /has 1000 bytes, not 5242880/,
    );
    expect(await blobs.heldParts(id, handle, layout)).toEqual([]);

    // Whole parts, in any order, after the refused ones.
    await blobs.putPart(id, handle, layout, 1, from(part(1)));
    expect(await blobs.heldParts(id, handle, layout)).toEqual([1]);
    await blobs.putPart(id, handle, layout, 0, from(part(0)));
    expect(await blobs.heldParts(id, handle, layout)).toEqual([0, 1]);
    // Nothing is visible before Done.
    const listed: string[] = [];
    for await (const blob of blobs.list()) listed.push(blob.id);
    expect(listed).not.toContain(id);

    expect(await blobs.completeParts(id, handle, layout)).toEqual({ size: layout.totalBytes });
    expect(Buffer.compare(await buffer(await blobs.get(id)), Buffer.from(bytes))).toBe(0);
    await blobs.delete(id);
  });

  it('finishes only with every part, and abort removes it all', async () => {
    const { blobs } = await store();
    const id = 'partsStoreTest2';
    const handle = await blobs.beginParts(id);
    await blobs.putPart(id, handle, layout, 1, from(part(1)));
    await expect(blobs.completeParts(id, handle, layout)).rejects.toBeInstanceOf(PartsMissingError);
    await blobs.abortParts(id, handle);
    await expect(blobs.putPart(id, handle, layout, 0, from(part(0)))).rejects.toThrow(/No upload in parts/);
    await expect(blobs.get(id)).rejects.toThrow(/No stored bytes/);
    // Twice is no error.
    await blobs.abortParts(id, handle);
  });

  it('holds a part only once it arrived whole: one still arriving is not held', async () => {
    const { blobs } = await store();
    const id = 'partsStoreTest4';
    const handle = await blobs.beginParts(id);
    await blobs.putPart(id, handle, layout, 1, from(part(1)));
    const body = new PassThrough();
    const put = blobs.putPart(id, handle, layout, 0, body);
    // Half of part 0 is taken by the store (the body read it), the rest not sent yet.
    body.write(part(0).subarray(0, 2 << 20));
    await until(
      async () => (body.readableLength === 0 && body.readableFlowing !== null ? true : undefined),
      'the store reads the part',
    );
    expect(await blobs.heldParts(id, handle, layout)).toEqual([1]);
    body.end(part(0).subarray(2 << 20));
    await put;
    expect(await blobs.heldParts(id, handle, layout)).toEqual([0, 1]);
    await blobs.abortParts(id, handle);
    await expect(blobs.heldParts(id, handle, layout)).rejects.toMatchObject({ kind: 'not-found' });
  });

  // On disk one process writes a session's parts, and an abort once waited for the parts in flight, whose
  // clients may never send the rest (issue 31, finding 2). S3's abort never waited: its store refuses the part.
  it.skipIf(storageUnderTest() === 's3')(
    'abort does not wait for a part whose body stopped coming: it cuts the body and the part fails',
    async () => {
      const { blobs } = await store();
      const id = 'partsStoreTest3';
      const handle = await blobs.beginParts(id);
      const body = new PassThrough();
      const written = new Promise<void>((resolve) =>
        body.write(part(0).subarray(0, 2 << 20), () => resolve()),
      );
      const put = blobs.putPart(id, handle, layout, 0, body);
      put.catch(() => {});
      await written;
      await blobs.abortParts(id, handle);
      expect(body.destroyed).toBe(true);
      await expect(put).rejects.toThrow();
      await expect(blobs.get(id)).rejects.toThrow(/No stored bytes/);
    },
  );
});
