// The disk store, the embedded default: <dataDir>/files (blobs), <dataDir>/records (records), and a lock
// so that only one server process uses the folder. Everything is created private to the server's user
// (records hold the keys the server keeps and the deletion keys).

import { access, constants, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DiskBlobs } from './disk-blobs';
import { diskError } from './disk-errors';
import { lockDataDir } from './disk-lock';
import { DiskRecords } from './disk-records';
import type { Storage } from './types';

export interface DiskStorage extends Storage {
  blobs: DiskBlobs;
  records: DiskRecords;
  readonly dataDir: string;
}

export async function openDiskStorage(dataDir: string): Promise<DiskStorage> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const release = await lockDataDir(dataDir);
  try {
    const blobs = new DiskBlobs(join(dataDir, 'files'));
    const records = new DiskRecords(join(dataDir, 'records'));
    await blobs.init();
    await records.init();
    return {
      blobs,
      records,
      dataDir,
      description: `disk ${dataDir}`,
      async check() {
        try {
          await access(records.dir, constants.R_OK | constants.W_OK);
          await access(blobs.dir, constants.R_OK | constants.W_OK);
        } catch (err) {
          throw diskError(err, 'checking the data folder');
        }
      },
      close: release,
    };
  } catch (err) {
    await release();
    throw err;
  }
}
