import { t } from '../i18n';
import type { Network } from './addresses';
import { type CertificateCache, sharedCertificateCache } from './certificate-cache';
import { displayNameOf, hostMatchesName, organizationOf } from './certificates';
import { validateChain } from './chain';
import { decodePaymentDetails, decodePaymentRequest, decodeX509Certificates } from './codec';
import { PaymentError } from './errors';
import type { RootStore } from './roots';
import { type PkiType, signedBytesOf, verifyLeafSignature } from './signature';
import { signerNameOf } from './signer-name';
import { checkRules, type EvaluatedDetails, quote, type Verdict } from './verdict';

/**
 * The one entry point: bytes of a PaymentRequest in, a verdict out. Three verdicts, never
 * blurred (notes/bip70.md §13–§14): 'verified' (signature good, chain to a trusted root, rules
 * hold), 'unsigned' (pki_type none: nothing says who made it), 'invalid' (a rule broken, or a
 * signature or chain that does not check out — never shown as merely unsigned).
 */

export interface EvaluateOptions {
  roots: RootStore;
  now: Date;
  /** Defaults to globalThis.crypto.subtle. */
  subtle?: SubtleCrypto;
  expectedNetwork?: Network;
  /** Host of the page (or of the r= URL) the request came from, compared with the certificate. */
  pageHost?: string;
  /** Parsed certificates kept between calls; default one cache shared by every call. */
  certificates?: CertificateCache;
}

export interface Merchant {
  /**
   * The name "Signed by" shows, the one the chain vouches for (signer-name.ts): the leaf's first
   * SAN DNS name, else its CN after it passed the chain's name constraints. Only set when verified.
   */
  commonName: string;
  organization?: string;
  /** The CA that issued the merchant's certificate. */
  issuer: string;
  /** The root from our store that the chain ends at. */
  trustAnchor: string;
  dnsNames: string[];
}

export interface PaymentRequestEvaluation {
  verdict: Verdict;
  /** Why it is invalid (sentences); empty otherwise. */
  reasons: string[];
  merchant?: Merchant;
  details: EvaluatedDetails;
  expired: boolean;
  /** Set when verified and pageHost was given. */
  hostMatches?: boolean;
  /** Set when expectedNetwork was given and the network is known. */
  networkMatches?: boolean;
  warnings: string[];
  pkiType: string;
}

interface PkiOutcome {
  reasons: string[];
  warnings: string[];
  merchant?: Merchant;
}

/** Why the request's signature does not hold, or undefined when it does. */
async function signatureProblemOf(
  subtle: SubtleCrypto,
  leaf: ReturnType<CertificateCache['parse']>,
  pkiType: PkiType,
  signed: Uint8Array,
  signature: Uint8Array,
): Promise<string | undefined> {
  try {
    return (await verifyLeafSignature(subtle, leaf, pkiType, signed, signature))
      ? undefined
      : t('paySignatureMismatch');
  } catch (error) {
    if (!(error instanceof PaymentError)) throw error;
    return error.message;
  }
}

async function checkPki(
  bytes: Uint8Array,
  pkiType: PkiType,
  pkiData: Uint8Array | undefined,
  signature: Uint8Array | undefined,
  options: EvaluateOptions,
  subtle: SubtleCrypto,
): Promise<PkiOutcome> {
  const fail = (reason: string): PkiOutcome => ({ reasons: [reason], warnings: [] });
  if (!signature || signature.length === 0) return fail(t('paySignedNoSignature'));
  if (!pkiData || pkiData.length === 0) return fail(t('paySignedNoCertificates'));

  let ders: Uint8Array[];
  let signed: Uint8Array;
  let leaf: ReturnType<CertificateCache['parse']>;
  const certificates = options.certificates ?? sharedCertificateCache;
  try {
    ders = decodeX509Certificates(pkiData);
    if (ders.length === 0) return fail(t('paySignedNoCertificate'));
    signed = signedBytesOf(bytes);
    leaf = certificates.parse(ders[0]!);
  } catch (error) {
    if (error instanceof PaymentError) return fail(error.message);
    throw error;
  }

  // The request's signature and the chain are judged side by side: each waits on WebCrypto jobs
  // that run off this thread, so overlapping them saves a round trip on first sight.
  const [signatureProblem, chain] = await Promise.all([
    signatureProblemOf(subtle, leaf, pkiType, signed, signature),
    validateChain(ders, { roots: options.roots, now: options.now, subtle, certificates }),
  ]);
  const reasons: string[] = [];
  if (signatureProblem !== undefined) reasons.push(signatureProblem);
  if (!chain.ok) reasons.push(chain.reason);
  if (reasons.length > 0 || !chain.ok) return { reasons, warnings: [] };

  const signer = signerNameOf(chain.path);
  if (!signer.ok) return fail(signer.reason);
  const merchant: Merchant = {
    commonName: signer.name,
    issuer: displayNameOf(leaf.issuer),
    trustAnchor: displayNameOf(chain.anchor.subject),
    dnsNames: signer.dnsNames,
  };
  const organization = organizationOf(leaf.subject);
  if (organization !== undefined) merchant.organization = organization;
  const warnings: string[] = [];
  if (pkiType === 'x509+sha1') {
    warnings.push(t('paySha1'));
  }
  return { reasons, warnings, merchant };
}

/** The warning for a certificate that is not for the page's site (the page shows it its own way). */
export function hostMismatchWarning(commonName: string, pageHost: string): string {
  return t('payHostMismatch', quote(commonName), quote(pageHost));
}

function hostMatches(merchant: Merchant, pageHost: string): boolean {
  // Accept "host:port" too; certificates name hosts, not ports. (IPv6 literals keep their colons.)
  const host = pageHost.startsWith('[') ? pageHost : pageHost.replace(/:\d+$/, '');
  const names = merchant.dnsNames.length > 0 ? merchant.dnsNames : [merchant.commonName];
  return names.some((name) => hostMatchesName(host, name));
}

/**
 * Decodes and judges a PaymentRequest. Throws PaymentError only when the bytes cannot be read
 * as a request at all (too large, truncated, garbled); every readable request gets a verdict.
 */
export async function evaluatePaymentRequest(
  bytes: Uint8Array,
  options: EvaluateOptions,
): Promise<PaymentRequestEvaluation> {
  const request = decodePaymentRequest(bytes);
  const details = decodePaymentDetails(request.serializedPaymentDetails);
  const rules = checkRules(request, details, options);
  const reasons = [...rules.reasons];
  const warnings = [...rules.warnings];
  let merchant: Merchant | undefined;

  const pkiType = request.pkiType;
  if (pkiType === 'none') {
    warnings.unshift(t('payUnsigned'));
    if (request.signature?.length || request.pkiData?.length) {
      warnings.push(t('paySignatureDataIgnored'));
    }
  } else if (pkiType === 'x509+sha256' || pkiType === 'x509+sha1') {
    const subtle = options.subtle ?? globalThis.crypto?.subtle;
    if (!subtle) throw new PaymentError('bad-input', t('payNoWebCrypto'));
    const pki = await checkPki(bytes, pkiType, request.pkiData, request.signature, options, subtle);
    reasons.push(...pki.reasons);
    warnings.push(...pki.warnings);
    merchant = pki.merchant;
  } else {
    reasons.push(t('payPkiUnsupported', quote(pkiType)));
  }

  const verdict: Verdict = reasons.length > 0 ? 'invalid' : pkiType === 'none' ? 'unsigned' : 'verified';
  const evaluation: PaymentRequestEvaluation = {
    verdict,
    reasons,
    details: rules.details,
    expired: rules.expired,
    warnings,
    pkiType,
  };
  if (rules.networkMatches !== undefined) evaluation.networkMatches = rules.networkMatches;
  if (verdict === 'verified' && merchant) {
    evaluation.merchant = merchant;
    if (options.pageHost !== undefined) {
      evaluation.hostMatches = hostMatches(merchant, options.pageHost);
      if (!evaluation.hostMatches) {
        warnings.push(hostMismatchWarning(merchant.commonName, options.pageHost));
      }
    }
  }
  return evaluation;
}
