// How both record stores list: a record that is there but cannot be read is skipped and told, so that one
// damaged record (a crash, a hand edit, an object another program put there) never stops the sweeper.

import { isStorageError } from './errors';
import type { JsonRecord, ListOptions, Versioned } from './types';

/** The record, or null when it is gone or unreadable (then told to `onUnreadable`): what a listing yields. */
export async function readOrSkip(
  records: { read(key: string): Promise<Versioned<JsonRecord> | null> },
  key: string,
  options: ListOptions,
): Promise<Versioned<JsonRecord> | null> {
  try {
    return await records.read(key);
  } catch (err) {
    if (!isStorageError(err, 'unreadable')) throw err;
    options.onUnreadable?.(key, err);
    return null;
  }
}
