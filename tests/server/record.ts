// Recording of every request (raw body bytes on disk) and a search through the recordings, so tests can
// prove a secret never reached the server.

import { closeSync, createWriteStream, openSync, readSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import type { RecordedRequest } from './types';

export class Recorder {
  readonly requests: RecordedRequest[] = [];
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'requests');
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  /**
   * Records `req` (entry n, body in requests/<n>.bin) and returns the stream its body must be read from:
   * every chunk is on disk before it is passed on, so a request's recording is complete by the time it is
   * answered.
   */
  tap(req: IncomingMessage): Readable {
    const n = this.requests.length;
    const entry: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: { ...req.headers },
      httpVersion: req.httpVersion,
      bodyPath: join(this.dir, `${n}.bin`),
      bodyBytes: 0,
    };
    this.requests.push(entry);
    const file = createWriteStream(entry.bodyPath);
    const tee = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        entry.bodyBytes += chunk.length;
        file.write(chunk, (err) => callback(err ?? null, chunk));
      },
      flush(callback) {
        file.end(() => callback());
      },
    });
    req.pipe(tee);
    // A dropped connection never ends the body: keep what came, and let readers see the stream close early.
    req.once('close', () => {
      if (req.complete) return;
      file.end();
      tee.destroy();
    });
    return tee;
  }
}

const CHUNK_BYTES = 1024 * 1024;
// One read buffer for every search (filling a fresh mebibyte per file and needle made a search of a few
// dozen small recordings take a second on a busy machine).
const readBuffer = Buffer.allocUnsafe(CHUNK_BYTES);

/** Byte offsets of every occurrence of `needle` in a file, read in chunks so any size works. */
function offsetsInFile(path: string, needle: Buffer): number[] {
  const hits: number[] = [];
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return hits;
  }
  try {
    const chunk = readBuffer;
    let carry = Buffer.alloc(0);
    let position = 0;
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      const window = Buffer.concat([carry, chunk.subarray(0, read)]);
      const windowStart = position - carry.length;
      for (let i = window.indexOf(needle); i !== -1; i = window.indexOf(needle, i + 1))
        hits.push(windowStart + i);
      position += read;
      // Keep one byte less than the needle, so a match across the chunk boundary is found exactly once.
      carry = Buffer.from(window.subarray(Math.max(0, window.length - (needle.length - 1))));
    }
  } finally {
    closeSync(fd);
  }
  return hits;
}

function headerText(request: RecordedRequest): string {
  const lines = [`${request.method} ${request.url}`];
  for (const [name, value] of Object.entries(request.headers)) {
    for (const v of Array.isArray(value) ? value : [value ?? '']) lines.push(`${name}: ${v}`);
  }
  return lines.join('\n');
}

function percentDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Where `needle` occurs in the recorded requests of `server`: in the request line and headers (as sent and
 * percent-decoded) and in the raw body bytes. Returns one description per hit, e.g.
 * `request 3 (POST /api/v1/Upload): body at byte 1234`; an empty array means the bytes never arrived.
 */
export function findInRecorded(
  server: { requests: readonly RecordedRequest[] },
  needle: Uint8Array,
): string[] {
  if (needle.length === 0) throw new Error('findInRecorded: empty needle');
  const wanted = Buffer.from(needle.buffer, needle.byteOffset, needle.length);
  const hits: string[] = [];
  server.requests.forEach((request, n) => {
    const label = `request ${n} (${request.method} ${request.url})`;
    const head = headerText(request);
    if (Buffer.from(head, 'utf8').includes(wanted)) hits.push(`${label}: request line or headers`);
    else if (Buffer.from(percentDecoded(head), 'utf8').includes(wanted)) {
      hits.push(`${label}: request line or headers (percent-decoded)`);
    }
    for (const offset of offsetsInFile(request.bodyPath, wanted))
      hits.push(`${label}: body at byte ${offset}`);
  });
  return hits;
}
