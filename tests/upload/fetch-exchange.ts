// The requests of an upload in parts with Node's fetch, for tests against the real server: answers as
// the transports give them, failures as UploadErrors. The browsers use XHR (for progress); the runner
// does not care which.
import { UploadError } from '../../lib/upload';
import type { PartsExchange } from '../../lib/upload/parts-runner';

export const fetchExchange: PartsExchange<Uint8Array<ArrayBuffer> | Blob> = async (req, { signal }) => {
  try {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal });
    return { status: res.status, contentType: res.headers.get('content-type'), body: await res.text() };
  } catch (err) {
    if (signal?.aborted) throw new UploadError('aborted', 'cancelled', { cause: err });
    throw new UploadError('network', 'network', { cause: err });
  }
};
