// The one error type storage implementations throw for failures of the store itself, with what the
// server should answer. Implementations map their own errors (ENOSPC, EACCES, SDK errors) into it.

/**
 * - `full`: no space left (disk full, quota) → 507.
 * - `unavailable`: the store cannot be reached, refused the operation, or took too long → 503.
 * - `not-found`: the blob or record is not there (only from `blobs.get`).
 * - `unreadable`: a record is there but cannot be read (damaged, too large, not one of this server's) → 503
 *   when it is asked for; listing skips it (RecordStore.list's `onUnreadable`).
 */
export type StorageErrorKind = 'full' | 'unavailable' | 'not-found' | 'unreadable';

export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(
    readonly kind: StorageErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isStorageError(err: unknown, kind?: StorageErrorKind): err is StorageError {
  return err instanceof StorageError && (kind === undefined || err.kind === kind);
}
