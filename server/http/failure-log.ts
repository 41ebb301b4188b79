// What the server writes to its error output about a request (or a sweep) that failed: the error's kind and
// where it happened. Never the message of an error that is not the server's own StorageError (whose
// sentences name no upload): an fs or SDK message may hold a path with an upload's name or a record key (a
// name alone opens an upload whose key the server keeps), and this output often ends up in logs kept
// elsewhere.

import { StorageError } from '../storage/errors';

/** The error as it may be logged: its name, its code and system call (fs errors), and its stack frames. */
export function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return `a thrown ${typeof err}`;
  const code = (err as NodeJS.ErrnoException).code;
  const syscall = (err as NodeJS.ErrnoException).syscall;
  const frames = (err.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
  const head =
    err instanceof StorageError
      ? `${err.name} (${err.kind}): ${err.message}`
      : [err.name, code && `code ${code}`, syscall && `in ${syscall}`].filter(Boolean).join(', ');
  const cause = err.cause instanceof Error ? `\ncaused by ${describeFailure(err.cause)}` : '';
  return `${head}${frames ? `\n${frames}` : ''}${cause}`;
}
