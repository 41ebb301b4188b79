/**
 * DNSSEC's signature and digest algorithms (IANA "DNS Security Algorithm Numbers"), as BIP 353
 * allows them: RSA/SHA-256 and RSA/SHA-512 (RFC 5702) with keys of 1,024 bits or more, ECDSA
 * P-256 and P-384 (RFC 6605) through WebCrypto, Ed25519 and Ed448 (RFC 8080) through
 * @noble/curves. SHA-1 signatures (algorithms 5 and 7) and SHA-1 DS digests are refused (BIP 353
 * forbids the first and only allows the second). There is no curve code here.
 */
import { ed448 } from '@noble/curves/ed448.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha256, sha384 } from '@noble/hashes/sha2.js';
import { base64urlnopad } from '@scure/base';
import { concat } from './wire';

export const ALGORITHM = {
  RSASHA1: 5,
  RSASHA1_NSEC3: 7,
  RSASHA256: 8,
  RSASHA512: 10,
  ECDSAP256SHA256: 13,
  ECDSAP384SHA384: 14,
  ED25519: 15,
  ED448: 16,
} as const;

/** People's names for the algorithms, in sentences. */
export const ALGORITHM_NAMES: Record<number, string> = {
  1: 'RSA/MD5',
  3: 'DSA/SHA-1',
  5: 'RSA/SHA-1',
  6: 'DSA/SHA-1',
  7: 'RSA/SHA-1',
  8: 'RSA/SHA-256',
  10: 'RSA/SHA-512',
  12: 'GOST',
  13: 'ECDSA P-256',
  14: 'ECDSA P-384',
  15: 'Ed25519',
  16: 'Ed448',
};

export const algorithmName = (algorithm: number) => ALGORITHM_NAMES[algorithm] ?? `algorithm ${algorithm}`;

const SUPPORTED = new Set<number>([8, 10, 13, 14, 15, 16]);

export const isSupportedAlgorithm = (algorithm: number) => SUPPORTED.has(algorithm);

/** BIP 353: RSA keys shorter than this are refused. */
export const MIN_RSA_BITS = 1024;
/** RFC 3110 §2 and RFC 5702 §2: the largest modulus DNSSEC defines. */
const MAX_RSA_BITS = 4096;

/** A DNSKEY that cannot be used: `detail` names the rule, `bits` an RSA key's size. */
export class KeyProblem extends Error {
  override readonly name = 'KeyProblem';
  constructor(
    readonly detail: 'rsa-short' | 'bad-key' | 'unsupported',
    readonly bits?: number,
  ) {
    super(detail);
  }
}

/** RFC 3110 §2: exponent length (1 byte, or 0 and then 2 bytes), exponent, modulus. */
function rsaJwk(key: Uint8Array): { jwk: JsonWebKey; bits: number } {
  let at = 1;
  let exponentLength = key[0] ?? 0;
  if (exponentLength === 0) {
    exponentLength = ((key[1] ?? 0) << 8) | (key[2] ?? 0);
    at = 3;
  }
  const exponent = key.subarray(at, at + exponentLength);
  let modulus = key.subarray(at + exponentLength);
  if (exponentLength === 0 || exponent.length !== exponentLength || modulus.length === 0)
    throw new KeyProblem('bad-key');
  let skip = 0;
  while (skip < modulus.length && modulus[skip] === 0) skip++;
  modulus = modulus.subarray(skip);
  const bits = modulus.length === 0 ? 0 : (modulus.length - 1) * 8 + (32 - Math.clz32(modulus[0]!));
  if (bits < MIN_RSA_BITS) throw new KeyProblem('rsa-short', bits);
  if (bits > MAX_RSA_BITS) throw new KeyProblem('bad-key', bits);
  let e = exponent;
  while (e.length > 1 && e[0] === 0) e = e.subarray(1);
  return {
    jwk: { kty: 'RSA', n: base64urlnopad.encode(modulus), e: base64urlnopad.encode(e) },
    bits,
  };
}

/** WebCrypto wants ArrayBuffer-backed views (TS 5.9 DOM types reject ArrayBufferLike). */
const own = (bytes: Uint8Array) => new Uint8Array(bytes) as Uint8Array<ArrayBuffer>;

async function webVerify(
  subtle: SubtleCrypto,
  importKey: () => Promise<CryptoKey>,
  params: AlgorithmIdentifier | EcdsaParams,
  signature: Uint8Array,
  data: Uint8Array,
): Promise<boolean> {
  let key: CryptoKey;
  try {
    key = await importKey();
  } catch {
    throw new KeyProblem('bad-key');
  }
  try {
    return await subtle.verify(params, key, own(signature), own(data));
  } catch {
    // Some engines throw on a malformed signature instead of answering false.
    return false;
  }
}

/**
 * Whether `signature` over `data` was made by the DNSKEY `publicKey` of `algorithm`. False for a
 * signature that does not match; throws KeyProblem for a key that cannot be used.
 */
export async function verifySignature(
  subtle: SubtleCrypto,
  algorithm: number,
  publicKey: Uint8Array,
  data: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  switch (algorithm) {
    case ALGORITHM.RSASHA256:
    case ALGORITHM.RSASHA512: {
      const { jwk } = rsaJwk(publicKey);
      const hash = algorithm === ALGORITHM.RSASHA256 ? 'SHA-256' : 'SHA-512';
      return webVerify(
        subtle,
        () => subtle.importKey('jwk', jwk, { name: 'RSASSA-PKCS1-v1_5', hash }, false, ['verify']),
        'RSASSA-PKCS1-v1_5',
        signature,
        data,
      );
    }
    case ALGORITHM.ECDSAP256SHA256:
    case ALGORITHM.ECDSAP384SHA384: {
      // RFC 6605 §4: the key is x | y, the signature r | s, each of the curve's size.
      const size = algorithm === ALGORITHM.ECDSAP256SHA256 ? 32 : 48;
      if (publicKey.length !== 2 * size) throw new KeyProblem('bad-key');
      if (signature.length !== 2 * size) return false;
      const namedCurve = size === 32 ? 'P-256' : 'P-384';
      const hash = size === 32 ? 'SHA-256' : 'SHA-384';
      return webVerify(
        subtle,
        () =>
          subtle.importKey(
            'raw',
            own(concat([Uint8Array.of(4), publicKey])),
            { name: 'ECDSA', namedCurve },
            false,
            ['verify'],
          ),
        { name: 'ECDSA', hash },
        signature,
        data,
      );
    }
    case ALGORITHM.ED25519:
    case ALGORITHM.ED448: {
      // RFC 8080 §3: the key and signature as RFC 8032 writes them. zip215 off: RFC 8032's rules.
      const curve = algorithm === ALGORITHM.ED25519 ? ed25519 : ed448;
      const keySize = algorithm === ALGORITHM.ED25519 ? 32 : 57;
      if (publicKey.length !== keySize) throw new KeyProblem('bad-key');
      try {
        return curve.verify(signature, data, publicKey, { zip215: false });
      } catch {
        return false;
      }
    }
    default:
      throw new KeyProblem('unsupported');
  }
}

/** RSA key size in bits, or undefined for another algorithm or an unreadable key (for sentences). */
export function rsaBits(algorithm: number, publicKey: Uint8Array): number | undefined {
  if (algorithm !== ALGORITHM.RSASHA256 && algorithm !== ALGORITHM.RSASHA512) return undefined;
  try {
    return rsaJwk(publicKey).bits;
  } catch (error) {
    return error instanceof KeyProblem ? error.bits : undefined;
  }
}

/** DS digest types taken (RFC 4509: SHA-256; RFC 6605: SHA-384). SHA-1 (type 1) is not. */
export const isSupportedDigest = (digestType: number) => digestType === 2 || digestType === 4;

const DIGEST_NAMES: Record<number, string> = { 1: 'SHA-1', 2: 'SHA-256', 3: 'GOST', 4: 'SHA-384' };
export const digestName = (digestType: number) => DIGEST_NAMES[digestType] ?? `digest ${digestType}`;

export function dsDigest(digestType: number, data: Uint8Array): Uint8Array | undefined {
  if (digestType === 2) return sha256(data);
  if (digestType === 4) return sha384(data);
  return undefined;
}
