// HTTPS for the reference server: HTTP/2 and HTTP/1.1 chosen by ALPN, or HTTP/1.1 alone.
//
// The certificate is made at start with the project's own test CA code (pkijs on WebCrypto, as
// tests/merchant does): no openssl binary, no new dependency, well under a second. Clients trust
// exactly this certificate and nothing else: Chromium by the SHA-256 of its public key
// (`--ignore-certificate-errors-spki-list`), Node and curl by its PEM, which is also written to disk.

import { createHash, X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { Server } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { issue, pemOf } from '../merchant/ca';

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

export interface TlsIdentity {
  certificatePem: string;
  keyPem: string;
  /** Base64 SHA-256 of the SubjectPublicKeyInfo, the form `--ignore-certificate-errors-spki-list` takes. */
  spkiSha256: string;
}

/** A self-signed certificate for `host`, also naming localhost and 127.0.0.1. */
export async function makeTlsIdentity(host: string): Promise<TlsIdentity> {
  // A CA certificate, so OpenSSL-based clients (curl, Node) accept it as their only trust anchor.
  const identity = await issue(null, {
    commonName: host,
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    isCa: true,
  });
  const certificatePem = pemOf(identity.der);
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', identity.keys.privateKey));
  const spki = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'der' });
  return {
    certificatePem,
    keyPem: pemOf(pkcs8, 'PRIVATE KEY'),
    spkiSha256: createHash('sha256').update(spki).digest('base64'),
  };
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

export function createTlsServer(identity: TlsIdentity, http2: boolean, handler: Handler): SecureServer {
  const credentials = { key: identity.keyPem, cert: identity.certificatePem };
  const server = http2
    ? createSecureServer(
        {
          ...credentials,
          allowHTTP1: true,
          maxSessionMemory: SESSION_MEMORY_MB,
          settings: { initialWindowSize: STREAM_WINDOW_BYTES },
        },
        (req, res) => handler(...http1Like(req, res)),
      )
    : createHttpsServer({ ...credentials, requestTimeout: 0 }, handler);
  if (http2) {
    const h2 = server as ReturnType<typeof createSecureServer>;
    h2.on('session', (session) => session.setLocalWindowSize(CONNECTION_WINDOW_BYTES));
    h2.setTimeout(0);
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
