/**
 * What `npm run payment -- --dnssec-proof <hex>` prints for a BIP 353 name: kind, verdict, reason,
 * name, then the TXT record's request as the command prints any request (null when the name's
 * records did not hold), then how the chain was checked.
 */
import { type PaymentReport, reportOf } from '../check';
import type { CheckedRequest } from '../request';

export interface Bip353Report {
  kind: 'bip353';
  verdict: CheckedRequest['verdict'];
  reason: string | null;
  name: string | null;
  payment: PaymentReport | null;
  [more: string]: unknown;
}

export function bip353ReportOf(checked: CheckedRequest): Bip353Report {
  const details = checked.bip353;
  const payment = details?.payment;
  return {
    kind: 'bip353',
    verdict: checked.verdict,
    reason: checked.reasons.length ? checked.reasons.join(' ') : null,
    name: details?.name ?? null,
    payment: payment ? { ...reportOf(payment), details: payment.bip21 ?? null } : null,
    uri: details?.uri ?? null,
    zones: details?.zones ?? null,
    path: details?.path ?? null,
    wildcard: details?.wildcard ?? null,
    signaturesUntil:
      details?.signaturesUntil === undefined
        ? null
        : new Date(Number(details.signaturesUntil) * 1000).toISOString(),
    ttl: details?.ttl ?? null,
  };
}
