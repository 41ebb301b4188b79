// The payment side in the person's language: amounts keep every digit whatever the separators,
// and the sentences lib/payments makes come from the messages (German here, English elsewhere).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMessages, fillMessage, formatDate, t } from '../../lib/i18n';
import { formatBtc, formatBtcForPeople } from '../../lib/payments/amounts';
import { formatTime } from '../../lib/payments/expiry';
import { buildPayment } from '../../lib/payments/payment';
import { parseBitcoinUri } from '../../lib/payments/uri';
import { fakeTransactionHex } from '../merchant/transactions';

/** Points lib/i18n at one locale's file, as the browser does for that UI language. */
function speak(lang: 'en' | 'de', uiLanguage: string): void {
  const messages: Record<string, { message: string }> = JSON.parse(
    readFileSync(new URL(`../../public/_locales/${lang}/messages.json`, import.meta.url), 'utf8'),
  );
  connectMessages((key, subs) => {
    const entry = messages[key];
    return entry ? fillMessage(entry.message, subs) : '';
  }, uiLanguage);
}

const script = Uint8Array.from(Buffer.from(`76a914${'42'.repeat(20)}88ac`, 'hex'));

describe('amounts for people, in English', () => {
  it('group the whole bitcoins and keep every decimal', () => {
    expect(formatBtcForPeople(150_000n)).toBe('0.0015 BTC');
    expect(formatBtcForPeople(1n)).toBe('0.00000001 BTC');
    expect(formatBtcForPeople(123_456_789_000n)).toBe('1,234.56789 BTC');
    expect(formatBtcForPeople(2_100_000_000_000_000n)).toBe('21,000,000 BTC');
  });

  it('change only the separators, never a digit (any 64-bit amount)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (sat) => {
        expect(formatBtcForPeople(sat).replace(/,/g, '')).toBe(`${formatBtc(sat)} BTC`);
      }),
    );
  });
});

describe('in German', () => {
  beforeAll(() => speak('de', 'de'));
  afterAll(() => speak('en', 'en'));

  it('amounts use the decimal comma and the point between thousands, digits unchanged', () => {
    expect(formatBtcForPeople(150_000n)).toBe('0,0015 BTC');
    expect(formatBtcForPeople(123_456_789_000n)).toBe('1.234,56789 BTC');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), (sat) => {
        const plain = formatBtcForPeople(sat).replace(/\./g, '').replace(',', '.');
        expect(plain).toBe(`${formatBtc(sat)} BTC`);
      }),
    );
  });

  it('lib/payments explains itself in German', () => {
    expect(() => parseBitcoinUri('https://example.org')).toThrow(
      'Dieser bitcoin:-Link ist nicht lesbar: er beginnt nicht mit „bitcoin:“.',
    );
    const tx = fakeTransactionHex([{ amount: 1n, script }]);
    const built = buildPayment({
      details: { network: 'main', total: 3n, outputs: [{ amount: 3n, script }] },
      transactionsHex: tx,
    });
    expect(built.warnings).toEqual([
      'Die eingefügte Transaktion bezahlt die angeforderte Ausgabe nicht vollständig (1 von 1); der Händler könnte sie ablehnen.',
    ]);
    expect(() =>
      buildPayment({ details: { network: 'main', total: 0n, outputs: [] }, transactionsHex: 'zz' }),
    ).toThrow('Transaktion 1 ist kein Hexadezimaltext.');
  });

  it('dates are written the German way, numbers in sentences too', () => {
    const seconds = BigInt(Date.UTC(2029, 11, 31, 12) / 1000);
    expect(formatTime(seconds)).toBe(formatDate(Date.UTC(2029, 11, 31, 12)));
    expect(formatTime(seconds)).toMatch(/^31\.12\.2029/);
    expect(formatTime(1n << 63n)).toBe('ein Datum nach dem Jahr 275.000 (9223372036854775808 Sekunden)');
    expect(t('payChainTooLong', 12, 10)).toBe(
      'Die Zahlungsanforderung enthält 12 Zertifikate; höchstens 10 werden angenommen.',
    );
  });
});
