// One line per request, written when its answer is done. A line names what was asked for by its route
// (`download AbC12.png`, `delete AbC12.png`), never by the raw URL: a deletion link's key, a token, or a
// key someone pasted into a path or query can never reach the log. Fragments never reach a server at all.

import { createWriteStream } from 'node:fs';
import type { Writable } from 'node:stream';

export interface AccessEntry {
  at: number;
  address: string;
  method: string;
  /** The route and the upload's public name, if any. */
  what: string;
  /** The answer's status, or null when none was sent (`-` in the line). */
  status: number | null;
  /** Bytes written to the connection for this answer, headers included (HTTP/2: all its streams'). */
  bytes: number;
  ms: number;
  /**
   * Set when the request ended before its answer was complete: why, when the server cut it (a slow client,
   * a part past its deadline, a part of an aborted or expired upload), or true when the client went away.
   */
  cut?: string | true;
}

export type AccessLog = ((entry: AccessEntry) => void) & { close(): Promise<void> };

const METHOD = /^[A-Z]{1,16}$/;

export function formatAccess(entry: AccessEntry): string {
  const method = METHOD.test(entry.method) ? entry.method : 'OTHER';
  return (
    `${new Date(entry.at).toISOString()} ${entry.address} ${method} ${entry.what} ${entry.status ?? '-'} ` +
    `${entry.bytes} ${entry.ms}ms${entry.cut === undefined ? '' : entry.cut === true ? ' cut' : ` cut ${entry.cut}`}\n`
  );
}

/** `off`, `stdout`, or a file path (appended to). */
export function openAccessLog(target: string): AccessLog {
  if (target === 'off') return Object.assign(() => {}, { close: async () => {} });
  const out: Writable =
    target === 'stdout' ? process.stdout : createWriteStream(target, { flags: 'a', mode: 0o600 });
  const log = (entry: AccessEntry) => {
    out.write(formatAccess(entry));
  };
  return Object.assign(log, {
    close: () =>
      new Promise<void>((resolve) => {
        if (out === process.stdout) resolve();
        else out.end(() => resolve());
      }),
  });
}
