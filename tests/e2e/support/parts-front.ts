// A front for the reference server, for the scenarios of an upload in parts: every request passes
// through it to the server unchanged and is noted (method and path), unless the scenario arms it to
// play a server without parts (404 to everything under `…/Upload/Parts`, as Teknik and older
// Hushdrop servers answer), to cut one part's connection once (as a dropped link does), or to hold
// one part's request unanswered (so a Cancel lands mid-upload). The server itself stays the product.
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerAddresses } from '../../testkit/settings';

/** What the front saw: each request's method, path and query, and the status it was answered with. */
export interface Seen {
  method: string;
  path: string;
  status?: number;
}

const PARTS = /\/upload\/parts(?=[/?]|$)/i;
/** `…/Parts/<id>/<index>`: a part's PUT. */
const PART = /\/upload\/parts\/[^/?]+\/(\d+)(?:\?|$)/i;
/** A dropped part breaks off after this much of its body, as a link that goes down mid-part. */
const DROP_AFTER_BYTES = 256 * 1024;

export interface PartsFront {
  /** The front's addresses: the server's, with the front's origin. */
  addresses: ServerAddresses;
  seen: Seen[];
  /** Answer 404 under `…/Upload/Parts` (a server without parts). */
  noParts: boolean;
  /** Cut the connection of the next PUT of this part index (once). */
  dropPart?: number;
  /** Hold the next PUT of this part index unanswered (once) until `releaseHeld` or `close`. */
  holdPart?: number;
  /** The held request, once one is held. */
  held?: Seen;
  releaseHeld(): void;
  close(): Promise<void>;
}

export async function startPartsFront(server: ServerAddresses, host: string): Promise<PartsFront> {
  const target = new URL(server.apiUrl);
  const heldResponses = new Set<ServerResponse>();
  const front: PartsFront = {
    addresses: server,
    seen: [],
    noParts: false,
    releaseHeld() {
      for (const res of heldResponses) res.destroy();
      heldResponses.clear();
    },
    close: async () => {
      front.releaseHeld();
      http.closeAllConnections();
      await new Promise<void>((done) => http.close(() => done()));
    },
  };

  const pass = (req: IncomingMessage, res: ServerResponse, seen: Seen) => {
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        seen.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };

  const http: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const seen: Seen = { method: req.method ?? '', path };
    front.seen.push(seen);
    if (front.noParts && PARTS.test(path)) {
      req.resume();
      seen.status = 404;
      res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { message: 'Not Found' } }));
      return;
    }
    const index = req.method === 'PUT' ? path.match(PART)?.[1] : undefined;
    if (index !== undefined && Number(index) === front.dropPart) {
      front.dropPart = undefined;
      let taken = 0;
      req.on('data', (chunk: Buffer) => {
        taken += chunk.length;
        if (taken >= DROP_AFTER_BYTES) req.socket.destroy();
      });
      return;
    }
    if (index !== undefined && Number(index) === front.holdPart) {
      front.holdPart = undefined;
      front.held = seen;
      req.resume();
      heldResponses.add(res);
      return;
    }
    pass(req, res, seen);
  });
  await new Promise<void>((ready) => http.listen(0, host, ready));
  const origin = `http://${host}:${(http.address() as AddressInfo).port}`;
  const moved = (address: string) => {
    const url = new URL(address);
    return `${origin}${url.pathname.replace(/\/$/, '')}`;
  };
  front.addresses = { baseUrl: origin, apiUrl: moved(server.apiUrl), uploadUrl: server.uploadUrl };
  return front;
}
