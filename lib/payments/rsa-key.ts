import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { getOrAdd, keepPromise } from './memo';

/**
 * Importing a certificate's RSA public key into WebCrypto. Handing WebCrypto the SPKI DER is the
 * obvious way, but in Node (where bench row e2f runs) an SPKI import goes through OpenSSL 3's
 * decoder and costs about 200 µs, twice a signature check; the same key as a JWK of its modulus
 * and exponent costs about 30 µs. A JWK is also what pkijs itself imports for an RSA key: it
 * reads n and e from the SPKI it parsed (PublicKeyInfo.parsedKey) and imports them. So do we,
 * from the key pkijs already parsed, and fall back to the SPKI import whenever that is not
 * possible or WebCrypto refuses the JWK: a key that imports neither way fails as it did before.
 */

const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';

/** The SubjectPublicKeyInfo DER of a key (what WebCrypto imports as 'spki'). */
function spkiBytesOf(publicKeyInfo: pkijs.PublicKeyInfo): Uint8Array<ArrayBuffer> {
  return new Uint8Array(publicKeyInfo.toSchema().toBER(false));
}

/**
 * The key's n and e as pkijs writes them for its own import, or undefined unless it is an
 * rsaEncryption key with the NULL parameters RFC 3279 asks for (the form every SPKI import takes).
 */
function rsaJwkOf(publicKeyInfo: pkijs.PublicKeyInfo): JsonWebKey | undefined {
  const { algorithmId, algorithmParams } = publicKeyInfo.algorithm;
  if (algorithmId !== RSA_ENCRYPTION || !(algorithmParams instanceof asn1js.Null)) return undefined;
  const parsed = publicKeyInfo.parsedKey;
  if (!(parsed instanceof pkijs.RSAPublicKey)) return undefined;
  return { kty: 'RSA', ...parsed.toJSON() };
}

/**
 * The public key of `publicKeyInfo` for verifying with `algorithm` (RSASSA-PKCS1-v1_5 and a hash).
 * Rejects as WebCrypto's SPKI import does when the key is not one it takes.
 */
export async function importRsaPublicKey(
  subtle: SubtleCrypto,
  publicKeyInfo: pkijs.PublicKeyInfo,
  algorithm: RsaHashedImportParams,
): Promise<CryptoKey> {
  const jwk = rsaJwkOf(publicKeyInfo);
  if (jwk) {
    try {
      return await subtle.importKey('jwk', jwk, algorithm, false, ['verify']);
    } catch {
      // Fall through to the SPKI import, which decides as before.
    }
  }
  return subtle.importKey('spki', spkiBytesOf(publicKeyInfo), algorithm, false, ['verify']);
}

/** Imported verify keys per engine, per parsed key (roots and cached certificates live on), per hash. */
const verifyKeys = new WeakMap<SubtleCrypto, WeakMap<pkijs.PublicKeyInfo, Map<string, Promise<CryptoKey>>>>();

/**
 * The RSASSA-PKCS1-v1_5 key of `publicKeyInfo` for `hash`, imported once: the request's signature
 * and the chain's checks share it (a leaf that names itself as its issuer is checked with its own
 * key too, so first sight imported that key twice). A failed import is not kept.
 */
export function rsaVerifyKey(
  subtle: SubtleCrypto,
  publicKeyInfo: pkijs.PublicKeyInfo,
  hash: string,
): Promise<CryptoKey> {
  const forInfo = getOrAdd(
    getOrAdd(verifyKeys, subtle, () => new WeakMap()),
    publicKeyInfo,
    () => new Map(),
  );
  return keepPromise(forInfo, hash, () =>
    importRsaPublicKey(subtle, publicKeyInfo, { name: 'RSASSA-PKCS1-v1_5', hash }),
  );
}
