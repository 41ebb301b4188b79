// Whether the store had room for the last write that needed it: a write refused for lack of room (disk
// full, a quota of the object store) is logged once and shown in /_hushdrop/health until a write of bytes
// succeeds again. Watched on the store's own write calls, so it holds for every route and both stores.

import { isStorageError, type StorageError } from './errors';
import type { BlobStore, RecordStore, Storage } from './types';

export interface NoRoom {
  /** When the first refused write of this spell happened (ms since the epoch). */
  since: number;
  /** The store's sentence for the latest one (no upload name in it). */
  message: string;
}

export class StorageRoom {
  private noRoom: NoRoom | null = null;

  constructor(private readonly now: () => number = Date.now) {}

  /** Null while the store has room, else since when and why it has not. */
  get full(): NoRoom | null {
    return this.noRoom;
  }

  noteFull(err: StorageError): void {
    if (!this.noRoom) {
      console.error(
        `hushdrop server: the storage is full (${err.message}); uploads that do not fit get 507 until one fits again.`,
      );
      this.noRoom = { since: this.now(), message: err.message };
    } else this.noRoom.message = err.message;
  }

  noteRoom(): void {
    if (!this.noRoom) return;
    this.noRoom = null;
    console.log('hushdrop server: the storage takes uploads again.');
  }
}

type Method<T> = (...args: never[]) => Promise<T>;

/** `call` with what its outcome says about room: a 'full' failure noted, and (for bytes) a success. */
function watched<T>(room: StorageRoom, call: Method<T>, successMeansRoom: boolean): Method<T> {
  return async (...args) => {
    try {
      const result = await call(...args);
      if (successMeansRoom) room.noteRoom();
      return result;
    } catch (err) {
      if (isStorageError(err, 'full')) room.noteFull(err);
      throw err;
    }
  };
}

/**
 * Makes `room` follow the store's writes: writes of bytes (a blob, a part, a rewrite) tell both ways; a
 * record written needs a page at most, so only its failure counts. The methods are replaced on the store's
 * own objects (they stay what they are: the tests' reading of the store depends on it).
 */
export function watchRoom(storage: Storage, room: StorageRoom): void {
  const blobs = storage.blobs as BlobStore & Record<string, unknown>;
  const records = storage.records as RecordStore<unknown> & Record<string, unknown>;
  const wrap = (target: Record<string, unknown>, name: string, successMeansRoom: boolean) => {
    const method = target[name];
    if (typeof method !== 'function') return;
    target[name] = watched(room, (method as Method<unknown>).bind(target), successMeansRoom);
  };
  for (const name of ['put', 'putPart', 'rewrite']) wrap(blobs, name, true);
  for (const name of ['beginParts', 'completeParts']) wrap(blobs, name, false);
  for (const name of ['create', 'update']) wrap(records, name, false);
}
