import { t, uiLanguage } from '../i18n';

/** Satoshi amounts as text, exactly (bigint), for bitcoin: URIs and wallets, and for people. */

const SAT_PER_BTC = 100_000_000n;

/** 110000n → "0.0011", 100000000n → "1". */
export function formatBtc(satoshis: bigint): string {
  const negative = satoshis < 0n;
  const abs = negative ? -satoshis : satoshis;
  const whole = abs / SAT_PER_BTC;
  const fraction = (abs % SAT_PER_BTC).toString().padStart(8, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An amount as the language writes numbers, with every digit kept: 123456789000n → "1,234.56789
 * BTC" in English, "1.234,56789 BTC" in German, where "1.234" would read as a thousand. Only the
 * separators change (Intl formats the whole bitcoins as a bigint), never the digits, so no
 * rounding can happen; bitcoin: URIs and the fields copied into wallets keep formatBtc's form.
 */
export function formatBtcForPeople(satoshis: bigint): string {
  const [whole, fraction] = formatBtc(satoshis).split('.') as [string, string?];
  const numbers = new Intl.NumberFormat(uiLanguage());
  const decimal = numbers.formatToParts(0.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const wholeText = numbers.format(BigInt(whole));
  return t('payBtc', fraction === undefined ? wholeText : `${wholeText}${decimal}${fraction}`);
}

/** "0.0011" → 110000n; undefined when the text is not a plain decimal with ≤ 8 places. */
export function parseBtc(text: string): bigint | undefined {
  const match = /^(\d{1,16})(?:\.(\d{1,8}))?$/.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1]!) * SAT_PER_BTC + BigInt((match[2] ?? '').padEnd(8, '0'));
}
