// The store of a server a test runs in a process of its own (product-cli.ts, or the test server's CLI
// main.ts): the disk store in its data folder on the `unit` project, and on the `s3` project
// (HUSHDROP_TEST_STORAGE=s3) the shared Ceph under a fresh prefix. The process gets the store as an
// operator gives it (STORAGE_URL and the AWS_* variables, server/README.md); the test reads it through the
// storage interface, so that the same assertions check both stores.

import { join } from 'node:path';
import { DiskBlobs } from '../../server/storage/disk-blobs';
import { DiskRecords } from '../../server/storage/disk-records';
import { openS3Storage } from '../../server/storage/s3';
import type { BlobStore, JsonRecord, RecordStore } from '../../server/storage/types';
import { type ProductServer, startProductServer } from './product-cli';
import { cephEnv, s3ForTestServer } from './storage-under-test';
import { listStoredBlobs } from './stored';
import type { StoredBlobs } from './types';

export interface ProductStore {
  /** The variables that put a server process on this store; DATA_DIR too (accounts.json stays there on S3). */
  env: Record<string, string>;
  /** How the start line names it, after "data in ": the data folder, or `s3://bucket/prefix/ at origin`. */
  where: string;
  /** The names of the upload records, the finished blobs and the writes in progress, now. */
  contents(): Promise<StoredBlobs & { records: string[] }>;
  /** Releases the S3 client (the disk view holds nothing). */
  close(): Promise<void>;
}

async function contentsOf(
  blobs: BlobStore,
  records: RecordStore<JsonRecord>,
): Promise<StoredBlobs & { records: string[] }> {
  const names: string[] = [];
  // The daily byte quota's records (a product server has quotas by default) are not uploads.
  for await (const record of records.list()) if (!record.key.startsWith('quota-')) names.push(record.key);
  return { records: names.sort(), ...(await listStoredBlobs(blobs)) };
}

/** The store for a server process whose data folder is `dataDir`. */
export async function productStore(dataDir: string): Promise<ProductStore> {
  const s3 = await s3ForTestServer();
  if (!s3) {
    // Reads only, beside the process that owns the folder: openDiskStorage would take its lock, and
    // the stores' init() would tidy up files that process is writing.
    const blobs = new DiskBlobs(join(dataDir, 'files'));
    const records = new DiskRecords(join(dataDir, 'records'));
    return {
      env: { DATA_DIR: dataDir },
      where: dataDir,
      contents: () => contentsOf(blobs, records),
      close: async () => {},
    };
  }
  const storage = openS3Storage(s3);
  return {
    env: { DATA_DIR: dataDir, STORAGE_URL: `s3://${s3.bucket}/${s3.prefix}`, ...cephEnv() },
    where: storage.description,
    contents: () => contentsOf(storage.blobs, storage.records),
    close: () => storage.close(),
  };
}

/**
 * Starts the product on `store` (with `env` on top) and checks that its start line names that store, so
 * that a test meant for S3 cannot pass on a disk store by mistake.
 */
export async function startProductOn(
  store: ProductStore,
  env: Record<string, string>,
): Promise<ProductServer> {
  const server = await startProductServer({ ...store.env, ...env });
  const started = server.output.find((line) => line.includes(' listening on '));
  if (!started?.includes(`data in ${store.where};`)) {
    await server.stop('SIGKILL');
    throw new Error(`The server was to keep its data in ${store.where}, but said: ${started}`);
  }
  return server;
}
