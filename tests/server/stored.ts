// What a test sees of the test server's store: an upload's record and bytes, and the blobs present, read
// through the storage interface (server/storage/types.ts) and not through files, so the same assertions
// check the disk store and the S3 store (tests/server/storage-under-test.ts).

import { readdir, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { DiskBlobs } from '../../server/storage/disk-blobs';
import { DiskRecords } from '../../server/storage/disk-records';
import { isStorageError } from '../../server/storage/errors';
import { S3Blobs } from '../../server/storage/s3-blobs';
import { createS3Client } from '../../server/storage/s3-client';
import type { S3Settings } from '../../server/storage/s3-config';
import type { BlobStore, Storage } from '../../server/storage/types';
import { parseUploadRecord } from '../../server/uploads/record';
import type { StoredBlobs, StoredUpload } from './types';

const PART = '.part';
/** A write in parts on disk: a folder of its own (server/storage/disk-parts.ts). */
const PARTS = '.parts';
const unfinished = (name: string) => name.endsWith(PART) || name.endsWith(PARTS);

async function blobExists(storage: Storage, blobId: string): Promise<boolean> {
  try {
    (await storage.blobs.get(blobId, { start: 0, end: 0 })).destroy();
    return true;
  } catch (err) {
    if (isStorageError(err, 'not-found')) return false;
    throw err;
  }
}

/** The record under `fileName` as the store holds it now (no expiry check, no view counted). */
export async function readStored(storage: Storage, fileName: string): Promise<StoredUpload | undefined> {
  const found = await storage.records.read(fileName);
  const record = found && parseUploadRecord(found.value);
  if (!record) return undefined;
  const { expiresAt: _expiresAt, createdAt: _createdAt, ...upload } = record;
  const { blobId } = record;
  return {
    ...upload,
    stream: () => storage.blobs.get(blobId),
    bytes: async () => buffer(await storage.blobs.get(blobId)),
    bytesStored: () => blobExists(storage, blobId),
    // A put under the same id replaces the blob on both stores (disk: rename over it; S3: a new object).
    replaceBytes: async (bytes) => {
      await storage.blobs.put(blobId, Readable.from([Buffer.from(bytes)]));
    },
  };
}

/** Finished blobs and unfinished writes: on disk the files folder, on S3 the listing and open uploads. */
export async function listStoredBlobs(store: BlobStore): Promise<StoredBlobs> {
  if (store instanceof DiskBlobs) {
    // The folder itself, so that a write in progress (its `.part` file) is seen too.
    const names = await readdir(store.dir);
    return {
      blobs: names.filter((n) => !unfinished(n)).sort(),
      inProgress: names.filter(unfinished).length,
    };
  }
  if (!(store instanceof S3Blobs)) throw new Error('The test server reads only the disk and S3 stores.');
  const blobs: string[] = [];
  for await (const blob of store.list()) blobs.push(blob.id);
  return { blobs: blobs.sort(), inProgress: (await store.openUploads()).length };
}

/**
 * Puts bytes under `key` in the store's records that no record reader can take, as a damaged disk or another
 * program could: on disk a file that is not JSON; on S3 (through the store's own bucket and prefix) the
 * same, or with `oversized` an object past the 1 MiB a record may have (what a 981 KB Start form once made).
 */
export async function plantUnreadableRecord(
  storage: Storage,
  s3: S3Settings | undefined,
  key: string,
  options: { oversized?: boolean } = {},
): Promise<void> {
  const body = options.oversized
    ? JSON.stringify({ write: 'x', value: { pad: 'p'.repeat(2 << 20) } })
    : 'not json';
  if (storage.records instanceof DiskRecords) return writeFile(storage.records.pathOf(key), body);
  if (!s3) throw new Error('The test server reads only the disk and S3 stores.');
  const client = createS3Client(s3);
  try {
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}records/${key}`, Body: body }),
    );
  } finally {
    client.destroy();
  }
}
