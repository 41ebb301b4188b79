import { describe, expect, it } from 'vitest';
import { formatBtc, parseBtc } from '../../lib/payments/amounts';
import { PaymentError } from '../../lib/payments/errors';
import { bitcoinUriFor, isPaymentLink, parseBitcoinUri, paymentLinkOf } from '../../lib/payments/uri';

describe('parseBitcoinUri (BIP21 + BIP72)', () => {
  it('reads address, amount (to satoshis), label, message', () => {
    const uri = parseBitcoinUri(
      'bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=20.3&label=Luke-Jr&message=Donation%20for%20project%20xyz',
    );
    expect(uri).toMatchObject({
      address: '175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W',
      amount: 2_030_000_000n,
      label: 'Luke-Jr',
      message: 'Donation for project xyz',
    });
    expect(uri.r).toBeUndefined();
  });

  it('BIP72 without an address, r percent-decoded', () => {
    const uri = parseBitcoinUri('bitcoin:?r=https://merchant.example/pay?h%3D2a8628fc2fbe');
    expect(uri.address).toBeUndefined();
    expect(uri.r).toBe('https://merchant.example/pay?h=2a8628fc2fbe');
  });

  it('BIP72 backwards-compatible form keeps address and amount', () => {
    const uri = parseBitcoinUri(
      'BITCOIN:mq7se9wy2egettFxPbmn99cK8v5AFq55Lx?amount=0.11&r=https%3A%2F%2Fmerchant.example%2Fpay%3Fh%3D2a86',
    );
    expect(uri).toMatchObject({
      address: 'mq7se9wy2egettFxPbmn99cK8v5AFq55Lx',
      amount: 11_000_000n,
      r: 'https://merchant.example/pay?h=2a86',
    });
  });

  it('collects unknown req- parameters (which forbid paying), tolerates others', () => {
    const uri = parseBitcoinUri(
      'bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?req-somethingyoudontunderstand=50&foo=1',
    );
    expect(uri.unknownRequired).toEqual(['req-somethingyoudontunderstand']);
    expect(uri.params.foo).toBe('1');
  });

  it.each([
    ['https://example.org', /does not start/],
    ['bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=1,5', /amount/],
    ['bitcoin:175tWpb8K1S7NmH4Zx6rewF9WQrcZv245W?amount=0.000000001', /amount/],
    ['bitcoin:?r=%E0%A4%A', /broken %-escape/],
    ['bitcoin:<script>?r=https://x', /address part/],
  ])('refuses %s', (text, pattern) => {
    expect(() => parseBitcoinUri(text)).toThrow(PaymentError);
    expect(() => parseBitcoinUri(text)).toThrow(pattern);
  });

  it('builds a BIP21 URI for wallets', () => {
    expect(bitcoinUriFor('1BoatSLRHtKNngkdXEeobR76b53LETtpyT', 150_000n, { label: 'Order 42 & co' })).toBe(
      'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=0.0015&label=Order%2042%20%26%20co',
    );
    expect(bitcoinUriFor('1BoatSLRHtKNngkdXEeobR76b53LETtpyT')).toBe(
      'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
    );
  });
});

describe('paymentLinkOf', () => {
  it('bitcoin: with r= → the r URL', () => {
    expect(paymentLinkOf({ href: 'bitcoin:?r=https%3A%2F%2Fshop.example%2Fi%2F1' })).toMatchObject({
      requestUrl: 'https://shop.example/i/1',
      via: 'bitcoin-uri',
    });
  });

  it('bitcoin: without r=, or with a non-http r=, is request text to judge, never a URL to fetch', () => {
    for (const href of [
      'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1',
      'bitcoin:?r=javascript:alert(1)',
      'bitcoin:?r=file:///etc/passwd',
      'bitcoin:?r=/relative',
      'bitcoin:%zz',
    ])
      expect(paymentLinkOf({ href }), href).toEqual({ text: href, via: 'bitcoin-text' });
  });

  it('lightning: and lnurlp: links Hushdrop reads are request text; others are left alone', () => {
    const invoice = 'lightning:lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs';
    expect(paymentLinkOf({ href: invoice })).toEqual({ text: invoice, via: 'lightning' });
    expect(paymentLinkOf({ href: 'LIGHTNING:alice@shop.example' })).toMatchObject({ via: 'lightning' });
    expect(paymentLinkOf({ href: 'lnurlp://shop.example/p' })).toMatchObject({ via: 'lightning' });
    expect(paymentLinkOf({ href: 'lightning:lno1qcp4256ypq' })).toBeUndefined();
    expect(paymentLinkOf({ href: `lightning:lnbc1${'q'.repeat(9000)}` })).toBeUndefined();
  });

  it('type="application/bitcoin-paymentrequest" (any case, with parameters) → the href', () => {
    expect(
      paymentLinkOf({ href: 'https://shop.example/i/2', type: ' Application/Bitcoin-PaymentRequest; q=1' }),
    ).toEqual({ requestUrl: 'https://shop.example/i/2', via: 'mime-type' });
  });

  it('a path ending .bitcoinpaymentrequest → the href; relative with a base', () => {
    expect(paymentLinkOf({ href: 'https://shop.example/x/Invoice.BitcoinPaymentRequest?v=1' })).toMatchObject(
      {
        via: 'file-extension',
      },
    );
    expect(paymentLinkOf({ href: 'i.bitcoinpaymentrequest', baseUrl: 'http://shop.example/a/' })).toEqual({
      requestUrl: 'http://shop.example/a/i.bitcoinpaymentrequest',
      via: 'file-extension',
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
});

describe('amounts', () => {
  it.each([
    [0n, '0'],
    [1n, '0.00000001'],
    [110_000n, '0.0011'],
    [100_000_000n, '1'],
    [2_100_000_000_000_000n, '21000000'],
    [(1n << 64n) - 1n, '184467440737.09551615'],
  ])('%s sat ↔ %s BTC', (sat, text) => {
    expect(formatBtc(sat)).toBe(text);
    expect(parseBtc(text)).toBe(sat);
  });

  it('refuses text that is not a plain amount', () => {
    for (const text of ['', '1e3', '-1', '0.123456789', '1.', '.5', '1,5', 'abc'])
      expect(parseBtc(text)).toBeUndefined();
  });
});

describe('isPaymentLink (what the content script counts)', () => {
  it('agrees with paymentLinkOf on every kind of link, without parsing bitcoin: URIs', () => {
    const anchors = [
      { href: 'bitcoin:?r=https%3A%2F%2Fshop.example%2Fi%2F1' },
      { href: 'bitcoin:1BoatSLRHtKNngkdXEeobR76b53LETtpyT?amount=1' },
      { href: 'BITCOIN:%zz' },
      { href: `bitcoin:${'a'.repeat(9000)}` },
      { href: '  bitcoin:?amount=-1  ' },
      { href: 'lightning:lnbc1pvjluezsp5zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zyg3zygs' },
      { href: 'lightning:lno1qcp4256ypq' },
      { href: 'lnurlp://shop.example/p' },
      { href: 'https://shop.example/i/2', type: 'application/bitcoin-paymentrequest' },
      { href: 'i.bitcoinpaymentrequest', baseUrl: 'http://shop.example/a/' },
      { href: 'https://example.org/' },
      { href: 'mailto:a@b.c' },
      { href: '' },
    ];
    for (const a of anchors) expect(isPaymentLink(a), a.href).toBe(paymentLinkOf(a) !== undefined);
  });
});
