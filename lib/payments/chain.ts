import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { formatDate, t } from '../i18n';
import { type CertificateCache, derKey, sharedCertificateCache } from './certificate-cache';
import { displayNameOf } from './certificates';
import { PaymentError } from './errors';
import { MAX_CERTIFICATES } from './limits';
import { getOrAdd, keepPromise } from './memo';
import type { RootStore } from './roots';
import { rsaVerifyKey } from './rsa-key';

/**
 * Certificate chain validation for x509 payment requests (notes/bip70.md §3). pki_data lists the
 * leaf first, then each certificate that certified the previous one; the root MAY be included.
 * Trust comes only from the root store passed in, judged at the time passed in. pkijs builds the
 * path by checking signatures, so a CA that merely has the right *name* (Core's 5-cert1) fails,
 * and a leaf whose subject equals its issuer's name but is signed by that issuer (Core's
 * *-cert2) passes.
 *
 * Speed (notes in bench/README.md, row e2): certificates are parsed once (a cache, injectable),
 * the root store is indexed once by subject and by DER, so candidate issuers are looked up rather
 * than compared with every root, and imported public keys are kept per certificate. On first
 * sight (issue 21) keys are imported from the parsed key (rsa-key.ts) and the chain's signature
 * checks start together.
 * Every check is still made by pkijs on every call.
 */

export type ChainResult =
  | {
      ok: true;
      /** Leaf first, ending with the trust anchor from the root store. */
      path: pkijs.Certificate[];
      leaf: pkijs.Certificate;
      anchor: pkijs.Certificate;
    }
  | { ok: false; reason: string };

export interface ChainOptions {
  roots: RootStore;
  now: Date;
  subtle: SubtleCrypto;
  /** Parsed certificates kept between calls; default one cache shared by every call. */
  certificates?: CertificateCache;
}

/** Path building in pkijs has no cycle check; bound the issuer look-ups so crafted chains can't loop. */
const MAX_ISSUER_LOOKUPS = 4 * (MAX_CERTIFICATES + 2);

const KEY_USAGE = '2.5.29.15';
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const BASIC_CONSTRAINTS = '2.5.29.19';

const day = (date: Date) => formatDate(date, { timeStyle: undefined });

// The string types pkijs compares by their prepared text (AttributeTypeAndValue.isEqual); any
// other value it compares byte for byte.
const STRING_BLOCKS = new Set(
  [
    asn1js.Utf8String,
    asn1js.BmpString,
    asn1js.UniversalString,
    asn1js.NumericString,
    asn1js.PrintableString,
    asn1js.TeletexString,
    asn1js.VideotexString,
    asn1js.IA5String,
    asn1js.GraphicString,
    asn1js.VisibleString,
    asn1js.GeneralString,
    asn1js.CharacterString,
  ].map((type) => type.blockName()),
);

/**
 * A key that is equal for names pkijs calls equal (same attributes in order, strings compared
 * after pkijs's own stringPrep). pkijs compares prepared strings with localeCompare, which may
 * also equate a few strings this key keeps apart: a name found by no key falls back to pkijs.
 */
function nameKey(name: pkijs.RelativeDistinguishedNames): string {
  return name.typesAndValues
    .map((entry) => {
      const value = entry.value as asn1js.AsnType & {
        valueBlock?: { value?: unknown };
        valueBeforeDecodeView: Uint8Array;
      };
      const text = value.valueBlock?.value;
      const isString = STRING_BLOCKS.has((value.constructor as typeof asn1js.BaseBlock).blockName());
      return isString && typeof text === 'string'
        ? `${entry.type}=s${pkijs.stringPrep(text)}`
        : `${entry.type}=b${derKey(value.valueBeforeDecodeView)}`;
    })
    .join('\u0000');
}

interface RootIndex {
  /** Roots by their DER, so a root the merchant sent along is recognised without parsing it. */
  byDer: Map<string, pkijs.Certificate>;
  bySubject: Map<string, pkijs.Certificate[]>;
}

/** Built once per root store (the bundled one lives as long as the extension). */
const rootIndexes = new WeakMap<RootStore, RootIndex>();

function rootIndex(roots: RootStore): RootIndex {
  return getOrAdd(rootIndexes, roots, () => {
    const index: RootIndex = { byDer: new Map(), bySubject: new Map() };
    for (const root of roots.certificates) {
      // Re-encoding a parsed DER certificate gives its bytes back; if it ever did not, that root
      // would only lose the shortcut, never be matched wrongly (equal bytes, same certificate).
      const der = derKey(new Uint8Array(root.toSchema().toBER(false)));
      // A root listed twice (an extra root the bundle already has) is one candidate, not two
      // whose signatures would both be checked.
      if (index.byDer.has(der)) continue;
      index.byDer.set(der, root);
      getOrAdd(index.bySubject, nameKey(root.subject), () => []).push(root);
    }
    return index;
  });
}

/** Roots whose subject is `issuer`: looked up, or compared one by one when the key finds none. */
function rootsNamed(roots: RootStore, index: RootIndex, issuer: pkijs.RelativeDistinguishedNames) {
  return (
    index.bySubject.get(nameKey(issuer)) ?? roots.certificates.filter((root) => issuer.isEqual(root.subject))
  );
}

/** Imported public keys per certificate key (roots and cached certificates live on), per engine. */
const importedKeys = new WeakMap<
  SubtleCrypto,
  WeakMap<pkijs.PublicKeyInfo, Map<string, Promise<CryptoKey>>>
>();

/** pkijs's engine, with each imported public key kept: importing costs as much as verifying. */
class KeyCachingEngine extends pkijs.CryptoEngine {
  private readonly keys: WeakMap<pkijs.PublicKeyInfo, Map<string, Promise<CryptoKey>>>;

  constructor(subtle: SubtleCrypto) {
    super({ name: 'hushdrop', crypto: { subtle } as Crypto });
    this.keys = getOrAdd(importedKeys, subtle, () => new WeakMap());
  }

  override getPublicKey(
    publicKeyInfo: pkijs.PublicKeyInfo,
    signatureAlgorithm: pkijs.AlgorithmIdentifier,
    parameters?: pkijs.CryptoEnginePublicKeyParams,
  ): Promise<CryptoKey> {
    const params = parameters ?? this.fillPublicKeyParameters(publicKeyInfo, signatureAlgorithm);
    const forInfo = getOrAdd(this.keys, publicKeyInfo, () => new Map());
    return keepPromise(forInfo, JSON.stringify(params.algorithm), () =>
      this.importRsaDirectly(publicKeyInfo, params).catch(() =>
        super.getPublicKey(publicKeyInfo, signatureAlgorithm, params),
      ),
    );
  }

  /**
   * One answer per (signed bytes, signature, key, algorithm) for the life of this engine, i.e. of
   * one validateChain call. pkijs checks the certificates of a chain one after another, each a
   * WebCrypto job off this thread; startChecks below starts them all at once and pkijs then
   * finds each answer ready. The same objects mean the same inputs, so the answer is the one a
   * fresh check would give. An RSA key is known by its bytes, not its object: a root and a
   * cross-signed copy of it sent along (BitPay's chains) hold one key, so one check serves both.
   */
  private readonly checks = new Map<unknown, Map<unknown, Map<unknown, Map<unknown, Promise<boolean>>>>>();

  override verifyWithPublicKey(
    data: BufferSource,
    signature: asn1js.BitString | asn1js.OctetString,
    publicKeyInfo: pkijs.PublicKeyInfo,
    signatureAlgorithm: pkijs.AlgorithmIdentifier,
    shaAlgorithm?: string,
  ): Promise<boolean> {
    if (shaAlgorithm !== undefined) {
      return super.verifyWithPublicKey(data, signature, publicKeyInfo, signatureAlgorithm, shaAlgorithm);
    }
    const bySignature = getOrAdd(this.checks, data, () => new Map());
    const byKey = getOrAdd(bySignature, signature, () => new Map());
    const byAlgorithm = getOrAdd(byKey, keyIdentity(publicKeyInfo), () => new Map());
    return keepPromise(byAlgorithm, signatureAlgorithm, () =>
      super.verifyWithPublicKey(data, signature, publicKeyInfo, signatureAlgorithm),
    );
  }

  /**
   * Starts, without waiting for them, the signature checks pkijs's path building will ask for:
   * from the leaf, each certificate against itself when it names itself as its issuer, and
   * against every root and certificate sent along that bears its issuer's name. Only certificates
   * that no root could have issued lead further: findIssuer below takes a root that signed a
   * certificate over any path through the others, so pkijs never asks about those (a cross-signed
   * copy of a root, BitPay's chains). A check pkijs asks for that was not started is simply made
   * then; a failure is kept for pkijs to meet when it asks, as it would have met it itself.
   */
  startChecks(
    leaf: pkijs.Certificate,
    sentAlong: readonly pkijs.Certificate[],
    roots: readonly pkijs.Certificate[],
  ): void {
    const check = (certificate: pkijs.Certificate, issuer: pkijs.Certificate) =>
      this.verifyWithPublicKey(
        certificate.tbsView as BufferSource,
        certificate.signatureValue,
        issuer.subjectPublicKeyInfo,
        certificate.signatureAlgorithm,
      ).catch(() => {});
    const named = (certificate: pkijs.Certificate, issuer: pkijs.Certificate) =>
      issuer !== certificate && certificate.issuer.isEqual(issuer.subject);
    const seen = new Set<pkijs.Certificate>();
    let walk = [leaf];
    while (walk.length > 0) {
      const next: pkijs.Certificate[] = [];
      for (const certificate of walk) {
        if (seen.has(certificate)) continue;
        seen.add(certificate);
        if (certificate.issuer.isEqual(certificate.subject)) check(certificate, certificate);
        const byRoots = roots.filter((root) => named(certificate, root));
        const bySent = sentAlong.filter((other) => named(certificate, other));
        for (const issuer of [...byRoots, ...bySent]) check(certificate, issuer);
        if (byRoots.length === 0) next.push(...bySent);
      }
      walk = next;
    }
  }

  /**
   * An rsaEncryption key for RSASSA-PKCS1-v1_5 (the case pkijs itself handles that way) imported
   * from the key pkijs already parsed (rsa-key.ts), the same key object the request's signature
   * check uses: pkijs's own import re-encodes the SPKI and parses it again first. Anything else,
   * or a key WebCrypto refuses here, goes to pkijs as before.
   */
  private importRsaDirectly(
    publicKeyInfo: pkijs.PublicKeyInfo,
    params: pkijs.CryptoEnginePublicKeyParams,
  ): Promise<CryptoKey> {
    const algorithm = params.algorithm.algorithm as RsaHashedImportParams;
    const hash = typeof algorithm.hash === 'string' ? algorithm.hash : algorithm.hash?.name;
    if (
      algorithm.name !== 'RSASSA-PKCS1-v1_5' ||
      publicKeyInfo.algorithm.algorithmId !== RSA_ENCRYPTION ||
      typeof hash !== 'string'
    ) {
      return Promise.reject(new Error('not an rsaEncryption key for RSASSA-PKCS1-v1_5'));
    }
    return rsaVerifyKey(this.subtle, publicKeyInfo, hash);
  }
}

/**
 * What a check's answer depends on in a key: for an rsaEncryption key (NULL parameters, the only
 * form rsa-key.ts imports), its algorithm and key bits; for any other, the object itself.
 */
function keyIdentity(publicKeyInfo: pkijs.PublicKeyInfo): unknown {
  const { algorithmId, algorithmParams } = publicKeyInfo.algorithm;
  if (algorithmId !== RSA_ENCRYPTION || !(algorithmParams instanceof asn1js.Null)) return publicKeyInfo;
  return `${algorithmId} ${derKey(publicKeyInfo.subjectPublicKey.valueBlock.valueHexView)}`;
}

function sameCertificate(a: pkijs.Certificate, b: pkijs.Certificate): boolean {
  const x = a.tbsView;
  const y = b.tbsView;
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}

async function isSelfSigned(certificate: pkijs.Certificate, engine: pkijs.ICryptoEngine): Promise<boolean> {
  if (!certificate.subject.isEqual(certificate.issuer)) return false;
  try {
    return await certificate.verify(undefined, engine);
  } catch {
    return false;
  }
}

function validityProblem(certificate: pkijs.Certificate, now: Date, who: string): string | undefined {
  if (certificate.notAfter.value < now)
    return t('payCertificateExpired', who, day(certificate.notAfter.value));
  if (certificate.notBefore.value > now)
    return t('payCertificateNotYet', who, day(certificate.notBefore.value));
  return undefined;
}

/** keyUsage, when present on the leaf, must allow digital signatures. */
function leafKeyUsageProblem(leaf: pkijs.Certificate): string | undefined {
  const extension = leaf.extensions?.find((e) => e.extnID === KEY_USAGE);
  if (!extension) return undefined;
  const bits = (extension.parsedValue as { valueBlock?: { valueHexView?: Uint8Array } } | undefined)
    ?.valueBlock?.valueHexView;
  if (!bits || bits.length === 0 || (bits[0]! & 0x80) === 0) {
    return t('payCertificateCannotSign');
  }
  return undefined;
}

/** pkijs does not enforce basicConstraints pathLenConstraint; we do. */
function pathLengthProblem(path: pkijs.Certificate[]): string | undefined {
  for (let i = 2; i < path.length; i++) {
    const extension = path[i]!.extensions?.find((e) => e.extnID === BASIC_CONSTRAINTS);
    const limit = (extension?.parsedValue as pkijs.BasicConstraints | undefined)?.pathLenConstraint;
    if (typeof limit === 'number' && i - 1 > limit) {
      return t('payAuthorityPathLength', displayNameOf(path[i]!.subject));
    }
  }
  return undefined;
}

function describeEngineFailure(code: number, message: string): string {
  switch (code) {
    case 8:
      return t('payChainDates');
    case 14:
      return t('payChainFalseAuthority');
    default:
      if (/certificate path|No valid|Unable to find/i.test(message)) {
        return t('payChainUntrusted');
      }
      return t('payChainInvalid', message || t('payUnknownReason'));
  }
}

/**
 * Validates DER certificates (leaf first) against `roots` at `now`. Never throws for bad input:
 * every failure is a `{ ok: false, reason }` with a sentence.
 */
export async function validateChain(ders: Uint8Array[], options: ChainOptions): Promise<ChainResult> {
  if (ders.length === 0) return { ok: false, reason: t('paySignedNoCertificate') };
  if (ders.length > MAX_CERTIFICATES) {
    return {
      ok: false,
      reason: t('payChainTooLong', ders.length, MAX_CERTIFICATES),
    };
  }
  const cache = options.certificates ?? sharedCertificateCache;
  const index = rootIndex(options.roots);
  // BIP70 lets the sender include the root (BitPay's has serial number 0). Trust must come from
  // our store, so a root sent along is dropped: unread when it is byte for byte one of ours.
  let sent = ders;
  if (sent.length > 1 && index.byDer.has(derKey(sent.at(-1)!))) sent = sent.slice(0, -1);
  let certificates: pkijs.Certificate[];
  try {
    certificates = sent.map((der) => cache.parse(der));
  } catch (error) {
    return {
      ok: false,
      reason: error instanceof PaymentError ? error.message : t('payChainUnreadable'),
    };
  }
  const engine = new KeyCachingEngine(options.subtle);
  const leaf = certificates[0]!;
  let intermediates = certificates.slice(1);

  const leafProblem =
    validityProblem(leaf, options.now, t('payWhatMerchantCertificate')) ?? leafKeyUsageProblem(leaf);
  if (leafProblem) return { ok: false, reason: leafProblem };

  // Any other self-signed certificate at the end proves nothing by itself either.
  const last = intermediates.at(-1);
  if (last && (await isSelfSigned(last, engine))) intermediates = intermediates.slice(0, -1);

  // Only roots that could have issued something in the chain take part (speed); the path
  // builder still checks each signature, so a matching name alone never suffices.
  const chain = [leaf, ...intermediates];
  const candidates = [
    ...new Set(chain.flatMap((certificate) => rootsNamed(options.roots, index, certificate.issuer))),
  ];
  if (candidates.length === 0) {
    return {
      ok: false,
      reason: t('payChainUntrusted'),
    };
  }

  // Roots are checked first: their keys stay imported for the session, so a key one shares with a
  // certificate sent along (a cross-signed copy) is checked with the key already there.
  engine.startChecks(leaf, intermediates, candidates);
  let lookups = 0;
  const validator = new pkijs.CertificateChainValidationEngine({
    trustedCerts: candidates,
    // pkijs takes the last certificate as the one to validate.
    certs: [...intermediates].reverse().concat(leaf),
    checkDate: options.now,
    findIssuer: async (certificate, validationEngine, crypto) => {
      // pkijs aborts the whole search when any branch finds no issuer (e.g. a cross-signed
      // copy of a root whose other issuer we lack). Answering "itself" ends that branch as a
      // dead end instead: such a path holds no trusted certificate and is discarded.
      lookups++;
      if (lookups > MAX_ISSUER_LOOKUPS) return [certificate];
      const issuers = await validationEngine.defaultFindIssuer(certificate, validationEngine, crypto);
      const trusted = issuers.filter((issuer) => candidates.some((root) => sameCertificate(root, issuer)));
      if (trusted.length > 0) return trusted;
      return issuers.length > 0 ? issuers : [certificate];
    },
  });

  let result: pkijs.CertificateChainValidationEngineVerifyResult;
  try {
    result = await validator.verify({}, engine);
  } catch (error) {
    return {
      ok: false,
      reason: describeEngineFailure(-1, error instanceof Error ? error.message : ''),
    };
  }
  if (!result.result) {
    if (result.resultCode === 8) {
      for (const certificate of intermediates) {
        const problem = validityProblem(
          certificate,
          options.now,
          t('payWhatAuthority', displayNameOf(certificate.subject)),
        );
        if (problem) return { ok: false, reason: problem };
      }
    }
    return { ok: false, reason: describeEngineFailure(result.resultCode, result.resultMessage) };
  }
  const path = result.certificatePath ?? [];
  const anchor = path.at(-1);
  if (path.length < 2 || !sameCertificate(path[0]!, leaf) || !anchor) {
    return { ok: false, reason: t('payChainNoRoot') };
  }
  const lengthProblem = pathLengthProblem(path);
  if (lengthProblem) return { ok: false, reason: lengthProblem };
  return { ok: true, path, leaf, anchor };
}
