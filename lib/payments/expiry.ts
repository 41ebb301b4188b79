import { formatDate, t } from '../i18n';
import { PaymentError } from './errors';

/**
 * Expiry rule (notes/bip70.md §5 asks us to pick one): a request is expired iff `expires` is
 * present and `expires < now`, compared as unsigned 64-bit integers in whole seconds. So
 * `expires = 0` and `1` are long past (expired), and `2^63 - 1` and `2^63` are far in the
 * future (not expired; unlike Bitcoin Core, which cast to int64 and saw 2^63 as negative). At
 * the exact second `expires == now` the request is still valid ("after which" it is invalid).
 */

export function unixSeconds(now: Date): bigint {
  const ms = now.getTime();
  if (!Number.isFinite(ms)) throw new PaymentError('bad-input', t('payClockInvalid'));
  return BigInt(Math.floor(ms / 1000));
}

export function isExpired(expires: bigint | undefined, now: Date): boolean {
  return expires !== undefined && expires < unixSeconds(now);
}

/** For the moment just before paying (BIP70 asks wallets to re-check). */
export function assertNotExpired(details: { expires?: bigint }, now: Date): void {
  if (isExpired(details.expires, now)) {
    throw new PaymentError('expired', t('payExpiredAskNew', formatTime(details.expires!)));
  }
}

/** Seconds since the epoch as the language writes a date and time, in the person's time zone. */
export function formatTime(seconds: bigint): string {
  // Date covers ±8.64e15 ms; beyond that, say it plainly.
  if (seconds > 8_640_000_000_000n) return t('payDateBeyond', 275_000, seconds.toString());
  return formatDate(Number(seconds) * 1000);
}
