// A small site on loopback for the right-click tests: a page with an image, a page whose image
// exists only as a blob: URL, a page linking to a file elsewhere, and a redirect to anywhere.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Site {
  origin: string;
  image: Buffer;
  close(): Promise<void>;
}

export async function startSite(image: Buffer, host = '127.0.0.1'): Promise<Site> {
  const server: Server = createServer((req, res) => {
    if (req.url === '/cat.png') {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': image.length });
      res.end(image);
    } else if (req.url?.startsWith('/link?to=')) {
      // A page linking to a file elsewhere (the address is escaped as an attribute value).
      const to = decodeURIComponent(req.url.slice('/link?to='.length)).replace(
        /[&"<>]/g,
        (c) => `&#${c.charCodeAt(0)};`,
      );
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>link</title><a id="link" href="${to}">a file elsewhere</a>`);
    } else if (req.url?.startsWith('/redirect?to=')) {
      // A file that redirects to wherever the page chose (another site, for the permission tests).
      res.writeHead(302, { Location: decodeURIComponent(req.url.slice('/redirect?to='.length)) });
      res.end();
    } else if (req.url === '/blob.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!doctype html><title>blob</title><img id="img">
<script>fetch('/cat.png').then(r => r.blob()).then(b => {
  const u = URL.createObjectURL(b); document.getElementById('img').src = u; document.body.dataset.blob = u; });</script>`);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        '<!doctype html><title>cats</title><p id="note">A cat, and a note about it.</p><img id="img" src="/cat.png" alt="cat">',
      );
    }
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host}:${port}`,
    image,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
