// HTTPS served by the server itself (when no reverse proxy terminates TLS): HTTP/2 and HTTP/1.1 chosen by
// ALPN, or HTTP/1.1 alone.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ServerTimeouts } from '../config/settings';

const MIB = 1024 * 1024;

/**
 * Receive windows the HTTP/2 server announces. With Node's default 64 KiB an encrypted stream
 * from Chromium fell to 105 MB/s and curl to 273 MB/s on loopback; 16 MiB per stream and 32 MiB
 * per connection fixed both (issue 12).
 */
export const STREAM_WINDOW_BYTES = 16 * MIB;
export const CONNECTION_WINDOW_BYTES = 32 * MIB;
/** nghttp2 may hold up to a full connection window of received data; Node's default is 10 MB. */
const SESSION_MEMORY_MB = 2 * (CONNECTION_WINDOW_BYTES / MIB);

export interface TlsCredentials {
  certificatePem: string;
  keyPem: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The HTTP/2 compatibility objects behave like node:http's for everything the server uses
 * (headers, body stream, `complete`, `httpVersion`, `socket.destroy()` resets the stream,
 * writeHead/write/end/flushHeaders) except that the response has no `destroyed`.
 */
function http1Like(req: Http2ServerRequest, res: Http2ServerResponse): [IncomingMessage, ServerResponse] {
  const stream = res.stream;
  if (!('destroyed' in res)) Object.defineProperty(res, 'destroyed', { get: () => stream.destroyed });
  return [req as unknown as IncomingMessage, res as unknown as ServerResponse];
}

export interface SecureServer {
  server: Server;
  /** Ends every connection (HTTP/2 sessions with their streams, HTTP/1.1 keep-alives, stalls). */
  closeConnections(): void;
}

export function createTlsServer(
  credentials: TlsCredentials,
  http2: boolean,
  timeouts: ServerTimeouts,
  /** Streams one HTTP/2 connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). */
  maxConcurrentStreams: number,
  handler: Handler,
): SecureServer {
  const tls = { key: credentials.keyPem, cert: credentials.certificatePem };
  const server = http2
    ? createSecureServer(
        {
          ...tls,
          allowHTTP1: true,
          maxSessionMemory: SESSION_MEMORY_MB,
          // Without a bound (Node's default is 2^32 - 1) one connection could open streams without end,
          // each holding a request slot and up to a stream window of buffered body.
          settings: { initialWindowSize: STREAM_WINDOW_BYTES, maxConcurrentStreams },
        },
        (req, res) => handler(...http1Like(req, res)),
      )
    : createHttpsServer(
        {
          ...tls,
          requestTimeout: 0,
          headersTimeout: timeouts.headersMs,
          keepAliveTimeout: timeouts.keepAliveMs,
          connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
        },
        handler,
      );
  if (http2) {
    const h2 = server as ReturnType<typeof createSecureServer>;
    h2.on('session', (session) => session.setLocalWindowSize(CONNECTION_WINDOW_BYTES));
    // An HTTP/2 session with no frames for this long is closed; a slow stream of a busy session is cut by
    // the slow-client rule (slow-clients.ts), per stream.
    h2.setTimeout(timeouts.slowClientMs > 0 ? 2 * timeouts.slowClientMs : 0);
  }
  const sockets = new Set<TLSSocket>();
  server.on('secureConnection', (socket: TLSSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return {
    server,
    closeConnections() {
      for (const socket of sockets) socket.destroy();
    },
  };
}
