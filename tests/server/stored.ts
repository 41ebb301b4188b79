// What a test sees of the test server's store: an upload's record and bytes, and the blobs present, read
// through the storage interface (server/storage/types.ts) and not through files, so the same assertions
// check the disk store and the S3 store (tests/server/storage-under-test.ts).

import { readdir } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { DiskBlobs } from '../../server/storage/disk-blobs';
import { isStorageError } from '../../server/storage/errors';
import { S3Blobs } from '../../server/storage/s3-blobs';
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
