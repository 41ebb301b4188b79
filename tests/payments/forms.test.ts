// The classifier: request text and page links sorted by their form (the content script's only
// work on a page), which decides what the parser reads and what is turned away before any decoder
// runs.
import { describe, expect, it } from 'vitest';
import { PaymentError } from '../../lib/payments/errors';
import { looksLikeLnurl, MAX_REQUEST_TEXT, paymentFormOf, paymentLinkOf } from '../../lib/payments/forms';
import { sourceOf } from '../../lib/payments/page-input';
import { readPayment } from '../../lib/payments/read';

describe('paymentFormOf', () => {
  it('names each kind by its form, with or without lightning:, in either case', () => {
    const cases: [string, ReturnType<typeof paymentFormOf>][] = [
      ['bitcoin:bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4?amount=0.001', 'bip21'],
      ['BITCOIN:BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bip21'],
      ['lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqf', 'bolt11'],
      ['lightning:LNTBS1pvjluezpp5qqqsyqcyq5rqwzqf', 'bolt11'],
      ['lnbcrt1pvjluez', 'bolt11'],
      [
        'LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS',
        'lnurl',
      ],
      ['lightning:lnurl1dp68gurn8ghj7', 'lnurl'],
      ['lnurlp://shop.example/pay/tea', 'lnurl'],
      ['alice@shop.example', 'lnurl'],
      ['https://shop.example/pay/1', 'bip70'],
      ['  alice@shop.example  ', 'lnurl'],
    ];
    for (const [text, kind] of cases) expect([text, paymentFormOf(text)]).toEqual([text, kind]);
  });

  it('turns away text of no kind, and anything longer than a request can be', () => {
    for (const text of [
      '',
      'ftp://example.org/x',
      'hello world',
      'mailto:alice@shop.example',
      'lnbc',
      'a@b/c',
    ])
      expect([text, paymentFormOf(text)]).toEqual([text, undefined]);
    expect(paymentFormOf(`bitcoin:${'a'.repeat(MAX_REQUEST_TEXT)}`)).toBeUndefined();
    expect(looksLikeLnurl('two words@shop.example')).toBe(false);
  });
});

describe('paymentLinkOf (what the content script counts), and what the parser reads from it', () => {
  /** What a click on the link opens: the classified link's text, read by the payment page's parser. */
  const opened = (href: string, type?: string, baseUrl?: string) => {
    const link = paymentLinkOf({ href, type: type ?? null, ...(baseUrl ? { baseUrl } : {}) });
    return link && sourceOf(readPayment(link.text));
  };

  it('bitcoin: with r= → the r URL to fetch, the URI kept', () => {
    const href = 'bitcoin:?r=https%3A%2F%2Fshop.example%2Fi%2F1';
    expect(paymentLinkOf({ href })).toEqual({ form: 'bip21', text: href });
    expect(opened(href)).toMatchObject({ kind: 'request', requestUrl: 'https://shop.example/i/1', uri: {} });
  });

  it('bitcoin: without r=, or with a non-http r=, is request text to judge, never a URL to fetch', () => {
    for (const href of [
      'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1',
      'bitcoin:?r=javascript:alert(1)',
      'bitcoin:?r=file:///etc/passwd',
      'bitcoin:?r=/relative',
      'bitcoin:%zz',
    ]) {
      expect(paymentLinkOf({ href }), href).toEqual({ form: 'bip21', text: href });
      let kind: string;
      try {
        kind = opened(href)!.kind;
      } catch (error) {
        expect(error, href).toBeInstanceOf(PaymentError);
        kind = (error as PaymentError).code;
      }
      expect(['offline', 'bad-input'], href).toContain(kind);
    }
  });

  it('lightning: and lnurlp: links Hushdrop reads (invoices, offers, LNURLs) are request text; others are left alone', () => {
    const invoice = 'lightning:lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs';
    expect(paymentLinkOf({ href: invoice })).toEqual({ form: 'bolt11', text: invoice });
    expect(opened(invoice)).toEqual({ kind: 'offline', text: invoice });
    expect(paymentLinkOf({ href: 'LIGHTNING:alice@shop.example' })).toMatchObject({ form: 'lnurl' });
    expect(opened('LIGHTNING:alice@shop.example')).toMatchObject({ kind: 'lnurl' });
    expect(paymentLinkOf({ href: 'lnurlp://shop.example/p' })).toMatchObject({ form: 'lnurl' });
    expect(paymentLinkOf({ href: 'lightning:lno1qcp4256ypq' })).toEqual({
      form: 'bolt12',
      text: 'lightning:lno1qcp4256ypq',
    });
    expect(paymentLinkOf({ href: 'lightning:lni1qcp4256ypq' })).toBeUndefined();
    expect(paymentLinkOf({ href: `lightning:lnbc1${'q'.repeat(9000)}` })).toBeUndefined();
  });

  it('type="application/bitcoin-paymentrequest" (any case, with parameters) → the href', () => {
    const type = ' Application/Bitcoin-PaymentRequest; q=1';
    expect(paymentLinkOf({ href: 'https://shop.example/i/2', type })).toEqual({
      form: 'bip70',
      text: 'https://shop.example/i/2',
    });
    expect(opened('https://shop.example/i/2', type)).toEqual({
      kind: 'request',
      requestUrl: 'https://shop.example/i/2',
    });
  });

  it('a path ending .bitcoinpaymentrequest → the href; relative with a base', () => {
    expect(paymentLinkOf({ href: 'https://shop.example/x/Invoice.BitcoinPaymentRequest?v=1' })).toMatchObject(
      {
        form: 'bip70',
      },
    );
    expect(paymentLinkOf({ href: 'i.bitcoinpaymentrequest', baseUrl: 'http://shop.example/a/' })).toEqual({
      form: 'bip70',
      text: 'http://shop.example/a/i.bitcoinpaymentrequest',
    });
    expect(opened('i.bitcoinpaymentrequest', undefined, 'http://shop.example/a/')).toEqual({
      kind: 'request',
      requestUrl: 'http://shop.example/a/i.bitcoinpaymentrequest',
    });
    expect(paymentLinkOf({ href: 'https://shop.example/?f=x.bitcoinpaymentrequest' })).toBeUndefined();
  });

  it('ordinary links are not payment-request links', () => {
    for (const href of ['https://example.org/', 'mailto:a@b.c', 'javascript:void(0)', '', '#top']) {
      expect(paymentLinkOf({ href, type: null })).toBeUndefined();
    }
    expect(paymentLinkOf({ href: 'ftp://x/a.bitcoinpaymentrequest' })).toBeUndefined();
    expect(paymentLinkOf({ href: 'https://x/a', type: 'application/octet-stream' })).toBeUndefined();
  });

  it('counts every bitcoin: link without parsing it, an unreadable one too (the page says why)', () => {
    for (const href of ['BITCOIN:%zz', '  bitcoin:?amount=-1  '])
      expect(paymentLinkOf({ href }), href).toEqual({ form: 'bip21', text: href.trim() });
    expect(paymentLinkOf({ href: `bitcoin:${'a'.repeat(9000)}` })).toBeUndefined();
  });
});
