import { bitcoinUriFor } from './uri';
import type { EvaluatedDetails } from './verdict';

/** The `bitcoin:` URIs the payment page hands to a wallet (QR code, link, copy field). */

/**
 * For a fetched BIP70 request (BIP21 + BIP72): the first output's address and amount for
 * wallets without payment-request support, and `r=` for those with it.
 */
export function walletUriFor(details: EvaluatedDetails, requestUrl: string): string {
  const r = `r=${encodeURIComponent(requestUrl)}`;
  const first = details.outputs[0];
  if (!first?.address) return `bitcoin:?${r}`;
  const base = bitcoinUriFor(first.address, first.amount);
  return `${base}${base.includes('?') ? '&' : '?'}${r}`;
}
