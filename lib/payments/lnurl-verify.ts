import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { t } from '../i18n';
import type { Bolt11Invoice } from './bolt11';
import { getJson, type LnurlFetchOptions } from './lnurl';
import { badLnurl } from './lnurl-target';

/**
 * LUD-21 ("verify"): asking an LNURL-pay service whether the invoice it gave was paid, at the
 * `verify` address its callback returned (lnurl.ts accepts only one on the terms' own origin). The
 * answer is `{status: "OK", settled, preimage, pr}`. Hushdrop takes "paid" only with a preimage
 * whose SHA-256 is the invoice's payment hash: that shows the answer comes from whoever made the
 * invoice (who knows the secret from the start), so it is the payee's word, not proof that money
 * moved; the paying wallet's record is that. An answer about another invoice, or "paid" without a
 * fitting preimage, is unproven.
 */

export type PaymentStatus =
  /** The service says so, with a preimage (hex) that hashes to the invoice's payment hash. */
  | { state: 'paid'; preimage: string }
  /** The service says it is not paid yet (it cannot prove a negative; nor can anyone). */
  | { state: 'unpaid' }
  /** The service's answer does not hold up; `reason` says why. */
  | { state: 'unproven'; reason: string };

/** The invoice text as it compares: lower case, without `lightning:`. */
const invoiceText = (text: string) =>
  text
    .trim()
    .replace(/^lightning:/i, '')
    .toLowerCase();

/** Asks the service's `verify` address about `invoice` (the person asked) and judges its answer. */
export async function checkLnurlPayment(
  verifyUrl: string,
  invoice: Bolt11Invoice,
  options: LnurlFetchOptions,
): Promise<PaymentStatus> {
  const body = await getJson(verifyUrl, options);
  if (typeof body.settled !== 'boolean' || typeof body.pr !== 'string')
    throw badLnurl('verify', t('payLnurlVerifyUnreadable', new URL(verifyUrl).host));
  if (invoiceText(body.pr) !== invoice.invoice)
    return { state: 'unproven', reason: t('payLnurlVerifyOtherInvoice') };
  if (!body.settled) return { state: 'unpaid' };
  const preimage = typeof body.preimage === 'string' ? body.preimage.toLowerCase() : '';
  if (/^[0-9a-f]{64}$/.test(preimage) && hex.encode(sha256(hex.decode(preimage))) === invoice.paymentHash)
    return { state: 'paid', preimage };
  return { state: 'unproven', reason: t('payLnurlVerifyNoProof') };
}
