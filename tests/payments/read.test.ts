// The parser (lib/payments/read.ts): request text read once, in the form the classifier names.
// The payment page (sourceOf), the judging (checkRead) and the background's re-check of a page's
// message all start from what it returns, so text reads the same way wherever it arrives.
import { describe, expect, it } from 'vitest';
import { checkPaymentText, checkRead } from '../../lib/payments/check';
import { PaymentError } from '../../lib/payments/errors';
import { paymentFormOf } from '../../lib/payments/forms';
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

  it('reads a ₿name once, and a plain user@domain with the BIP 353 name it also is', () => {
    expect(paymentFormOf('₿alice@shop.example')).toBe('bip353');
    const named = readPayment(' ₿Alice@Shop.example ');
    const name = { user: 'alice', domain: 'shop.example', display: '₿alice@shop.example' };
    expect(named).toMatchObject({ form: 'bip353', text: '₿Alice@Shop.example', name });
    expect(readPayment('alice@shop.example')).toMatchObject({ form: 'lnurl', name });
    // A lightning: link names a Lightning Address only; an LNURL is no name.
    expect(readPayment('lightning:alice@shop.example')).not.toHaveProperty('name');
    expect(sourceOf(named, 'https://page.example/')).toMatchObject({
      kind: 'name',
      text: '₿Alice@Shop.example',
      name,
      pageUrl: 'https://page.example/',
    });
    expect(checkRead(named, NOW)).toMatchObject({ kind: 'bip353', verdict: 'unsigned', payee: name.display });
  });

  it('a ₿name BIP 353 does not allow comes back refused: invalid when judged, its reason on the page', () => {
    const read = readPayment('₿al!ce@shop.example');
    expect(read).toMatchObject({ form: 'bip353' });
    expect('unreadable' in read && read.unreadable.code).toBe('bad-input');
    expect(checkRead(read, NOW)).toMatchObject({
      kind: 'bip353',
      verdict: 'invalid',
      reasons: [
        '“al!ce@shop.example” is not a BIP 353 name: it should read user@domain, with letters, digits, “-”, “_” and dots.',
      ],
    });
    expect(() => sourceOf(read)).toThrow(/“al!ce@shop.example” is not a BIP 353 name/);
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
      '₿alice@shop.example',
      'alice@shop.example',
    ]) {
      expect(sourceFromText(text)).toEqual(sourceOf(readPayment(text)));
      expect(checkPaymentText(text, NOW)).toEqual(checkRead(readPayment(text), NOW));
    }
  });
});
