// One server process per data folder: the disk store's compare-and-swap holds only within one process,
// so a second server on the same folder is refused at start with a sentence, not allowed to corrupt it.

import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fsCode } from './disk-errors';

export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

const LOCK_FILE = 'server.lock';
// Folders locked by this process (a pid check cannot tell two servers of one process apart).
const heldHere = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return fsCode(err) === 'EPERM';
  }
}

/** Takes the folder's lock (a stale one, left by a process that is gone, is taken over); returns its release. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  if (heldHere.has(path))
    throw new DataDirInUseError(`The data folder ${dir} is already used by this process.`);
  for (;;) {
    try {
      await writeFile(path, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if (fsCode(err) !== 'EEXIST') throw err;
    }
    const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw new DataDirInUseError(
        `The data folder ${dir} is in use by another Hushdrop server (process ${pid}). ` +
          `Stop it, or choose another data folder. If no such server runs, remove ${path}.`,
      );
    }
    await rm(path, { force: true });
  }
  heldHere.add(path);
  return async () => {
    heldHere.delete(path);
    await rm(path, { force: true });
  };
}
