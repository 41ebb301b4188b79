// A certificate for the test server's TLS mode, made at start with the project's own test CA code (pkijs on
// WebCrypto, as tests/merchant does): no openssl binary, no new dependency, well under a second. Clients
// trust exactly this certificate and nothing else: Chromium by the SHA-256 of its public key
// (`--ignore-certificate-errors-spki-list`), Node and curl by its PEM, which is also written to disk.
// Serving it is the product's (server/http/tls.ts); a deployment gives its own certificate files.

import { createHash, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { issue, pemOf } from './ca';

export { CONNECTION_WINDOW_BYTES, STREAM_WINDOW_BYTES } from '../server/http/tls';

export interface TlsIdentity {
  certificatePem: string;
  keyPem: string;
  /** Base64 SHA-256 of the SubjectPublicKeyInfo, the form `--ignore-certificate-errors-spki-list` takes. */
  spkiSha256: string;
}

/** A self-signed certificate for `host`, also naming localhost and 127.0.0.1. */
export async function makeTlsIdentity(host: string): Promise<TlsIdentity> {
  // `host` is named too, so curl accepts it on another address (the bench's rate-limited link).
  const ip = isIP(host) !== 0;
  // A CA certificate, so OpenSSL-based clients (curl, Node) accept it as their only trust anchor.
  const identity = await issue(null, {
    commonName: host,
    dnsNames: [...new Set(['localhost', ...(ip ? [] : [host])])],
    ipAddresses: [...new Set(['127.0.0.1', ...(ip ? [host] : [])])],
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
