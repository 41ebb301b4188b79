// A loopback server playing the hostile site: it serves the pages a test gives it and records
// every request it receives, so a test can show that the extension was not made to contact it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  path: string;
}

export interface Attacker {
  origin: string;
  /** Every request received, in order. */
  seen: SeenRequest[];
  /** Requests whose path starts with `prefix`. */
  seenAt(prefix: string): SeenRequest[];
  /** Serve `html` at `path`. */
  page(path: string, html: string): string;
  /** Serve `body` as `type` at `path` (a payment request, say); returns its URL. */
  file(path: string, type: string, body: Uint8Array): string;
  /** Answer `path` with a 307 to `location`; returns the URL of `path`. */
  redirect(path: string, location: string): string;
  close(): Promise<void>;
}

export async function startAttacker(): Promise<Attacker> {
  const pages = new Map<string, { type: string; body: string | Uint8Array }>();
  const redirects = new Map<string, string>();
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ method: req.method ?? '', path });
    req.resume();
    const served = pages.get(path);
    const location = redirects.get(path);
    if (location !== undefined) {
      res.writeHead(307, { Location: location, 'Cache-Control': 'no-store' });
      res.end();
    } else if (served !== undefined) {
      res.writeHead(200, { 'Content-Type': served.type, 'Cache-Control': 'no-store' });
      res.end(served.body);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
      res.end('attacker was here');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    seenAt: (prefix) => seen.filter((s) => s.path.startsWith(prefix)),
    page(path, html) {
      pages.set(path, { type: 'text/html; charset=utf-8', body: html });
      return `${origin}${path}`;
    },
    file(path, type, body) {
      pages.set(path, { type, body });
      return `${origin}${path}`;
    },
    redirect(path, location) {
      redirects.set(path, location);
      return `${origin}${path}`;
    },
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
