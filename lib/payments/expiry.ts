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
  if (!Number.isFinite(ms)) throw new PaymentError('bad-input', 'The current time is not a valid date.');
  return BigInt(Math.floor(ms / 1000));
}

export function isExpired(expires: bigint | undefined, now: Date): boolean {
  return expires !== undefined && expires < unixSeconds(now);
}

/** For the moment just before paying (BIP70 asks wallets to re-check). */
export function assertNotExpired(details: { expires?: bigint }, now: Date): void {
  if (isExpired(details.expires, now)) {
    throw new PaymentError(
      'expired',
      `This payment request expired on ${formatTime(details.expires!)}; ask the merchant for a new one.`,
    );
  }
}

/** ISO date-time for times JavaScript can show; otherwise the raw number of seconds. */
export function formatTime(seconds: bigint): string {
  // Date covers ±8.64e15 ms; beyond that, say it plainly.
  if (seconds > 8_640_000_000_000n) return `a date beyond the year 275,000 (${seconds} seconds)`;
  return `${new Date(Number(seconds) * 1000).toISOString().replace('.000Z', 'Z')}`;
}
