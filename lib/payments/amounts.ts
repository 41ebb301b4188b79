/** Satoshi amounts as text, exactly (bigint), for display and bitcoin: URIs. */

const SAT_PER_BTC = 100_000_000n;

/** 110000n → "0.0011", 100000000n → "1". */
export function formatBtc(satoshis: bigint): string {
  const negative = satoshis < 0n;
  const abs = negative ? -satoshis : satoshis;
  const whole = abs / SAT_PER_BTC;
  const fraction = (abs % SAT_PER_BTC).toString().padStart(8, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** "0.0011" → 110000n; undefined when the text is not a plain decimal with ≤ 8 places. */
export function parseBtc(text: string): bigint | undefined {
  const match = /^(\d{1,16})(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1]!) * SAT_PER_BTC + BigInt((match[2] ?? '').padEnd(8, '0'));
}
