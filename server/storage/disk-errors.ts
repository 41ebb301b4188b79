// Maps file-system errors to StorageError, so callers see "full" or "unavailable" and a sentence.

import { StorageError } from './errors';

const FULL = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

export function fsCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}

/** The StorageError for an fs failure while doing `what` (e.g. "storing an upload"). */
export function diskError(err: unknown, what: string): StorageError {
  if (err instanceof StorageError) return err;
  const code = fsCode(err);
  if (code !== undefined && FULL.has(code)) {
    return new StorageError('full', `The server's disk is full (${code} while ${what}).`, { cause: err });
  }
  // The code, not the message: an fs message holds the file's path, whose name may be an upload's.
  const detail = code ?? (err instanceof Error ? err.name : typeof err);
  return new StorageError('unavailable', `The server's disk failed (${detail}) while ${what}.`, {
    cause: err,
  });
}
