// The recipient page, mounted into the server with one call: `answer` takes the requests that are
// the page's (everything under /_hushdrop/, and a GET or HEAD of a link that opens in the browser)
// and leaves every other request to the server's own routes.
//
//   GET  <link of a client-encrypted upload>   the page (never counts as a download)
//   GET  /                                      the home page: an upload page for anyone (no extension)
//   GET  /_hushdrop/recipient.js, sw.js, home.js, parts-worker.js, recipient.css
//   POST /_hushdrop/file/<name>                 the stored bytes; counts one download
//
// `/u/_hushdrop/…` is the same, for proxies that map a host of its own onto `/u/` (Teknik's u.<domain>).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { recipientAssets } from './assets';
import { serveBytes } from './bytes';
import { acceptedLanguage } from './language';
import { renderHome, renderPage } from './page';
import { COMMON_HEADERS, pageHeaders, WORKER_CSP } from './security';
import { opensInBrowser, type RecipientStore, type RecipientUpload } from './upload';

export type { RecipientStore, RecipientUpload } from './upload';

const OWN_PATH = /^\/(?:u\/)?_hushdrop\/(.*)$/i;

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
) {
  res.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function notFound(req: IncomingMessage, res: ServerResponse): void {
  send(
    res,
    req,
    404,
    { ...COMMON_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
    Buffer.from('Not found\n'),
  );
}

async function serveOwn<R extends RecipientUpload>(
  store: RecipientStore<R>,
  req: IncomingMessage,
  body: Readable,
  res: ServerResponse,
  rest: string,
): Promise<void> {
  if (rest.startsWith('file/')) {
    let name: string;
    try {
      name = decodeURIComponent(rest.slice('file/'.length));
    } catch {
      body.resume();
      notFound(req, res);
      return;
    }
    await serveBytes(store, req, body, res, name);
    return;
  }
  body.resume();
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, req, 405, { ...COMMON_HEADERS, Allow: 'GET, HEAD' }, Buffer.alloc(0));
    return;
  }
  const asset = (await recipientAssets()).files.get(rest);
  if (!asset) {
    notFound(req, res);
    return;
  }
  const headers: Record<string, string> = {
    ...COMMON_HEADERS,
    'Content-Type': asset.type,
    'Cache-Control': 'no-cache',
    ETag: asset.etag,
    ...(rest === 'sw.js' || rest === 'parts-worker.js' ? { 'Content-Security-Policy': WORKER_CSP } : {}),
  };
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  send(res, req, 200, headers, asset.body);
}

export function recipientPage<R extends RecipientUpload>(store: RecipientStore<R>) {
  return {
    /**
     * Answers the request when it is the recipient page's and resolves true; resolves false (having
     * read nothing) otherwise. `fileName` is the upload a GET or HEAD of this address would download,
     * as the server's router found it; `home` says the router found the server's root (the home
     * page); `body` is the request body as the server reads it.
     */
    async answer(
      req: IncomingMessage,
      body: Readable,
      res: ServerResponse,
      fileName?: string,
      home = false,
    ): Promise<boolean> {
      const { pathname } = new URL(req.url ?? '/', 'http://recipient.invalid');
      const own = OWN_PATH.exec(pathname);
      if (own) {
        await serveOwn(store, req, body, res, own[1]!);
        return true;
      }
      const language = () => acceptedLanguage(req.headers['accept-language']);
      if (home && (req.method === 'GET' || req.method === 'HEAD')) {
        body.resume();
        send(res, req, 200, pageHeaders(), renderHome(pathname, language()));
        return true;
      }
      if (fileName === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
      const upload = await store.find(fileName);
      if (!upload || !opensInBrowser(upload)) return false;
      body.resume();
      send(res, req, 200, pageHeaders(), renderPage(upload, pathname, language()));
      return true;
    },
  };
}
