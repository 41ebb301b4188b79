// The disk store, the embedded default: <dataDir>/files (blobs), <dataDir>/records (records), and a lock
// so that only one server process uses the folder. Everything is created private to the server's user
// (records hold the keys the server keeps and the deletion keys).

import { access, constants, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fsReason, StartError } from '../start-error';
import { DiskBlobs } from './disk-blobs';
import { diskError, fsCode } from './disk-errors';
import { DataDirInUseError, lockDataDir } from './disk-lock';
import { DiskRecords } from './disk-records';
import type { Storage } from './types';

export interface DiskStorage extends Storage {
  blobs: DiskBlobs;
  records: DiskRecords;
  readonly dataDir: string;
}

/** A data folder the server may not use, as one sentence that names it (never "cannot listen"). */
function dataDirError(err: unknown, dataDir: string): unknown {
  if (err instanceof DataDirInUseError || fsCode(err) === undefined) return err;
  return new StartError(
    `The data folder ${dataDir} cannot be used: ${fsReason(err, dataDir)}. Give it to the server's user, ` +
      'or set DATA_DIR (dataDir) to a folder that user may write.',
  );
}

export async function openDiskStorage(dataDir: string): Promise<DiskStorage> {
  let release: () => Promise<void>;
  try {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    release = await lockDataDir(dataDir);
  } catch (err) {
    throw dataDirError(err, dataDir);
  }
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
    throw dataDirError(err, dataDir);
  }
}
