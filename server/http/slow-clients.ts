// Cuts requests whose client is too slow: one that sends its body, or reads the answer, at less than
// `minBytes` per `windowMs` (one byte a second, say) would otherwise hold a connection, a file, a part's
// write and a request slot for as long as it likes. Only time spent waiting on the client counts: while the
// server itself is busy (writing to its disk, hashing a token) nobody is cut. Node's headersTimeout covers
// HTTP/1.1 headers.
//
// HTTP/1.1 is measured on the connection (one request at a time). HTTP/2 (when the server terminates TLS
// itself) is measured per stream: one stalled stream is cut while the others of its connection go on, so a
// client that keeps its connection busy cannot hold a part write open with a stream that sends nothing.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export interface SlowClientRule {
  windowMs: number;
  minBytes: number;
}

/** What the watcher reads of one request: bytes received and sent so far, and whether the answer waits. */
interface Progress {
  /** The whole body has arrived (a request without one: at once). */
  bodyArrived(): boolean;
  received(): number;
  sent(): number;
  /** Bytes of the answer are queued, unsent: the server waits for the client to take them. */
  awaitingReader(): boolean;
}

function connectionProgress(req: IncomingMessage, res: ServerResponse): Progress {
  const socket = req.socket;
  return {
    bodyArrived: () => req.complete,
    received: () => socket.bytesRead,
    sent: () => socket.bytesWritten,
    awaitingReader: () => socket.writableLength > 0 || (res.writableLength ?? 0) > 0,
  };
}

function streamProgress(req: IncomingMessage, res: ServerResponse): Progress {
  const stream = (req as unknown as Http2ServerRequest).stream;
  let received = 0;
  // The compatibility layer already reads the stream (it is flowing): this only counts.
  stream.on('data', (chunk: Buffer) => {
    received += chunk.length;
  });
  // Every byte of the answer goes through res.write (res.end writes its last chunk with it); the stream's
  // queue holds what the client has not taken yet (its flow-control window is shut).
  let handed = 0;
  const h2res = res as unknown as Http2ServerResponse;
  const write = h2res.write;
  h2res.write = function (this: Http2ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) handed += Buffer.byteLength(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  return {
    // The request's own `complete` waits until the handler read the body, which a GET never does; the
    // stream's readable side ends once the client has sent all (END_STREAM).
    bodyArrived: () => req.complete || stream.readableEnded || stream.destroyed,
    received: () => received,
    sent: () => handed - stream.writableLength,
    awaitingReader: () => stream.writableLength > 0,
  };
}

/** Watches one request until its response is done; `onSlow` is called (once) when the client is too slow. */
export function watchSlowClient(
  req: IncomingMessage,
  res: ServerResponse,
  rule: SlowClientRule,
  onSlow: () => void,
): void {
  if (rule.windowMs <= 0) return;
  const progress = req.httpVersionMajor === 2 ? streamProgress(req, res) : connectionProgress(req, res);
  let received = progress.received();
  let sent = progress.sent();
  const timer = setInterval(() => {
    const receivedNow = progress.received();
    const sentNow = progress.sent();
    // Waiting for body bytes: the body is not complete, and nothing of it sits unread on our side.
    const awaitingBody = !progress.bodyArrived() && req.readableLength === 0 && req.readableFlowing !== false;
    const slowSending = awaitingBody && receivedNow - received < rule.minBytes;
    const slowReading = progress.awaitingReader() && sentNow - sent < rule.minBytes;
    received = receivedNow;
    sent = sentNow;
    if (slowSending || slowReading) {
      stop();
      onSlow();
    }
  }, rule.windowMs);
  timer.unref();
  const stop = () => clearInterval(timer);
  res.once('close', stop);
  res.once('finish', stop);
}
