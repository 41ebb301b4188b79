import type * as pkijs from 'pkijs';
import { parseCertificate } from './certificates';

/**
 * Parsed certificates by their DER bytes. Parsing is most of the cost of judging a signed request
 * (asn1js takes about a millisecond per certificate), and the same certificates come back: the
 * leaf is read by the signature check and by the chain check, a merchant's intermediates are the
 * same on every invoice, and a request is judged again before paying. A parsed certificate is
 * only read, never changed, so equal bytes can share one object. Bad bytes are not cached: they
 * throw each time, as parseCertificate does.
 */
export interface CertificateCache {
  parse(der: Uint8Array): pkijs.Certificate;
}

/** Enough for a few merchants' chains; certificates are 0.5–2 KB. */
const DEFAULT_LIMIT = 64;

/** The bytes as a string key (one char per byte): exact, and far cheaper than hashing. */
export function derKey(der: Uint8Array): string {
  let key = '';
  for (let i = 0; i < der.length; i += 4096)
    key += String.fromCharCode.apply(null, der.subarray(i, i + 4096) as unknown as number[]);
  return key;
}

/** A cache that forgets the least recently used certificate beyond `limit`. */
export function createCertificateCache(limit = DEFAULT_LIMIT): CertificateCache {
  const entries = new Map<string, pkijs.Certificate>();
  return {
    parse(der) {
      const key = derKey(der);
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
        return hit;
      }
      const certificate = parseCertificate(der);
      entries.set(key, certificate);
      if (entries.size > limit) entries.delete(entries.keys().next().value!);
      return certificate;
    },
  };
}

/** What evaluatePaymentRequest uses unless given its own cache. */
export const sharedCertificateCache: CertificateCache = createCertificateCache();
