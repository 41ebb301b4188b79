// Receives a multipart upload with busboy, streaming the file part to disk (never whole in memory).

import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { FieldMap } from './fields';
import { drain } from './responses';

export interface ReceivedFile {
  /** Bytes as written to disk (after `transformFor`), to be kept or removed by the caller. */
  partPath: string;
  /** Bytes of the file part as received. */
  size: number;
  filename: string;
  /** The part's Content-Type; busboy reports `text/plain` when the part had none (RFC 7578's default). */
  mimeType: string;
}

export interface Received {
  fields: FieldMap;
  /** The first part named `file` (any case) that has a non-empty filename; null when there was none. */
  file: ReceivedFile | null;
  /** The file part went over maxBytes; nothing was kept. */
  tooLarge: boolean;
  /** The body was not a parseable multipart form. */
  malformed: boolean;
  /** The connection went away before the body ended; nobody is left to answer. */
  aborted: boolean;
}

export interface ReceiveOptions {
  /** Where to put the bytes while they arrive. */
  partPath: () => string;
  maxBytes: number;
  /**
   * Called when the file part starts, with the fields seen so far; may return a transform (the cipher) the
   * bytes go through on their way to disk.
   */
  transformFor?: (fieldsSoFar: FieldMap) => Transform | null;
}

// Room for form fields and part headers before a declared Content-Length alone proves the file too large.
export const FORM_OVERHEAD_ALLOWANCE = 64 * 1024;

/** Bytes the file on disk may have queued before the body is paused. */
const WRITE_QUEUE_BYTES = 4 * 1024 * 1024;

/** Resolves once the whole body has been consumed (or the connection is gone) and the file is on disk. */
export function receiveUpload(
  body: Readable,
  headers: IncomingHttpHeaders,
  options: ReceiveOptions,
): Promise<Received> {
  return new Promise((resolve) => {
    const fields: FieldMap = new Map();
    const writes: Promise<unknown>[] = [];
    const partPaths: string[] = [];
    let file: ReceivedFile | null = null;
    let tooLarge = false;
    let malformed = false;
    let aborted = false;
    let settled = false;
    let bodyEnded = false;
    let parser: busboy.Busboy | undefined;

    const finish = async () => {
      if (settled) return;
      settled = true;
      await Promise.allSettled(writes);
      const failed = aborted || malformed || tooLarge;
      // Extra file parts were only drained; a failed request keeps nothing at all.
      for (const path of partPaths) {
        if (failed || path !== file?.partPath) await rm(path, { force: true });
      }
      resolve({ fields, file: failed ? null : file, tooLarge, malformed, aborted });
    };

    body.once('end', () => {
      bodyEnded = true;
    });
    const onGone = () => {
      if (bodyEnded || settled) return;
      aborted = true;
      parser?.destroy();
      void finish();
    };
    body.once('close', onGone);
    body.once('error', onGone);

    const bb = createParser(headers);
    if (!bb) {
      // Not multipart at all: like the real server, that is simply a request without a file.
      void drain(body).then(finish);
      return;
    }
    parser = bb;

    bb.on('field', (name, value) => {
      const key = name.toLowerCase();
      if (!fields.has(key)) fields.set(key, value);
    });

    bb.on('file', (name, stream, info) => {
      const filename = info.filename;
      if (name.toLowerCase() !== 'file' || file !== null || !filename || tooLarge) {
        stream.resume();
        return;
      }
      const current: ReceivedFile = {
        partPath: options.partPath(),
        size: 0,
        filename,
        mimeType: info.mimeType,
      };
      file = current;
      partPaths.push(current.partPath);
      // Counts every byte; past the limit it drops them, so busboy keeps draining the body for the 413.
      const limiter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          current.size += chunk.length;
          if (current.size > options.maxBytes) {
            tooLarge = true;
            callback();
          } else callback(null, chunk);
        },
      });
      const transform = options.transformFor?.(new Map(fields)) ?? new PassThrough();
      // Deep queues (here and in the parser): with the 16 KiB defaults an HTTP/2 body was paused and
      // resumed every few frames; curl --http2 took 3–5 s per 256 MiB here, 1.1–2.0 s with 4 MiB.
      writes.push(
        pipeline(
          stream,
          limiter,
          transform,
          createWriteStream(current.partPath, { highWaterMark: WRITE_QUEUE_BYTES }),
        ),
      );
    });

    bb.once('error', () => {
      if (aborted) return;
      malformed = true;
      body.unpipe(bb);
      void drain(body).then(finish);
    });
    bb.once('close', () => {
      if (!malformed) void finish();
    });
    body.pipe(bb);
  });
}

function createParser(headers: IncomingHttpHeaders): busboy.Busboy | undefined {
  try {
    return busboy({
      headers,
      defParamCharset: 'utf8',
      limits: { fieldSize: 1024 * 1024 },
      highWaterMark: WRITE_QUEUE_BYTES,
      fileHwm: WRITE_QUEUE_BYTES,
    });
  } catch {
    return undefined;
  }
}
