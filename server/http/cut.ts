// Cutting a request on the server's own account: a client too slow, a part past its deadline, a part whose
// upload was aborted or expired while it arrived. The client gets an answer if none was sent yet (it may
// be lost with the cut), then the request and its connection (HTTP/1.1) or its stream (HTTP/2) end, and
// the access log says why.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants, type Http2ServerRequest } from 'node:http2';
import { directReply, replyAppError } from './responses';

/** Why the server cut a request, as the access log names it. */
export type CutReason = 'slow-client' | 'part-deadline' | 'aborted' | 'expired';

const reasons = new WeakMap<IncomingMessage, CutReason>();

export function cutRequest(
  req: IncomingMessage,
  res: ServerResponse,
  reason: CutReason,
  answer?: { status: number; message: string },
): void {
  if (!reasons.has(req)) reasons.set(req, reason);
  if (answer && !res.headersSent && !res.destroyed) {
    // HTTP/2 has no Connection header (the stream's reset ends it).
    if (req.httpVersionMajor === 1) res.setHeader('Connection', 'close');
    replyAppError(directReply(res), answer.message, answer.status);
  }
  // The request too: once answered, Node no longer ends it when its socket goes, and its reader (a part
  // being stored) would wait for the rest of the body forever.
  if (req.httpVersionMajor === 2) {
    // RST_STREAM (CANCEL) after the answer: destroying the stream alone once it was answered leaves the
    // client's side open, still sending. The connection's other streams go on.
    (req as unknown as Http2ServerRequest).stream.close(constants.NGHTTP2_CANCEL);
    req.destroy();
  } else {
    req.destroy();
    req.socket?.destroy();
  }
}

/** Why the server cut `req`, if it did. */
export function cutReason(req: IncomingMessage): CutReason | undefined {
  return reasons.get(req);
}
