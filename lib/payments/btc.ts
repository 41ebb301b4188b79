/**
 * Bitcoin amounts as bitcoin: URIs and wallets write them: exactly (bigint), a point, no grouping.
 * Kept apart from amounts.ts (amounts for people, other currencies included), so the URI parser
 * the background runs needs nothing more.
 */

const SAT_PER_BTC = 100_000_000n;

/** A whole number of units as a decimal with `decimals` places, trailing zeros dropped. */
export function scaled(value: bigint, decimals: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const unit = 10n ** BigInt(decimals);
  const fraction = (abs % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${abs / unit}${fraction ? `.${fraction}` : ''}`;
}

/** 110000n → "0.0011", 100000000n → "1". */
export function formatBtc(satoshis: bigint): string {
  return scaled(satoshis, 8);
}

/** "0.0011" → 110000n; undefined when the text is not a plain decimal with ≤ 8 places. */
export function parseBtc(text: string): bigint | undefined {
  const match = /^(\d{1,16})(?:\.(\d{1,8}))?$/.exec(text);
  if (!match) return undefined;
  return BigInt(match[1]!) * SAT_PER_BTC + BigInt((match[2] ?? '').padEnd(8, '0'));
}
