// LNURL-pay and Lightning Addresses (lib/payments/lnurl.ts): the forms read offline (LUD-01,
// LUD-16, LUD-17), then terms and invoices from the local LNURL service with Node's fetch.
import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPaymentText, lnurlRequest, reportOf } from '../../lib/payments/check';
import { PaymentError } from '../../lib/payments/errors';
import {
  fetchLnurlInvoice,
  fetchPayParams,
  type LnurlFetchOptions,
  parseLnurl,
} from '../../lib/payments/lnurl';
import { checkLnurlPayment } from '../../lib/payments/lnurl-verify';
import { TEST_NODE_KEY } from './invoices';
import {
  CLOSED_REASON,
  FIXED_MSAT,
  type LnurlService,
  MAX_MSAT,
  MIN_MSAT,
  startLnurlService,
} from './server';

const options: LnurlFetchOptions = { fetch: (input, init) => fetch(input, init) };

let service: LnurlService;
beforeAll(async () => {
  service = await startLnurlService();
});
afterAll(() => service?.close());

async function refusedWith(promise: Promise<unknown>): Promise<PaymentError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentError);
  return error as PaymentError;
}

describe('reading LNURL forms offline', () => {
  it('decodes LUD-01’s example LNURL to its URL', () => {
    const example =
      'LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS';
    const url = 'https://service.com/api?q=3fc3645b439ce8e7f2553a69e5267081d96dcd340693afabe04be7b0ccd178df';
    expect(parseLnurl(example)).toMatchObject({ form: 'link', url, host: 'service.com', warnings: [] });
    expect(parseLnurl(`lightning:${example.toLowerCase()}`).url).toBe(url);
  });

  it('maps a Lightning Address to its well-known URL (LUD-16) and lnurlp:// to https (LUD-17)', () => {
    expect(parseLnurl('satoshi@bitcoin.org')).toMatchObject({
      form: 'address',
      label: 'satoshi@bitcoin.org',
      identifier: 'satoshi@bitcoin.org',
      url: 'https://bitcoin.org/.well-known/lnurlp/satoshi',
    });
    expect(parseLnurl('lightning:Satoshi@Bitcoin.org').url).toBe(
      'https://bitcoin.org/.well-known/lnurlp/satoshi',
    );
    expect(parseLnurl('lnurlp://shop.example/pay/1?x=2').url).toBe('https://shop.example/pay/1?x=2');
    expect(parseLnurl('lnurlp://abcdefghij234567.onion/p').url).toBe('http://abcdefghij234567.onion/p');
  });

  it('plain http only for .onion and this machine, and then with a warning', () => {
    const local = parseLnurl('alice@127.0.0.1:8080');
    expect(local.url).toBe('http://127.0.0.1:8080/.well-known/lnurlp/alice');
    expect(local.warnings[0]).toMatch(/plain http/);
    const refuse = (text: string) => {
      expect(() => parseLnurl(text)).toThrow(PaymentError);
      try {
        parseLnurl(text);
      } catch (error) {
        return (error as PaymentError).message;
      }
    };
    expect(refuse('alice@shop.example:8080')).toMatch(/not a domain name/);
    expect(refuse('Ali ce@shop.example')).toMatch(/may only hold/);
    expect(refuse('al!ce@shop.example')).toMatch(/may only hold/);
    expect(refuse('alice@shop_example')).toMatch(/not a domain name/);
    expect(refuse('lnurl1qqqqqqqq')).toMatch(/not a readable LNURL/);
    expect(refuse('LNURL1dp68gurn8ghj7um9wfmxjcm99e3k7mf0v9cxj0m385')).toMatch(/not a readable LNURL/);
  });

  it('an LNURL leading to plain http elsewhere is refused', async () => {
    const { bech32 } = await import('@scure/base');
    const http = bech32.encode(
      'lnurl',
      bech32.toWords(new TextEncoder().encode('http://shop.example/p')),
      false,
    );
    expect(() => parseLnurl(http)).toThrow(/Lightning services must use https/);
  });

  it('is an unsigned request with nothing checked until looked up', () => {
    expect(reportOf(checkPaymentText('alice@shop.example', new Date()))).toMatchObject({
      kind: 'lnurl',
      verdict: 'unsigned',
      reason: null,
      network: null,
      amount: null,
      payee: 'alice@shop.example',
      wallet: null,
    });
    expect(checkPaymentText('bob!@x', new Date())).toMatchObject({ kind: 'lnurl', verdict: 'invalid' });
  });
});

describe('looking up the local LNURL service', () => {
  it('an honest service: terms, then an invoice for the chosen amount, verified', async () => {
    const target = parseLnurl(service.address('alice'));
    const params = await fetchPayParams(target, options);
    expect(params).toMatchObject({
      callback: `${service.origin}/lnurlp/alice/callback`,
      minSendableMsat: MIN_MSAT,
      maxSendableMsat: MAX_MSAT,
      description: 'Tea for alice <script>alert(1)</script>',
      longDescription: 'A pot of tea.\nServed hot.',
      identifier: service.address('alice'),
      hasImage: false,
    });
    expect(params.metadata).toBe(service.metadata('alice'));
    const terms = lnurlRequest(target, params);
    expect(terms).toMatchObject({ kind: 'lnurl', verdict: 'unsigned', payee: service.address('alice') });
    expect(terms.handOff).toBeUndefined();

    const fetched = await fetchLnurlInvoice(params, 150_000n, options);
    expect(fetched.reasons).toEqual([]);
    expect(service.invoiceRequests.at(-1)).toEqual({ name: 'alice', amountMsat: 150_000n });
    const checked = lnurlRequest(target, params, fetched);
    expect(checked).toMatchObject({
      kind: 'lnurl',
      verdict: 'verified',
      amount: { value: 150_000n, unit: 'msat' },
      payee: TEST_NODE_KEY,
      description: 'Tea for alice <script>alert(1)</script>',
      signer: { kind: 'node', nodeKey: TEST_NODE_KEY },
    });
    expect(checked.handOff?.uri).toBe(`lightning:${fetched.invoice!.invoice}`);
  });

  it('one amount only: the request names it', async () => {
    const target = parseLnurl(service.lnurl('fixed'));
    const params = await fetchPayParams(target, options);
    expect(lnurlRequest(target, params).amount).toEqual({ value: FIXED_MSAT, unit: 'msat' });
  });

  it('an invoice whose description hash or amount does not match is refused, with the reason', async () => {
    for (const [name, pattern] of [
      ['mallory-hash', /description hash is not the hash of what the service showed you/],
      ['mallory-amount', /asks for another amount than the one you chose/],
    ] as const) {
      const target = parseLnurl(service.address(name));
      const params = await fetchPayParams(target, options);
      const fetched = await fetchLnurlInvoice(params, 2_000n, options);
      const checked = lnurlRequest(target, params, fetched);
      expect(checked.verdict, name).toBe('invalid');
      expect(checked.reasons.join(' '), name).toMatch(pattern);
      expect(checked.handOff, name).toBeUndefined();
    }
  });

  it('a changed invoice is refused as such', async () => {
    const target = parseLnurl(service.address('broken-invoice'));
    const params = await fetchPayParams(target, options);
    const checked = lnurlRequest(target, params, await fetchLnurlInvoice(params, 2_000n, options));
    expect(checked.verdict).toBe('invalid');
    expect(checked.reasons[0]).toMatch(/checksum is wrong/);
  });

  it('refuses amounts outside the limits before asking', async () => {
    const params = await fetchPayParams(parseLnurl(service.address('alice')), options);
    const before = service.invoiceRequests.length;
    for (const amount of [MIN_MSAT - 1n, MAX_MSAT + 1n])
      expect((await refusedWith(fetchLnurlInvoice(params, amount, options))).code).toBe('bad-input');
    expect(service.invoiceRequests.length).toBe(before);
  });

  it('a callback on another origin than the terms is refused before any invoice is asked for', async () => {
    const before = service.invoiceRequests.length;
    const elsewhere = await refusedWith(fetchPayParams(parseLnurl(service.address('elsewhere')), options));
    expect(elsewhere.code).toBe('bad-lnurl');
    expect(elsewhere.message).toMatch(/another site, localhost:\d+\. Hushdrop asks only the site you chose/);
    expect(service.invoiceRequests.length).toBe(before);
  });

  it('a service error, another kind of LNURL, an oversized answer, nobody there: sentences', async () => {
    const closed = await refusedWith(fetchPayParams(parseLnurl(service.address('closed')), options));
    expect(closed.message).toBe(`${new URL(service.origin).host} said: ${JSON.stringify(CLOSED_REASON)}`);
    const withdraw = await refusedWith(fetchPayParams(parseLnurl(service.address('withdraw')), options));
    expect(withdraw.message).toMatch(/not a payment link \(its tag is "withdrawRequest"\)/);
    const huge = await refusedWith(fetchPayParams(parseLnurl(service.address('huge')), options));
    expect(huge.detail).toBe('too-large');
    const nobody = await refusedWith(fetchPayParams(parseLnurl('alice@127.0.0.1:1'), options));
    expect(nobody.code).toBe('unreachable');
  });
});

describe('asking whether an LNURL invoice was paid (LUD-21 verify)', () => {
  async function invoiceOf(name: 'alice' | 'liar' | 'verify-elsewhere') {
    const target = parseLnurl(service.address(name));
    const params = await fetchPayParams(target, options);
    const fetched = await fetchLnurlInvoice(params, 21_000n, options);
    return { target, params, fetched, checked: lnurlRequest(target, params, fetched) };
  }

  it('the verify address on the service’s own origin: not paid, then paid with the invoice’s secret', async () => {
    const { fetched, checked } = await invoiceOf('alice');
    const { invoice } = fetched;
    expect(fetched.verify).toBe(`${service.origin}/lnurlp/alice/verify/${invoice!.paymentHash}`);
    expect(checked.lnurl?.verify).toBe(fetched.verify);
    // Nothing is asked until someone asks.
    expect(service.verifyRequests).not.toContain(invoice!.paymentHash);
    expect(await checkLnurlPayment(fetched.verify!, invoice!, options)).toEqual({ state: 'unpaid' });
    service.settle(invoice!.invoice);
    const paid = await checkLnurlPayment(fetched.verify!, invoice!, options);
    expect(paid.state).toBe('paid');
    const preimage = paid.state === 'paid' ? paid.preimage : '';
    expect(hex.encode(sha256(hex.decode(preimage)))).toBe(invoice!.paymentHash);
    expect(service.verifyRequests.filter((h) => h === invoice!.paymentHash)).toHaveLength(2);
  });

  it('"paid" with a secret that does not fit the invoice is unproven; so is an answer about another invoice', async () => {
    const liar = await invoiceOf('liar');
    expect(await checkLnurlPayment(liar.fetched.verify!, liar.fetched.invoice!, options)).toEqual({
      state: 'unproven',
      reason: expect.stringMatching(/shows no secret that fits its payment hash/),
    });
    const first = await invoiceOf('alice');
    const second = await invoiceOf('alice');
    expect(await checkLnurlPayment(first.fetched.verify!, second.fetched.invoice!, options)).toEqual({
      state: 'unproven',
      reason: expect.stringMatching(/answered about another invoice/),
    });
  });

  it('a verify address on another origin is never asked, and the page says why', async () => {
    const before = service.verifyRequests.length;
    const { fetched, checked } = await invoiceOf('verify-elsewhere');
    expect(fetched.verify).toBeUndefined();
    expect(checked.lnurl?.verify).toBeUndefined();
    expect(checked.verdict).toBe('verified');
    expect(checked.warnings.join(' ')).toMatch(/payment check is on another site, localhost:\d+/);
    expect(service.verifyRequests.length).toBe(before);
  });

  it('an unknown invoice or an answer that is no status: sentences', async () => {
    const { fetched } = await invoiceOf('alice');
    const unknown = `${service.origin}/lnurlp/alice/verify/${'0'.repeat(64)}`;
    const error = await refusedWith(checkLnurlPayment(unknown, fetched.invoice!, options));
    expect(error.message).toBe(`${new URL(service.origin).host} said: "Not found"`);
    const terms = `${service.origin}/lnurlp/alice`;
    expect((await refusedWith(checkLnurlPayment(terms, fetched.invoice!, options))).message).toMatch(
      /answer from .* about this payment cannot be read/,
    );
  });
});
