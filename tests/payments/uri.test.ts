import { describe, expect, it } from 'vitest';
import { formatBtc, parseBtc } from '../../lib/payments/amounts';
import { PaymentError } from '../../lib/payments/errors';
import { bitcoinUriFor, parseBitcoinUri } from '../../lib/payments/uri';

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
