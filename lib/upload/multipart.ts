/**
 * The upload's multipart/form-data body written out by hand, for a file part whose bytes arrive as
 * a stream (FormData takes only Blobs). Same layout as browsers give FormData (HTML's
 * multipart/form-data encoding, RFC 7578): the fields in order, then the file part, CRLF line ends,
 * names escaped (`"` → %22, CR → %0D, LF → %0A) and sent as UTF-8.
 */
import { type RandomSource, randomText } from '../crypto/text';
import type { UploadRequest } from './types';

export interface StreamBody {
  stream: ReadableStream<Uint8Array>;
  /** `multipart/form-data; boundary=…` */
  contentType: string;
  /** Bytes in all: the form around the file plus `fileSize`. */
  length: number;
}

const utf8 = new TextEncoder();
const escapeName = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
// Field values are sent with CRLF line ends, as browsers normalise them.
const normaliseLines = (value: string) => value.replace(/\r\n|\r|\n/g, '\r\n');

/** A boundary that will not occur in any file: 24 random letters and digits (143 bits), as browsers reckon. */
export function randomBoundary(random?: RandomSource): string {
  return `----Hushdrop${randomText(24, random)}`;
}

/** Everything before and after the file's bytes. */
export function multipartFrame(
  request: UploadRequest,
  boundary: string,
  fileType = 'application/octet-stream',
): { head: Uint8Array; tail: Uint8Array; contentType: string } {
  // Letters, digits and '-' need no quoting in the Content-Type header.
  if (!/^[0-9A-Za-z-]{1,70}$/.test(boundary)) throw new RangeError('Not a usable multipart boundary.');
  let head = '';
  for (const [name, value] of request.fields)
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(name)}"\r\n\r\n${normaliseLines(value)}\r\n`;
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(request.fileField)}"; ` +
    `filename="${escapeName(request.fileName)}"\r\nContent-Type: ${fileType}\r\n\r\n`;
  return {
    head: utf8.encode(head),
    tail: utf8.encode(`\r\n--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * The whole body as a stream: the frame's head, the file's bytes as `file` yields them (exactly
 * `fileSize` of them, or the stream fails), then the tail. Pulled only as the reader asks
 * (no queue of its own), so the file stream's own queue is what holds bytes back.
 */
export function multipartStream(
  request: UploadRequest,
  file: ReadableStream<Uint8Array>,
  fileSize: number,
  boundary: string,
): StreamBody {
  const { head, tail, contentType } = multipartFrame(request, boundary);
  const reader = file.getReader();
  let stage: 'head' | 'file' | 'done' = 'head';
  let seen = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (stage === 'head') {
          stage = 'file';
          controller.enqueue(head);
          return;
        }
        if (stage === 'done') return;
        const { value, done } = await reader.read();
        if (!done) {
          seen += value.length;
          if (seen > fileSize) throw new Error(`The file gave more than its ${fileSize} bytes.`);
          controller.enqueue(value);
          return;
        }
        if (seen !== fileSize) throw new Error(`The file gave ${seen} of its ${fileSize} bytes.`);
        stage = 'done';
        controller.enqueue(tail);
        controller.close();
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
  return { stream, contentType, length: head.length + fileSize + tail.length };
}
