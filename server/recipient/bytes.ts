// POST /_hushdrop/file/<name>: the stored bytes of an upload the recipient page opens, and the one
// request that counts as a download of it. The link itself (a GET, as every link preview makes)
// only ever gets the page. Programs use this address too (README, "Recipients").
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { COMMON_HEADERS } from './security';
import { opensInBrowser, type RecipientStore, type RecipientUpload } from './upload';

/** The extension's viewer sends Teknik's small form (`file=…&decrypt=false`); nothing needs more. */
export const MAX_FORM_BYTES = 4096;

function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  const body = Buffer.from(JSON.stringify({ error: { message } }));
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(body.length),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** Reads and drops a body of at most `limit` bytes; false (and the body abandoned) when it is longer. */
function dropSmallBody(req: IncomingMessage, body: Readable, limit: number): Promise<boolean> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve(false);
  // A server that bounds bodies itself may have read it already.
  if (body.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let seen = 0;
    body.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit) {
        body.removeAllListeners('data');
        body.pause();
        resolve(false);
      }
    });
    body.once('end', () => resolve(true));
    body.once('error', () => resolve(false));
    body.once('close', () => resolve(seen <= limit));
  });
}

export async function serveBytes<R extends RecipientUpload>(
  store: RecipientStore<R>,
  req: IncomingMessage,
  body: Readable,
  res: ServerResponse,
  fileName: string,
): Promise<void> {
  if (req.method !== 'POST') {
    body.resume();
    answer(res, 405, 'Use POST to get the bytes of a file.', { Allow: 'POST' });
    return;
  }
  if (!(await dropSmallBody(req, body, MAX_FORM_BYTES))) {
    answer(res, 413, `This address takes no body larger than ${MAX_FORM_BYTES} bytes.`, {
      Connection: 'close',
    });
    return;
  }
  const upload = await store.find(fileName);
  if (!upload || !opensInBrowser(upload)) {
    answer(res, 404, 'File Does Not Exist');
    return;
  }
  const claimed = await store.claimView(upload);
  if (!claimed) {
    answer(res, 404, 'File Does Not Exist');
    return;
  }
  let source: Readable;
  try {
    source = await store.read(claimed);
  } catch {
    answer(res, 503, 'The stored file cannot be read right now; try again in a moment.');
    return;
  }
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(upload.contentLength),
    'Content-Disposition': `attachment; filename="${upload.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`,
    'Cache-Control': 'no-store',
  });
  try {
    await pipeline(source, res);
  } catch {
    // The reader went away, or the file was removed meanwhile: nothing more can be said to it.
    res.destroy();
  }
}
