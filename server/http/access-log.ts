// One line per request, written when its answer is done. A line names what was asked for by its route
// (`download AbC12.png`, `delete AbC12.png`), never by the raw URL: a deletion link's key, a token, or a
// key someone pasted into a path or query can never reach the log. Fragments never reach a server at all.

import { createWriteStream, existsSync, openSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { fsReason, StartError } from '../start-error';

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

export type AccessLog = ((entry: AccessEntry) => void) & {
  /**
   * Opens the file again by its name (SIGHUP, after logrotate moved it): later lines go to the new file;
   * the old one gets what was queued for it, then is closed. Never throws: a file that cannot be opened
   * now is said on stderr (false), and lines keep going to the old one.
   */
  reopen(): boolean;
  close(): Promise<void>;
};

const METHOD = /^[A-Z]{1,16}$/;

export function formatAccess(entry: AccessEntry): string {
  const method = METHOD.test(entry.method) ? entry.method : 'OTHER';
  return (
    `${new Date(entry.at).toISOString()} ${entry.address} ${method} ${entry.what} ${entry.status ?? '-'} ` +
    `${entry.bytes} ${entry.ms}ms${entry.cut === undefined ? '' : entry.cut === true ? ' cut' : ` cut ${entry.cut}`}\n`
  );
}

/** Opens the log file for appending, at once, so that a start fails before it says it listens. */
function openLogFile(path: string): WriteStream {
  let fd: number;
  try {
    fd = openSync(path, 'a', 0o600);
  } catch (err) {
    const folder = dirname(path);
    const why = existsSync(folder) ? fsReason(err, path) : `its folder ${folder} does not exist`;
    throw new StartError(
      `The access log ${path} cannot be opened: ${why}. Make ${folder} a folder the server's user may ` +
        'write, or set ACCESS_LOG (accessLog) to another file, `stdout` or `off`.',
    );
  }
  const stream = createWriteStream(path, { fd });
  // A log that fails later (its disk, its permissions) costs its lines, never the server.
  let told = false;
  stream.on('error', (err) => {
    if (!told)
      console.error(`hushdrop server: writing the access log ${path} failed: ${fsReason(err, path)}.`);
    told = true;
  });
  return stream;
}

/** `off`, `stdout`, or a file path (appended to; throws a StartError when it cannot be opened). */
export function openAccessLog(target: string): AccessLog {
  if (target === 'off') return Object.assign(() => {}, { reopen: () => true, close: async () => {} });
  if (target === 'stdout') {
    return Object.assign((entry: AccessEntry) => void process.stdout.write(formatAccess(entry)), {
      reopen: () => true,
      close: async () => {},
    });
  }
  let out = openLogFile(target);
  const log = (entry: AccessEntry) => {
    out.write(formatAccess(entry));
  };
  const end = (stream: WriteStream) => new Promise<void>((resolve) => stream.end(() => resolve()));
  return Object.assign(log, {
    reopen() {
      let next: WriteStream;
      try {
        next = openLogFile(target);
      } catch (err) {
        console.error(`hushdrop server: ${(err as Error).message} Lines go on to the file opened before.`);
        return false;
      }
      void end(out);
      out = next;
      return true;
    },
    close: () => end(out),
  });
}
