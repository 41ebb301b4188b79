// Bounded reading of request bodies: every route reads at most what it needs, and a body it does not want
// is answered and cut off rather than read to its end.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** How a drain ended: the body ended, the connection went away, or more than the cap arrived. */
export type DrainOutcome = 'ended' | 'gone' | 'over-cap';

/** Reads a body until it ends, goes away, or passes `capBytes`; keeps what it read when `keep`. */
function readUpTo(
  body: Readable,
  capBytes: number,
  keep: boolean,
): Promise<{ outcome: DrainOutcome; chunks: Buffer[] }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    if (body.readableEnded) return resolve({ outcome: 'ended', chunks });
    if (body.destroyed) return resolve({ outcome: 'gone', chunks });
    let seen = 0;
    const done = (outcome: DrainOutcome) => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('close', onClose);
      body.off('error', onClose);
      resolve({ outcome, chunks });
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > capBytes) {
        body.pause();
        done('over-cap');
      } else if (keep) chunks.push(chunk);
    };
    const onEnd = () => done('ended');
    const onClose = () => done(body.readableEnded ? 'ended' : 'gone');
    body.on('data', onData);
    body.once('end', onEnd);
    body.once('close', onClose);
    body.once('error', onClose);
    body.resume();
  });
}

/** Reads and discards the rest of a body, at most `capBytes` of it (then it stops reading). */
export async function drain(body: Readable, capBytes = Number.POSITIVE_INFINITY): Promise<DrainOutcome> {
  return (await readUpTo(body, capBytes, false)).outcome;
}

export function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}

/** Whether the request says it has a body at all. */
export function hasBody(req: IncomingMessage): boolean {
  const declared = declaredLength(req);
  return (declared !== undefined && declared > 0) || req.headers['transfer-encoding'] !== undefined;
}

export type SmallBody = { ok: true; bytes: Buffer } | { ok: false; why: 'too-large' | 'gone' };

/** The whole body if it is at most `limit` bytes; a larger one is refused before (or as soon as) it shows. */
export async function readSmallBody(req: IncomingMessage, body: Readable, limit: number): Promise<SmallBody> {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limit) return { ok: false, why: 'too-large' };
  const { outcome, chunks } = await readUpTo(body, limit, true);
  if (outcome === 'ended') return { ok: true, bytes: Buffer.concat(chunks) };
  return { ok: false, why: outcome === 'over-cap' ? 'too-large' : 'gone' };
}

/** How long a connection whose body was refused may go on sending before it is cut (nginx's lingering close). */
export const LINGER_MS = 2000;

/**
 * For an answer given before the body was read: once the answer is sent, whatever of the body still
 * arrives is discarded for a short while, then the connection is cut. A client that is still sending reads
 * the answer instead of a reset (closing at once, or saying `Connection: close`, makes Node reset the
 * socket with the body unread, and clients then see EPIPE), and a client sending forever is not read forever.
 */
export function closeAfterReply(req: IncomingMessage, res: ServerResponse, body: Readable): void {
  res.once('finish', () => {
    if (req.complete) return;
    const cut = setTimeout(() => {
      req.destroy();
      req.socket.destroy();
    }, LINGER_MS);
    cut.unref();
    body.once('end', () => clearTimeout(cut));
    body.resume();
  });
}
