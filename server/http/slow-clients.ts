// Cuts HTTP/1.1 requests whose client is too slow: one that sends its body, or reads the answer, at less
// than `minBytes` per `windowMs` (one byte a second, say) would otherwise hold a connection, a file and a
// request slot for as long as it likes. Only time spent waiting on the client counts: while the server
// itself is busy (writing to its disk, hashing a token) nobody is cut. Node's headersTimeout covers the
// headers; HTTP/2 streams (when the server terminates TLS itself) rely on the session's idle timeout.

import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SlowClientRule {
  windowMs: number;
  minBytes: number;
}

/** Watches one request until its response is done; `onSlow` is called (once) when the client is too slow. */
export function watchSlowClient(
  req: IncomingMessage,
  res: ServerResponse,
  rule: SlowClientRule,
  onSlow: () => void,
): void {
  if (req.httpVersionMajor !== 1 || rule.windowMs <= 0) return;
  const socket = req.socket;
  let read = socket.bytesRead;
  let written = socket.bytesWritten;
  const timer = setInterval(() => {
    const readNow = socket.bytesRead;
    const writtenNow = socket.bytesWritten;
    // Waiting for body bytes: the body is not complete, and nothing of it sits unread on our side.
    const awaitingBody = !req.complete && req.readableLength === 0 && req.readableFlowing !== false;
    // Waiting for the client to take the answer: bytes of it are queued, unsent.
    const awaitingReader = socket.writableLength > 0 || (res.writableLength ?? 0) > 0;
    const slowSending = awaitingBody && readNow - read < rule.minBytes;
    const slowReading = awaitingReader && writtenNow - written < rule.minBytes;
    read = readNow;
    written = writtenNow;
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
