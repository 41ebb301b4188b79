import { t } from '../i18n';
import { checkBitcoinUri } from './bip21';
import { nameNotLookedUp } from './bip353/offline';
import { type Bolt11Invoice, decodeBolt11 } from './bolt11';
import { type Bolt12Offer, decodeBolt12 } from './bolt12';
import { currencyDigits } from './currency';
import { isPaymentError } from './errors';
import { formatTime, unixSeconds } from './expiry';
import type { LnurlInvoice, LnurlPayParams, LnurlTarget } from './lnurl';
import { type ReadPayment, readPayment } from './read';
import {
  type Amount,
  type CheckedRequest,
  networkWarning,
  nodeSigner,
  type RequestKind,
  verdictOf,
} from './request';
import type { Verdict } from './verdict';
import type { PaymentRequestEvaluation } from './verify';

/**
 * Text in, the one request model out: what the payment page shows for a pasted or clicked
 * request, and what `npm run payment` prints. Nothing here touches the network; an LNURL is read
 * offline and looked up only when the person asks (the page, or the command with --lookup).
 */

/** Requests that can be judged from their text alone. */
export type OfflineKind = 'bip21' | 'bolt11';

function invoiceRequest(
  invoice: Bolt11Invoice,
  now: Date,
): Omit<CheckedRequest, 'kind' | 'verdict' | 'reasons'> {
  const expired = invoice.expiresAt < unixSeconds(now);
  const checked: Omit<CheckedRequest, 'kind' | 'verdict' | 'reasons'> = {
    warnings: [
      ...networkWarning(invoice.network),
      ...(expired ? [t('payInvoiceExpired', formatTime(invoice.expiresAt))] : []),
    ],
    expired,
    network: invoice.network,
    payee: invoice.payeeNodeKey,
    createdAt: invoice.timestamp,
    expiresAt: invoice.expiresAt,
    signer: nodeSigner(invoice),
    bolt11: invoice,
  };
  if (invoice.amountMsat !== undefined) checked.amount = { value: invoice.amountMsat, unit: 'msat' };
  // An expired invoice is not handed to a wallet.
  if (!expired) {
    checked.handOff = { uri: `lightning:${invoice.invoice}`, invoice: invoice.invoice };
    if (checked.amount) checked.handOff.amount = checked.amount;
  }
  if (invoice.description !== undefined) checked.description = invoice.description;
  return checked;
}

/**
 * A BOLT 12 offer judged at `now`: unsigned (an offer carries no signature; the invoice a wallet
 * asks for will be signed by its issuer key), handed to a wallet as `lightning:lno1…` unless it
 * has expired.
 */
export function offerRequest(offer: Bolt12Offer, now: Date): CheckedRequest {
  const expired = offer.absoluteExpiry !== undefined && offer.absoluteExpiry < unixSeconds(now);
  const checked: CheckedRequest = {
    kind: 'bolt12',
    verdict: 'unsigned',
    reasons: [],
    warnings: [
      ...networkWarning(offer.network),
      ...(expired ? [t('payOfferExpired', formatTime(offer.absoluteExpiry!))] : []),
      ...(offer.currency && currencyDigits(offer.currency) === undefined
        ? [t('payOfferCurrencyUnknown', offer.currency)]
        : []),
    ],
    expired,
    network: offer.network,
    bolt12: offer,
  };
  // Without an issuer key, the last hop of a blinded path is the key the invoice is signed with.
  const payee = offer.issuerId ?? offer.paths[0]?.hops.at(-1)?.blindedNodeId;
  if (payee) checked.payee = payee;
  if (offer.amount !== undefined) checked.amount = { value: offer.amount, unit: offer.currency ?? 'msat' };
  if (offer.description !== undefined) checked.description = offer.description;
  if (offer.absoluteExpiry !== undefined) checked.expiresAt = offer.absoluteExpiry;
  if (!expired) checked.handOff = { uri: `lightning:${offer.offer}`, offer: offer.offer };
  return checked;
}

const invalid = (kind: RequestKind, reasons: string[]): CheckedRequest => ({
  kind,
  verdict: 'invalid',
  reasons,
  warnings: [],
  expired: false,
});

/** What a decoder reads, judged; what it refuses is an invalid request with the reason. */
function decoded<T>(kind: RequestKind, decode: () => T, judge: (value: T) => CheckedRequest): CheckedRequest {
  let value: T;
  try {
    value = decode();
  } catch (error) {
    if (!isPaymentError(error)) throw error;
    return invalid(kind, [error.message]);
  }
  return judge(value);
}

/** A BOLT 11 invoice judged at `now`; a refused one is an invalid request with the reason. */
export function checkBolt11Text(text: string, now: Date): CheckedRequest {
  return decoded(
    'bolt11',
    () => decodeBolt11(text),
    (invoice) => ({ kind: 'bolt11', verdict: 'verified', reasons: [], ...invoiceRequest(invoice, now) }),
  );
}

/** A BOLT 12 offer's text judged at `now`; a refused one is an invalid request with the reason. */
export function checkBolt12Text(text: string, now: Date): CheckedRequest {
  return decoded(
    'bolt12',
    () => decodeBolt12(text),
    (offer) => offerRequest(offer, now),
  );
}

/**
 * An LNURL-pay link or Lightning Address as far as it is known: not looked up (nothing checked
 * yet), its terms (limits and description), or the invoice fetched for an amount, with the
 * reasons it must not be paid when it does not match the terms.
 */
export function lnurlRequest(
  target: LnurlTarget,
  params?: LnurlPayParams,
  fetched?: LnurlInvoice,
  now: Date = new Date(),
): CheckedRequest {
  const base = fetched?.invoice ? invoiceRequest(fetched.invoice, now) : undefined;
  const reasons = fetched?.reasons ?? [];
  const verdict: Verdict = base ? verdictOf(reasons, true) : reasons.length ? 'invalid' : 'unsigned';
  const checked: CheckedRequest = {
    kind: 'lnurl',
    verdict,
    reasons,
    expired: false,
    ...base,
    warnings: [
      ...target.warnings,
      ...(params?.warnings ?? []),
      ...(fetched?.warnings ?? []),
      ...(base?.warnings ?? []),
    ],
    payee: base?.payee ?? target.label,
    lnurl: { target, ...(params ? { params } : {}), ...(fetched?.verify ? { verify: fetched.verify } : {}) },
  };
  if (params) checked.description = params.description;
  if (!base && params && params.minSendableMsat === params.maxSendableMsat)
    checked.amount = { value: params.minSendableMsat, unit: 'msat' };
  // Unchecked or refused: nothing to hand to a wallet.
  if (verdict !== 'verified') delete checked.handOff;
  return checked;
}

/** A judged BIP70 request in the one model; `fetchWarnings` are the transport's (plain http…). */
export function bip70Request(
  evaluation: PaymentRequestEvaluation,
  fetchWarnings: string[] = [],
): CheckedRequest {
  const { details, merchant } = evaluation;
  const first = details.outputs[0];
  const checked: CheckedRequest = {
    kind: 'bip70',
    verdict: evaluation.verdict,
    reasons: evaluation.reasons,
    warnings: [...fetchWarnings, ...evaluation.warnings],
    expired: evaluation.expired,
    createdAt: details.time,
    bip70: evaluation,
  };
  if (details.network === 'main' || details.network === 'test') checked.network = details.network;
  if (details.total > 0n) checked.amount = { value: details.total, unit: 'sat' };
  const payee = evaluation.verdict === 'verified' && merchant ? merchant.commonName : first?.address;
  if (payee) checked.payee = payee;
  if (details.memo !== undefined) checked.description = details.memo;
  if (details.expires !== undefined) checked.expiresAt = details.expires;
  if (evaluation.verdict === 'verified' && merchant) {
    checked.signer = {
      kind: 'certificate',
      name: merchant.commonName,
      issuer: merchant.issuer,
      trustAnchor: merchant.trustAnchor,
      ...(merchant.organization ? { organization: merchant.organization } : {}),
    };
  }
  return checked;
}

/**
 * Judges request text at `now`, offline. A web address is a BIP70 request not yet fetched (it
 * comes back unsigned, with nothing known); an LNURL comes back not looked up. Text of no known
 * form throws PaymentError('bad-input').
 */
export function checkPaymentText(text: string, now: Date): CheckedRequest {
  return checkRead(readPayment(text), now);
}

/** Judges text the parser (read.ts) has read, at `now`. */
export function checkRead(read: ReadPayment, now: Date): CheckedRequest {
  switch (read.form) {
    case 'bip21':
      return 'unreadable' in read
        ? invalid('bip21', [read.unreadable.message])
        : checkBitcoinUri(read.uri, now);
    case 'bolt11':
      return checkBolt11Text(read.text, now);
    case 'bolt12':
      return checkBolt12Text(read.text, now);
    case 'lnurl':
      return 'unreadable' in read ? invalid('lnurl', [read.unreadable.message]) : lnurlRequest(read.target);
    case 'bip353':
      return 'unreadable' in read ? invalid('bip353', [read.unreadable.message]) : nameNotLookedUp(read.name);
    case 'bip70':
      return {
        kind: 'bip70',
        verdict: 'unsigned',
        reasons: [],
        warnings: [t('payNotFetched')],
        expired: false,
      };
  }
}

/** What `npm run payment` prints: the members the issue names, then the details. */
export interface PaymentReport {
  kind: CheckedRequest['kind'];
  verdict: Verdict;
  reason: string | null;
  network: string | null;
  /** For another currency, `decimals` is its ISO 4217 exponent: {"10000", "USD", 2} is 100.00 USD. */
  amount: { value: string; unit: Amount['unit']; decimals?: number } | null;
  payee: string | null;
  [more: string]: unknown;
}

/** Seconds since the epoch as an ISO date, or as the number when no date can hold it. */
function isoTime(seconds: bigint): string {
  return seconds > 8_640_000_000_000n ? seconds.toString() : new Date(Number(seconds) * 1000).toISOString();
}

function amountReport(amount: Amount): PaymentReport['amount'] {
  const report: PaymentReport['amount'] = { value: amount.value.toString(), unit: amount.unit };
  if (amount.unit === 'sat' || amount.unit === 'msat') return report;
  const decimals = currencyDigits(amount.unit);
  return decimals === undefined ? report : { ...report, decimals };
}

export function reportOf(checked: CheckedRequest): PaymentReport {
  const report: PaymentReport = {
    kind: checked.kind,
    verdict: checked.verdict,
    reason: checked.reasons.length ? checked.reasons.join(' ') : null,
    network: checked.network ?? null,
    amount: checked.amount ? amountReport(checked.amount) : null,
    payee: checked.payee ?? null,
    description: checked.description ?? null,
    expires: checked.expiresAt === undefined ? null : isoTime(checked.expiresAt),
    expired: checked.expired,
    signer: checked.signer ?? null,
    warnings: checked.warnings,
    wallet: checked.handOff?.uri ?? null,
  };
  return report;
}
