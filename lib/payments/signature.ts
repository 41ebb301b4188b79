import type * as pkijs from 'pkijs';
import { t } from '../i18n';
import { PaymentError } from './errors';
import { rsaVerifyKey } from './rsa-key';
import { WIRE_BYTES, walkFields } from './wire';

/**
 * BIP70 signs the PaymentRequest serialised with `signature` set to an empty byte string. Real
 * signers serialised with their own protobuf library, so re-encoding on our side could change
 * bytes (order, unknown fields, explicit defaults). Instead we take the bytes as received and
 * swap field 5 for an empty field 5 (`2a 00`) in place. Dropping the field would be wrong: the
 * empty field is part of what was signed.
 */

const SIGNATURE_FIELD = 5;
const EMPTY_SIGNATURE_FIELD = Uint8Array.of(0x2a, 0x00);

export type PkiType = 'x509+sha256' | 'x509+sha1';

export const SUPPORTED_PKI_TYPES: readonly string[] = ['none', 'x509+sha256', 'x509+sha1'];

export function hashFor(pkiType: PkiType): 'SHA-256' | 'SHA-1' {
  return pkiType === 'x509+sha1' ? 'SHA-1' : 'SHA-256';
}

/**
 * The bytes the merchant signed: the original request with its one field 5 replaced by `2a 00`,
 * every other byte copied verbatim. Throws PaymentError if the request is malformed, has no
 * signature field, or has more than one (ambiguous: which one would a verifier have seen?).
 */
export function signedBytesOf(requestBytes: Uint8Array): Uint8Array {
  const signatureFields = walkFields(requestBytes).filter((field) => field.number === SIGNATURE_FIELD);
  if (signatureFields.length === 0) {
    throw new PaymentError('malformed', t('paySignatureMissing'));
  }
  if (signatureFields.length > 1) {
    throw new PaymentError('malformed', t('paySignatureTwice'));
  }
  const field = signatureFields[0]!;
  if (field.wireType !== WIRE_BYTES) {
    throw new PaymentError('malformed', t('paySignatureNotBytes'));
  }
  const out = new Uint8Array(requestBytes.length - (field.end - field.start) + EMPTY_SIGNATURE_FIELD.length);
  out.set(requestBytes.subarray(0, field.start), 0);
  out.set(EMPTY_SIGNATURE_FIELD, field.start);
  out.set(requestBytes.subarray(field.end), field.start + EMPTY_SIGNATURE_FIELD.length);
  return out;
}

/** WebCrypto wants ArrayBuffer-backed views (TS 5.9 DOM types reject ArrayBufferLike). */
function buffer(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(bytes) as Uint8Array<ArrayBuffer>;
}

function importRsaKey(subtle: SubtleCrypto, spki: Uint8Array, pkiType: PkiType): Promise<CryptoKey> {
  return subtle
    .importKey('spki', buffer(spki), { name: 'RSASSA-PKCS1-v1_5', hash: hashFor(pkiType) }, false, ['verify'])
    .catch((error: unknown) => {
      throw new PaymentError('malformed', t('payCertificateNotRsa'), { cause: error });
    });
}

async function verifyWith(
  subtle: SubtleCrypto,
  key: CryptoKey,
  signedBytes: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    return await subtle.verify('RSASSA-PKCS1-v1_5', key, buffer(signature), buffer(signedBytes));
  } catch {
    // Some engines throw instead of returning false on a malformed signature value.
    return false;
  }
}

/**
 * Checks an RSA PKCS#1 v1.5 signature with the leaf certificate's public key (SPKI DER).
 * Returns false for a wrong signature; throws PaymentError if the key is not a usable RSA key.
 */
export async function verifyRsaSignature(
  subtle: SubtleCrypto,
  spki: Uint8Array,
  pkiType: PkiType,
  signedBytes: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  return verifyWith(subtle, await importRsaKey(subtle, spki, pkiType), signedBytes, signature);
}

/**
 * verifyRsaSignature with the key of `leaf`, imported once per key and hash from the key pkijs
 * parsed (rsa-key.ts: cheaper than an SPKI import, with the SPKI import as the fallback).
 */
export async function verifyLeafSignature(
  subtle: SubtleCrypto,
  leaf: pkijs.Certificate,
  pkiType: PkiType,
  signedBytes: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  const key = rsaVerifyKey(subtle, leaf.subjectPublicKeyInfo, hashFor(pkiType)).catch((error: unknown) => {
    throw new PaymentError('malformed', t('payCertificateNotRsa'), { cause: error });
  });
  return verifyWith(subtle, await key, signedBytes, signature);
}
