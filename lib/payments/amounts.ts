import { t, uiLanguage } from '../i18n';
import { formatBtc, scaled } from './btc';
import { currencyDecimal, currencyDigits } from './currency';
import type { Amount } from './request';

/** Amounts as text for people, exactly (bigint), in the language's way of writing numbers. */

export { formatBtc, parseBtc } from './btc';

/** A decimal as the language writes numbers, every digit kept (only the separators change). */
function forPeople(decimal: string): string {
  const [whole, fraction] = decimal.split('.') as [string, string?];
  const numbers = new Intl.NumberFormat(uiLanguage());
  const point = numbers.formatToParts(0.5).find((part) => part.type === 'decimal')?.value ?? '.';
  const wholeText = numbers.format(BigInt(whole));
  return fraction === undefined ? wholeText : `${wholeText}${point}${fraction}`;
}

/**
 * An amount as the language writes numbers, with every digit kept: 123456789000n → "1,234.56789
 * BTC" in English, "1.234,56789 BTC" in German, where "1.234" would read as a thousand. Only the
 * separators change (Intl formats the whole bitcoins as a bigint), never the digits, so no
 * rounding can happen; bitcoin: URIs and the fields copied into wallets keep formatBtc's form.
 */
export function formatBtcForPeople(satoshis: bigint): string {
  return t('payBtc', forPeople(formatBtc(satoshis)));
}

/**
 * Any request's amount for people, in bitcoin and in satoshis, exact to the millisatoshi:
 * {250000000, msat} → "0.0025 BTC (250,000 sat)", {967878534, msat} → "0.00967878534 BTC
 * (967,878.534 sat)". An amount in another currency (a BOLT 12 offer's) keeps its currency:
 * {10000, USD} → "100.00 USD"; for a code not in ISO 4217's list, the number as the offer wrote it.
 */
export function formatAmountForPeople(amount: Amount): string {
  if (amount.unit !== 'sat' && amount.unit !== 'msat') {
    const digits = currencyDigits(amount.unit);
    return digits === undefined
      ? t('payCurrencyUnknownAmount', forPeople(amount.value.toString()), amount.unit)
      : t('payCurrencyAmount', forPeople(currencyDecimal(amount.value, digits)), amount.unit);
  }
  const msat = amount.unit === 'msat' ? amount.value : amount.value * 1000n;
  return t('payBtcAndSat', forPeople(scaled(msat, 11)), forPeople(scaled(msat, 3)));
}

/** Satoshis typed by a person ("21", "0.5", "1234.567") as millisatoshis; undefined if not plain. */
export function parseSatToMsat(text: string): bigint | undefined {
  const match = /^(\d{1,16})(?:\.(\d{1,3}))?$/.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1]!) * 1000n + BigInt((match[2] ?? '').padEnd(3, '0'));
}
