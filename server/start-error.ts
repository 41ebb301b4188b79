// A problem that stops the server from starting (a folder it may not use, a log it cannot open, a port it
// cannot listen on), as one sentence for the operator that names the path or the setting.

import { userInfo } from 'node:os';
import { fsCode } from './storage/disk-errors';

export class StartError extends Error {
  override readonly name = 'StartError';
}

/** The user the server runs as, for sentences about permissions. */
export function serverUser(): string {
  try {
    return userInfo().username;
  } catch {
    return `uid ${process.getuid?.() ?? '?'}`;
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOENT: 'it does not exist',
  ENOTDIR: 'a part of its path is not a folder',
  EISDIR: 'it is a folder',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/** Why a file-system call failed, in words, with its path when that is not `path` itself. */
export function fsReason(err: unknown, path: string): string {
  const code = fsCode(err) ?? 'error';
  const where = (err as NodeJS.ErrnoException)?.path;
  const words = REASONS[code] ?? (err instanceof Error ? err.message : String(err));
  const user = code === 'EACCES' || code === 'EPERM' ? `, as user ${serverUser()}` : '';
  return `${words} (${code}${where && where !== path ? ` on ${where}` : ''}${user})`;
}
