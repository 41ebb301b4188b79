/**
 * From DNSSEC-checked records to a payment request (BIP 353 "Resolution"): of the TXT records at
 * the name, those not starting with "bitcoin:" (any case) are ignored; exactly one must remain;
 * its character-strings are joined in RDATA order, without separators; then the URI is read as
 * any `bitcoin:` URI is (bip21.ts), and the name counts as verified only after that.
 */
import { t } from '../../i18n';
import { checkBitcoinUriText } from '../bip21';
import { type DnssecError, displayName } from '../dnssec/problem';
import { readTxt } from '../dnssec/records';
import { type TrustAnchor, type ValidatedAnswer, validateRecords } from '../dnssec/validate';
import type { ResourceRecord } from '../dnssec/wire';
import { concat, TYPE } from '../dnssec/wire';
import { PaymentError } from '../errors';
import type { Bip353Details, CheckedRequest } from '../request';
import type { Bip353Name } from './name';

const PREFIX = new TextEncoder().encode('bitcoin:');

function startsWithBitcoin(bytes: Uint8Array): boolean {
  if (bytes.length < PREFIX.length) return false;
  // ASCII letters compared without case (BIP 353: "ignoring case").
  return PREFIX.every((b, i) => (bytes[i]! | 0x20) === b || bytes[i] === b);
}

/** The one `bitcoin:` URI of the TXT records; throws PaymentError('dnssec') when there is none or more. */
export function bitcoinUriOf(answer: ValidatedAnswer, name: Bip353Name): string {
  const uris = answer.rdatas.map((rdata) => concat(readTxt(rdata))).filter(startsWithBitcoin);
  if (uris.length === 0)
    throw new PaymentError('dnssec', t('payNameNoInstructions', name.display), {
      detail: 'no-bitcoin-record',
    });
  if (uris.length > 1)
    throw new PaymentError('dnssec', t('payNameTwoRecords', name.display), { detail: 'two-bitcoin-records' });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(uris[0]!);
  } catch {
    throw new PaymentError('dnssec', t('payNameNotText', name.display), { detail: 'not-text' });
  }
}

export interface Bip353Options {
  anchors: readonly TrustAnchor[];
  now: Date;
  subtle?: SubtleCrypto;
  via: Bip353Details['via'];
  /** The resolver's address, when one was asked. */
  resolver?: string;
}

/** A name's request, invalid with `reason`. */
export function refusedName(
  name: Bip353Name,
  reason: string,
  options: Pick<Bip353Options, 'via' | 'resolver'>,
): CheckedRequest {
  return {
    kind: 'bip353',
    verdict: 'invalid',
    reasons: [reason],
    warnings: [],
    expired: false,
    bip353: {
      name: name.display,
      via: options.via,
      ...(options.resolver ? { resolver: options.resolver } : {}),
    },
  };
}

/** The request the name's payment instructions make, its verdict the URI's under the name's signature. */
export function nameRequest(
  name: Bip353Name,
  answer: ValidatedAnswer,
  uri: string,
  options: Pick<Bip353Options, 'now' | 'via' | 'resolver'>,
): CheckedRequest {
  const payment = checkBitcoinUriText(uri, options.now);
  const details: Bip353Details = {
    name: name.display,
    via: options.via,
    payment,
    uri,
    zones: answer.zones.map(displayName),
    path: answer.path.map(displayName),
    signaturesUntil: BigInt(answer.signaturesUntil),
    ttl: answer.ttl,
    wildcard: answer.wildcard,
  };
  if (options.resolver) details.resolver = options.resolver;
  // The DNSSEC chain signs the URI: what it asks is signed, unless the URI itself is refused.
  const checked: CheckedRequest = {
    ...payment,
    kind: 'bip353',
    verdict: payment.verdict === 'invalid' ? 'invalid' : 'verified',
    signer: { kind: 'dnssec', name: name.display, zones: details.zones! },
    bip353: details,
  };
  delete checked.bip21;
  return checked;
}

/**
 * Checks `records` (a proof's, or a resolver's answers) for the name: the DNSSEC chain from the
 * anchors, then the BIP's record rules, then the URI. Anything refused is an invalid request with
 * the sentence; the DnssecError (or PaymentError) is kept as `cause` on the result for callers
 * that decide what to do next (falling back to a Lightning Address).
 */
export async function checkNameRecords(
  name: Bip353Name,
  records: readonly ResourceRecord[],
  options: Bip353Options,
): Promise<{ checked: CheckedRequest; problem?: PaymentError }> {
  let answer: ValidatedAnswer;
  let uri: string;
  try {
    answer = await validateRecords(records, name.dnsName, TYPE.TXT, options);
    uri = bitcoinUriOf(answer, name);
  } catch (error) {
    if (!(error instanceof PaymentError) || error.code !== 'dnssec') throw error;
    return { checked: refusedName(name, error.message, options), problem: error as DnssecError };
  }
  return { checked: nameRequest(name, answer, uri, options) };
}
