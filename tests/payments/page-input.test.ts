// What the payment page is opened with: pasted text, its own address, and the address it keeps
// for a reload (lib/payments/page-input.ts). Pure functions: no browser.
import { describe, expect, it } from 'vitest';
import { describeScript } from '../../lib/payments/addresses';
import { PaymentError } from '../../lib/payments/errors';
import { inputTextOf, paramsFor, sourceFromParams, sourceFromText } from '../../lib/payments/page-input';
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

  it('text judged as it is: a bitcoin: URI without r=, an invoice; an LNURL to look up', () => {
    const uri = `bitcoin:${PAY_TO}?amount=0.001&label=Shop`;
    expect(sourceFromText(`  ${uri} `, 'https://shop.example/')).toEqual({
      kind: 'offline',
      text: uri,
      pageUrl: 'https://shop.example/',
    });
    expect(sourceFromText(`BITCOIN:${TEST_ADDRESS}`)).toMatchObject({ kind: 'offline' });
    expect(sourceFromText('lightning:lnbc1pvjluez')).toMatchObject({ kind: 'offline' });
    expect(sourceFromText('alice@shop.example')).toMatchObject({
      kind: 'lnurl',
      target: { url: 'https://shop.example/.well-known/lnurlp/alice' },
    });
    // Unreadable URIs and LNURLs are shown as invalid requests, with the reason.
    expect(sourceFromText('bitcoin:?amount=1,5')).toMatchObject({ kind: 'offline' });
    expect(sourceFromText('al!ce@shop.example')).toMatchObject({ kind: 'offline' });
  });

  it('refuses what is no request at all, with a sentence', () => {
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
    expect(refused('ftp://x.example/')).toMatch(/not a payment request Hushdrop can read/);
    expect(refused('hello')).toMatch(/not a payment request Hushdrop can read/);
    expect(refused('bitcoin:?r=javascript%3Aalert(1)')).toMatch(/not a web address/);
  });

  it('paramsFor round-trips through sourceFromParams', () => {
    for (const text of [
      'https://shop.example/pay/1',
      `bitcoin:?r=${encodeURIComponent('https://shop.example/pay/1')}`,
      `bitcoin:${PAY_TO}?amount=0.001&label=A%20shop`,
      'lightning:lnbc1pvjluez',
      'alice@shop.example',
    ]) {
      const source = sourceFromText(text, 'https://shop.example/');
      const again = sourceFromParams(new URLSearchParams(paramsFor(source)));
      expect(again?.kind).toBe(source.kind);
      expect(again?.pageUrl).toBe('https://shop.example/');
      expect(inputTextOf(again)).toBe(inputTextOf(source));
    }
  });
});
