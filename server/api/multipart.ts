// Receives a multipart upload with busboy, streaming the file part into the store (never whole in memory),
// with every part of the form bounded: field sizes and counts, the file's size.

import type { IncomingHttpHeaders } from 'node:http';
import type { Readable, Writable } from 'node:stream';
import busboy from 'busboy';
import { drain } from '../http/body';
import type { FieldMap } from './fields';

/** Where the file part's bytes go: `input` is written to and ended (or destroyed), `done` settles after. */
export interface FileSink<T> {
  input: Writable;
  done: Promise<T>;
}

export interface ReceivedFile<T> {
  /** What the sink stored. */
  stored: T;
  /** Bytes of the file part as received. */
  size: number;
  filename: string;
  /** The part's Content-Type; busboy reports `text/plain` when the part had none (RFC 7578's default). */
  mimeType: string;
}

export interface Received<T> {
  fields: FieldMap;
  /** The first part named `file` (any case) with a non-empty filename; null when there was none or on failure. */
  file: ReceivedFile<T> | null;
  /** Bytes the file part had (all of them, also past the limit). */
  fileBytes: number;
  /** The file part went over maxBytes; nothing was kept. */
  tooLarge: boolean;
  /** The body was not a parseable multipart form (as the real server, that is a request without a file). */
  malformed: boolean;
  /** The form broke one of its limits (too many or too long fields): a sentence for the client. */
  formProblem: string | null;
  /** The connection went away before the body ended; nobody is left to answer. */
  aborted: boolean;
  /** The sink failed (the store's error); nothing was kept. */
  storeError: unknown;
}

export interface ReceiveOptions<T> {
  maxBytes: number;
  /** Called when the file part starts, with the fields seen so far. */
  openFile(fieldsSoFar: FieldMap): FileSink<T>;
  /** Removes what a sink stored, for a request that in the end keeps nothing. */
  discard(stored: T): Promise<void>;
}

/** Room for form fields and part headers before a declared Content-Length alone proves the file too large. */
export const FORM_OVERHEAD_ALLOWANCE = 64 * 1024;

/** Queue depth of the parser (deep queues: with 16 KiB ones an HTTP/2 body was paused every few frames). */
const PARSER_QUEUE_BYTES = 4 * 1024 * 1024;
/** Form limits: the API's fields are short (a key is 32 characters); a form that needs more is not one. */
const FORM_LIMITS = { fieldSize: 16 * 1024, fields: 64, fieldNameSize: 200, parts: 100, headerPairs: 20 };
/**
 * Bytes of all the fields' names and values together, for the one-request upload and a Start alike: what a
 * session record keeps of them stays small, and no form costs the server more than this to bind.
 */
export const FIELDS_TOTAL_BYTES = 64 * 1024;

class TooLargeError extends Error {}

/** Resolves once the whole body has been consumed (or the connection is gone) and the file is stored. */
export function receiveUpload<T>(
  body: Readable,
  headers: IncomingHttpHeaders,
  options: ReceiveOptions<T>,
): Promise<Received<T>> {
  return new Promise((resolve) => {
    const fields: FieldMap = new Map();
    let file: Omit<ReceivedFile<T>, 'stored'> | null = null;
    let stored: Promise<T> | null = null;
    let fileBytes = 0;
    let tooLarge = false;
    let formProblem: string | null = null;
    let malformed = false;
    let aborted = false;
    let settled = false;
    let bodyEnded = false;
    let parser: busboy.Busboy | undefined;
    let stopFile: ((err?: Error) => void) | undefined;

    const finish = async () => {
      if (settled) return;
      settled = true;
      let result: T | undefined;
      let storeError: unknown = null;
      if (stored) {
        try {
          result = await stored;
        } catch (err) {
          // Our own abort (too large, form broken, client gone) is not the store's failure.
          if (!(err instanceof TooLargeError) && !tooLarge && !aborted && !malformed && !formProblem)
            storeError = err;
        }
      }
      const failed = aborted || tooLarge || malformed || formProblem !== null || storeError !== null;
      if (failed && result !== undefined) await options.discard(result);
      resolve({
        fields,
        file: !failed && file && result !== undefined ? { ...file, stored: result } : null,
        fileBytes,
        tooLarge,
        malformed,
        formProblem,
        aborted,
        storeError,
      });
    };

    body.once('end', () => {
      bodyEnded = true;
    });
    const onGone = () => {
      if (bodyEnded || settled) return;
      aborted = true;
      stopFile?.(new Error('The connection went away.'));
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
    const broken = (sentence: string) => {
      formProblem ??= sentence;
    };

    let fieldBytes = 0;
    bb.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        broken(`The form field "${name.slice(0, 40)}" is too long (at most ${FORM_LIMITS.fieldSize} bytes).`);
        return;
      }
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes > FIELDS_TOTAL_BYTES) {
        broken(`The form's fields are too long together (at most ${FIELDS_TOTAL_BYTES / 1024} KiB in all).`);
        return;
      }
      const key = name.toLowerCase();
      if (!fields.has(key)) fields.set(key, value);
    });
    bb.on('fieldsLimit', () => broken(`The form has too many fields (at most ${FORM_LIMITS.fields}).`));
    bb.on('partsLimit', () => broken(`The form has too many parts (at most ${FORM_LIMITS.parts}).`));

    bb.on('file', (name, stream, info) => {
      if (name.toLowerCase() !== 'file' || file !== null || !info.filename || formProblem || malformed) {
        stream.resume();
        return;
      }
      file = { size: 0, filename: info.filename, mimeType: info.mimeType };
      const current = file;
      const sink = options.openFile(new Map(fields));
      stored = sink.done;
      // Nothing ever waits on `done` before finish(); keep an early failure from being "unhandled".
      sink.done.catch(() => {});
      let stopped = false;
      const stop = (err?: Error) => {
        if (stopped) return;
        stopped = true;
        if (err) sink.input.destroy(err);
        // Whatever else comes is read and dropped, so the body can still be consumed for the answer.
        stream.resume();
      };
      stopFile = stop;
      // If the sink fails (the store is full, say), the rest of the part is drained and dropped.
      sink.input.once('close', () => stop());
      sink.input.once('error', () => stop());
      stream.on('data', (chunk: Buffer) => {
        fileBytes += chunk.length;
        current.size = fileBytes;
        if (stopped) return;
        if (fileBytes > options.maxBytes) {
          tooLarge = true;
          stop(new TooLargeError('too large'));
          return;
        }
        if (!sink.input.write(chunk)) {
          stream.pause();
          sink.input.once('drain', () => stream.resume());
        }
      });
      stream.once('end', () => {
        if (!stopped) sink.input.end();
      });
      stream.once('error', (err) => stop(err));
    });

    bb.once('error', () => {
      if (aborted) return;
      malformed = true;
      // The file part being stored never ends now: abort it.
      stopFile?.(new Error('malformed form'));
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
      limits: FORM_LIMITS,
      highWaterMark: PARSER_QUEUE_BYTES,
      fileHwm: PARSER_QUEUE_BYTES,
    });
  } catch {
    return undefined;
  }
}
