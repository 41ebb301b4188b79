// A front for the reference server, for the scenarios of an upload in parts: every request passes
// through it to the server unchanged and is noted (method and path), unless the scenario arms it to
// play a server without parts (404 to everything under `…/Upload/Parts`, as Teknik and older
// Hushdrop servers answer), to answer `/_hushdrop/info` as an older Hushdrop (no `parts`) or as
// Teknik (no answer), to cut parts' connections mid-body on their first attempts (as a dropped link
// does), to cut a part's connection once the server took it (its answer lost), to cut every request
// (the network down), or to hold one part's request unanswered (so a Cancel lands mid-upload). It can answer with
// `Connection: close`, so that every attempt it sees at a part is the extension's own (see
// `closeConnections`). The server itself stays the product.
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerAddresses } from '../../../devkit/settings';

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
  /**
   * How `GET /_hushdrop/info` is answered: the server's own answer, that answer without `parts` (an
   * older Hushdrop), or a 404 page (Teknik, which has no such address).
   */
  info: 'server' | 'no-parts' | 'none';
  /**
   * Answer every request with `Connection: close`. A browser silently sends a request again when a
   * reused keep-alive connection dies before any answer (Chromium does); with no connection reused,
   * every attempt at a part is one the extension made.
   */
  closeConnections: boolean;
  /** Part index → how many of its next PUTs are cut mid-body (Infinity: all of them); the server sees none. */
  drop: Map<number, number>;
  /** Part index → how many of its next PUTs reach the server whole, whose answer is then cut off. */
  dropAnswer: Map<number, number>;
  /** The network is down: every request's connection is cut at once, and none reaches the server. */
  down: boolean;
  /**
   * Say where requests came to (X-Forwarded-Host and -Proto), as a proxy does, so that a server that
   * trusts this front names the front's addresses in its answers (the home page reads them from
   * `/_hushdrop/info` and uses only those on its own origin).
   */
  forwarded: boolean;
  /** Hold the next PUT of this part index unanswered (once) until `releaseHeld` or `close`. */
  holdPart?: number;
  /** The held request, once one is held. */
  held?: Seen;
  releaseHeld(): void;
  close(): Promise<void>;
}

/**
 * Part index → the bytes of each PUT of it the server itself recorded (not the front): after a cut, a
 * part the server held must not be there twice.
 */
export function partPutsAtServer(
  requests: readonly { method: string; url: string; bodyBytes: number }[],
): Map<number, number[]> {
  const by = new Map<number, number[]>();
  for (const r of requests) {
    const index = r.method === 'PUT' ? PART.exec(r.url)?.[1] : undefined;
    if (index !== undefined) by.set(Number(index), [...(by.get(Number(index)) ?? []), r.bodyBytes]);
  }
  return by;
}

export async function startPartsFront(server: ServerAddresses, host: string): Promise<PartsFront> {
  const target = new URL(server.apiUrl);
  const heldResponses = new Set<ServerResponse>();
  const front: PartsFront = {
    addresses: server,
    seen: [],
    noParts: false,
    info: 'server',
    closeConnections: false,
    drop: new Map(),
    dropAnswer: new Map(),
    down: false,
    forwarded: false,
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

  /** An answer's headers, with `Connection: close` when armed: Node then ends the socket after it. */
  const closing = (headers: OutgoingHttpHeaders) =>
    front.closeConnections ? { ...headers, connection: 'close' } : headers;

  const pass = (req: IncomingMessage, res: ServerResponse, seen: Seen, loseAnswer = false) => {
    const headers = front.forwarded
      ? { ...req.headers, 'x-forwarded-host': req.headers.host, 'x-forwarded-proto': 'http' }
      : req.headers;
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        seen.status = answer.statusCode;
        if (loseAnswer) {
          answer.resume();
          res.socket?.destroy();
          return;
        }
        res.writeHead(answer.statusCode ?? 502, closing(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    // A request the browser gave up on (a part's XHR aborted when the upload failed) is cut upstream
    // too, as the server would see it without the front; left open, the server's part would wait for
    // the rest of its body until its slow-client limit, and the session's abort behind it.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  /** The server's info answer as an older Hushdrop gives it: without `parts`. */
  const olderInfo = async () => {
    const { parts: _, ...older } = await (await fetch(new URL('/_hushdrop/info', server.baseUrl))).json();
    return JSON.stringify(older);
  };

  const http: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const seen: Seen = { method: req.method ?? '', path };
    front.seen.push(seen);
    if (front.down) {
      req.socket.destroy();
      return;
    }
    if (path.split('?')[0] === '/_hushdrop/info' && front.info !== 'server') {
      req.resume();
      if (front.info === 'none') {
        seen.status = 404;
        res.writeHead(404, closing({ 'Content-Type': 'text/html; charset=utf-8' }));
        res.end('<h1>Not Found</h1>');
        return;
      }
      void olderInfo().then(
        (body) => {
          seen.status = 200;
          res.writeHead(200, closing({ 'Content-Type': 'application/json; charset=utf-8' }));
          res.end(body);
        },
        () => res.destroy(),
      );
      return;
    }
    if (front.noParts && PARTS.test(path)) {
      req.resume();
      seen.status = 404;
      res.writeHead(404, closing({ 'Content-Type': 'application/json; charset=utf-8' }));
      res.end(JSON.stringify({ error: { message: 'Not Found' } }));
      return;
    }
    const index = req.method === 'PUT' ? path.match(PART)?.[1] : undefined;
    const drops = index !== undefined ? (front.drop.get(Number(index)) ?? 0) : 0;
    if (drops > 0) {
      front.drop.set(Number(index), drops - 1);
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
    const losses = index !== undefined ? (front.dropAnswer.get(Number(index)) ?? 0) : 0;
    if (losses > 0) front.dropAnswer.set(Number(index), losses - 1);
    pass(req, res, seen, losses > 0);
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
