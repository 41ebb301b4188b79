// Getting the stored bytes: one POST to the address the page names (it uses up one download; a
// GET of the link never does), and a running count of what has gone through.
import type { FailReason } from './protocol';

export type Stored =
  | { ok: true; body: ReadableStream<Uint8Array> }
  | { ok: false; reason: FailReason; status?: number };

export async function fetchStored(bytesUrl: string): Promise<Stored> {
  let res: Response;
  try {
    res = await fetch(bytesUrl, {
      method: 'POST',
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    return { ok: false, reason: 'unreachable' };
  }
  if (res.status === 404 || res.status === 410) return { ok: false, reason: 'gone', status: res.status };
  if (!res.ok || !res.body) return { ok: false, reason: 'http', status: res.status };
  return { ok: true, body: res.body };
}

/**
 * Passes bytes through unchanged, telling `onBytes` the running total. A source that ends short of
 * `expected` errors the stream, so a cut-off download fails instead of saving a shorter file.
 */
export function counted(
  expected: number,
  onBytes: (done: number) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let done = 0;
  return new TransformStream({
    transform(chunk, controller) {
      done += chunk.length;
      if (done > expected) throw new CutError(done);
      controller.enqueue(chunk);
      onBytes(done);
    },
    flush() {
      if (done !== expected) throw new CutError(done);
    },
  });
}

/** The stream held other than the expected number of bytes. */
export class CutError extends Error {
  override name = 'CutError';
  constructor(readonly done: number) {
    super(`The download ended after ${done} bytes.`);
  }
}
