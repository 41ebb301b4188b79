/** Time as the payment page shows it: what is left until expiry, and how far the clocks differ. */

/** More than this between the local clock and the request's `time` gets a warning. */
export const CLOCK_TOLERANCE_S = 5 * 60;

const wholeSeconds = (now: Date) => BigInt(Math.floor(now.getTime() / 1000));

/** Seconds the local clock is ahead of the request's creation time (negative: behind). */
export function clockOffsetSeconds(details: { time: bigint }, now: Date): number {
  return Number(wholeSeconds(now) - details.time);
}

/** Seconds until expiry (negative once expired), or undefined when it never expires. */
export function secondsLeft(details: { expires?: bigint | undefined }, now: Date): number | undefined {
  if (details.expires === undefined) return undefined;
  const left = details.expires - wholeSeconds(now);
  // Far-future values stay far in the future, without losing the sign.
  if (left > 10n ** 12n) return 1e12;
  if (left < -(10n ** 12n)) return -1e12;
  return Number(left);
}

/** Expiry in ms since the epoch, when it is a date JavaScript can hold (for the history). */
export function expiresMs(expires: bigint | undefined): number | undefined {
  if (expires === undefined || expires > 8_640_000_000_000n) return undefined;
  return Number(expires) * 1000;
}
