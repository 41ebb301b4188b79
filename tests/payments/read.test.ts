// The parser (lib/payments/read.ts): request text read once, in the form the classifier names.
// The payment page (sourceOf), the judging (checkRead) and the background's re-check of a page's
// message all start from what it returns, so text reads the same way wherever it arrives.
import { describe, expect, it } from 'vitest';
import { checkPaymentText, checkRead } from '../../lib/payments/check';
import { PaymentError } from '../../lib/payments/errors';
import { sourceFromText, sourceOf } from '../../lib/payments/page-input';
import { readPayment } from '../../lib/payments/read';

const NOW = new Date('2026-01-01T00:00:00Z');
const P2WPKH = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';

describe('readPayment', () => {
  it('reads each form once: a URI’s parameters, an LNURL’s terms address, a request’s address', () => {
    expect(readPayment(`  bitcoin:${P2WPKH}?amount=0.001&r=https%3A%2F%2Fshop.example%2Fi  `)).toMatchObject({
      form: 'bip21',
      text: `bitcoin:${P2WPKH}?amount=0.001&r=https%3A%2F%2Fshop.example%2Fi`,
      uri: { address: P2WPKH, amount: 100_000n, r: 'https://shop.example/i' },
    });
    expect(readPayment('lightning:lnbc1pvjluez')).toEqual({ form: 'bolt11', text: 'lightning:lnbc1pvjluez' });
    expect(readPayment('alice@shop.example')).toMatchObject({
      form: 'lnurl',
      target: { url: 'https://shop.example/.well-known/lnurlp/alice' },
    });
    expect(readPayment('https://shop.example/pay?id=1')).toEqual({
      form: 'bip70',
      text: 'https://shop.example/pay?id=1',
      url: 'https://shop.example/pay?id=1',
    });
  });

  it('text of a known form that cannot be read comes back with the refusal, shown as invalid', () => {
    const uri = readPayment('bitcoin:?amount=1,5');
    expect(uri).toMatchObject({ form: 'bip21' });
    expect('unreadable' in uri && uri.unreadable.message).toMatch(/amount/);
    const address = readPayment('al!ce@shop.example');
    expect('unreadable' in address && address.unreadable.code).toBe('bad-lnurl');
    expect(checkRead(uri, NOW)).toMatchObject({ kind: 'bip21', verdict: 'invalid' });
    expect(sourceOf(address)).toEqual({ kind: 'offline', text: 'al!ce@shop.example' });
  });

  it('refuses text of no form with a sentence, before anything else reads it', () => {
    for (const text of ['', 'hello', 'ftp://x.example/', 'http://', `bitcoin:${'a'.repeat(9000)}`]) {
      expect(() => readPayment(text), text).toThrow(PaymentError);
      expect(() => readPayment(text), text).toThrow(/not a payment request Hushdrop can read/);
    }
  });

  it('the page and the check agree with the parser on every form', () => {
    for (const text of [
      `bitcoin:${P2WPKH}?amount=0.001`,
      'bitcoin:?r=https%3A%2F%2Fshop.example%2Fi',
      'lightning:lnbc1pvjluez',
      'LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS',
      'https://shop.example/pay/1',
    ]) {
      expect(sourceFromText(text)).toEqual(sourceOf(readPayment(text)));
      expect(checkPaymentText(text, NOW)).toEqual(checkRead(readPayment(text), NOW));
    }
  });
});
