// What the payment page is opened with: pasted text, its own address, and the address it keeps
// for a reload (lib/payments/page-input.ts). Pure functions: no browser.
import { describe, expect, it } from 'vitest';
import { describeScript } from '../../lib/payments/addresses';
import { PaymentError } from '../../lib/payments/errors';
import { paramsFor, sourceFromParams, sourceFromText } from '../../lib/payments/page-input';
import { PAY_TO_SCRIPT } from '../merchant/server';

const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;
const TEST_ADDRESS = describeScript(PAY_TO_SCRIPT, 'test').address!;

describe('what the page is opened with', () => {
  it('reads r= and page=, or a whole bitcoin: URI', () => {
    const params = new URLSearchParams({
      r: 'https://shop.example/pay/1',
      page: 'https://shop.example/cart',
    });
    expect(sourceFromParams(params)).toEqual({
      kind: 'request',
      requestUrl: 'https://shop.example/pay/1',
      pageUrl: 'https://shop.example/cart',
    });
    const uri = `bitcoin:${PAY_TO}?amount=0.5&r=${encodeURIComponent('https://shop.example/pay/2?h=1&x=2')}`;
    const fromUri = sourceFromParams(new URLSearchParams({ uri }));
    expect(fromUri).toMatchObject({ kind: 'request', requestUrl: 'https://shop.example/pay/2?h=1&x=2' });
    expect(sourceFromParams(new URLSearchParams())).toBeUndefined();
    // A page that is not a web page is not used for the site check.
    expect(sourceFromParams(new URLSearchParams({ r: 'https://a.example/r', page: 'javascript:1' }))).toEqual(
      {
        kind: 'request',
        requestUrl: 'https://a.example/r',
      },
    );
  });

  it('a bitcoin: URI without r= is a plain address on its network', () => {
    expect(sourceFromText(`bitcoin:${PAY_TO}?amount=0.001&label=Shop`)).toMatchObject({
      kind: 'address',
      address: PAY_TO,
      network: 'main',
      uri: { amount: 100_000n, label: 'Shop' },
    });
    expect(sourceFromText(`BITCOIN:${TEST_ADDRESS}`)).toMatchObject({ kind: 'address', network: 'test' });
  });

  it('refuses what cannot be paid, with a sentence', () => {
    const refused = (text: string) => {
      try {
        sourceFromText(text);
      } catch (error) {
        expect(error).toBeInstanceOf(PaymentError);
        expect((error as PaymentError).code).toBe('bad-input');
        return (error as Error).message;
      }
      throw new Error(`accepted ${text}`);
    };
    expect(refused('')).toMatch(/Paste a payment request link/);
    expect(refused('ftp://x.example/')).toMatch(/neither a web address/);
    expect(refused('bitcoin:?r=javascript%3Aalert(1)')).toMatch(/not a web address/);
    expect(refused('bitcoin:?amount=1')).toMatch(/neither an address nor a payment request/);
    expect(refused(`bitcoin:${PAY_TO}?req-future=1`)).toMatch(
      /requires something Hushdrop does not understand/,
    );
    expect(refused('bitcoin:1111111111111111111114oLvT3')).toMatch(/not a valid Bitcoin address/);
  });

  it('paramsFor round-trips through sourceFromParams', () => {
    for (const text of [
      'https://shop.example/pay/1',
      `bitcoin:?r=${encodeURIComponent('https://shop.example/pay/1')}`,
      `bitcoin:${PAY_TO}?amount=0.001&label=A%20shop`,
    ]) {
      const source = sourceFromText(text);
      const again = sourceFromParams(new URLSearchParams(paramsFor(source)));
      expect(again?.kind).toBe(source.kind);
      if (again?.kind === 'request' && source.kind === 'request')
        expect(again.requestUrl).toBe(source.requestUrl);
      if (again?.kind === 'address' && source.kind === 'address')
        expect(again.uri.amount).toBe(source.uri.amount);
    }
  });
});
