import { code as iso4217 } from 'currency-codes';

/**
 * Amounts in currencies other than bitcoin, as BOLT 12 offers may state them (`offer_currency`):
 * an ISO 4217 code, and a whole number of the currency's smallest unit ("adjusted by the ISO 4217
 * exponent", e.g. US cents). The exponents come from the currency-codes package's ISO 4217 table.
 */

/** Three capital letters, as ISO 4217 writes a currency. */
export type CurrencyCode = Uppercase<string>;

export function isCurrencyCode(text: string): text is CurrencyCode {
  return /^[A-Z]{3}$/.test(text);
}

/** The ISO 4217 exponent (digits after the point) of a currency, or undefined for a code not in the list. */
export function currencyDigits(code: CurrencyCode): number | undefined {
  return iso4217(code)?.digits;
}

/** A whole number of a currency's smallest unit as a decimal with exactly `digits` places: 10000n, 2 → "100.00". */
export function currencyDecimal(value: bigint, digits: number): string {
  if (digits === 0) return value.toString();
  const text = value.toString().padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
