import { t } from '../i18n';
import { checkBitcoinUriText } from './bip21';
import { nameNotLookedUp } from './bip353/offline';
import { type Bolt11Invoice, decodeBolt11 } from './bolt11';
import { isPaymentError, PaymentError } from './errors';
import { formatTime, unixSeconds } from './expiry';
import { kindOfText } from './forms';
import { type LnurlInvoice, type LnurlPayParams, type LnurlTarget, parseLnurl } from './lnurl';
import { type Amount, type CheckedRequest, networkWarning, nodeSigner, verdictOf } from './request';
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

const invalid = (kind: CheckedRequest['kind'], reasons: string[]): CheckedRequest => ({
  kind,
  verdict: 'invalid',
  reasons,
  warnings: [],
  expired: false,
});

/** A BOLT 11 invoice judged at `now`; a refused one is an invalid request with the reason. */
export function checkBolt11Text(text: string, now: Date): CheckedRequest {
  let invoice: Bolt11Invoice;
  try {
    invoice = decodeBolt11(text);
  } catch (error) {
    if (!isPaymentError(error)) throw error;
    return invalid('bolt11', [error.message]);
  }
  return { kind: 'bolt11', verdict: 'verified', reasons: [], ...invoiceRequest(invoice, now) };
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
    warnings: [...target.warnings, ...(params?.warnings ?? []), ...(base?.warnings ?? [])],
    payee: base?.payee ?? target.label,
    lnurl: params ? { target, params } : { target },
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
  switch (kindOfText(text)) {
    case 'bip21':
      return checkBitcoinUriText(text, now);
    case 'bolt11':
      return checkBolt11Text(text, now);
    case 'lnurl':
      try {
        return lnurlRequest(parseLnurl(text));
      } catch (error) {
        if (!isPaymentError(error)) throw error;
        return invalid('lnurl', [error.message]);
      }
    case 'bip353':
      return nameNotLookedUp(text);
    case 'bip70':
      return {
        kind: 'bip70',
        verdict: 'unsigned',
        reasons: [],
        warnings: [t('payNotFetched')],
        expired: false,
      };
    default:
      throw new PaymentError('bad-input', t('payInputNotLink'));
  }
}

/** What `npm run payment` prints: the members the issue names, then the details. */
export interface PaymentReport {
  kind: CheckedRequest['kind'];
  verdict: Verdict;
  reason: string | null;
  network: string | null;
  amount: { value: string; unit: Amount['unit'] } | null;
  payee: string | null;
  [more: string]: unknown;
}

/** Seconds since the epoch as an ISO date, or as the number when no date can hold it. */
function isoTime(seconds: bigint): string {
  return seconds > 8_640_000_000_000n ? seconds.toString() : new Date(Number(seconds) * 1000).toISOString();
}

export function reportOf(checked: CheckedRequest): PaymentReport {
  const report: PaymentReport = {
    kind: checked.kind,
    verdict: checked.verdict,
    reason: checked.reasons.length ? checked.reasons.join(' ') : null,
    network: checked.network ?? null,
    amount: checked.amount ? { value: checked.amount.value.toString(), unit: checked.amount.unit } : null,
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
