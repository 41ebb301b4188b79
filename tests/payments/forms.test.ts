// The cheap sorting of request text by its form (content script, background): which decoder gets
// it, and what is turned away before any decoder runs.
import { describe, expect, it } from 'vitest';
import { kindOfText, looksLikeLnurl, MAX_REQUEST_TEXT } from '../../lib/payments/forms';

describe('kindOfText', () => {
  it('names each kind by its form, with or without lightning:, in either case', () => {
    const cases: [string, ReturnType<typeof kindOfText>][] = [
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
    for (const [text, kind] of cases) expect([text, kindOfText(text)]).toEqual([text, kind]);
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
      expect([text, kindOfText(text)]).toEqual([text, undefined]);
    expect(kindOfText(`bitcoin:${'a'.repeat(MAX_REQUEST_TEXT)}`)).toBeUndefined();
    expect(looksLikeLnurl('two words@shop.example')).toBe(false);
  });
});
