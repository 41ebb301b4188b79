// The payment page's non-UI logic (platform/payment-flow.ts, platform/payment-roots.ts) under
// Node with WXT's fake browser, against the local test merchant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { formatDuration } from '../../entrypoints/payment/format';
import { describeScript } from '../../lib/payments/addresses';
import { decodePayment } from '../../lib/payments/codec';
import {
  clockOffsetSeconds,
  describePaymentFailure,
  loadPaymentRequest,
  PaymentInputError,
  paramsFor,
  preparePayment,
  secondsLeft,
  sendPrepared,
  sourceFromParams,
  sourceFromText,
  walletUriFor,
} from '../../platform/payment-flow';
import {
  addExtraRootsFromPem,
  certificatesFromPem,
  listExtraRoots,
  loadExtraRoots,
  RootInputError,
  removeExtraRoot,
} from '../../platform/payment-roots';
import { type Merchant, PAY_TO_SCRIPT, PAYMENT_AMOUNT, startMerchant } from '../merchant/server';
import { fakeTransactionHex } from '../merchant/transactions';

const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;
const TEST_ADDRESS = describeScript(PAY_TO_SCRIPT, 'test').address!;

let merchant: Merchant;
beforeAll(async () => {
  merchant = await startMerchant();
});
afterAll(() => merchant?.close());

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
        expect(error).toBeInstanceOf(PaymentInputError);
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

describe('loading, showing and paying a request from the test merchant', () => {
  it('is verified with the test CA as an extra root, invalid without', async () => {
    await fakeBrowser.storage.local.clear();
    const without = await loadPaymentRequest(merchant.requestUrl('sha256'), merchant.pageUrl);
    expect(without.evaluation.verdict).toBe('invalid');

    expect(await addExtraRootsFromPem(merchant.rootPem)).toBe(1);
    expect(await addExtraRootsFromPem(merchant.rootPem)).toBe(0);
    const loaded = await loadPaymentRequest(merchant.requestUrl('sha256'), merchant.pageUrl);
    expect(loaded.evaluation.verdict).toBe('verified');
    expect(loaded.evaluation.hostMatches).toBe(true);
    expect(loaded.site).toEqual({ host: '127.0.0.1', from: 'page' });
    expect(loaded.fetchWarnings.join(' ')).toMatch(/plain http/);

    const { details } = loaded.evaluation;
    expect(walletUriFor(details, loaded.requestUrl)).toBe(
      `bitcoin:${PAY_TO}?amount=0.0015&r=${encodeURIComponent(merchant.requestUrl('sha256'))}`,
    );
    const now = new Date();
    expect(secondsLeft(details, now)).toBeGreaterThan(890);
    expect(Math.abs(clockOffsetSeconds(details, now))).toBeLessThan(5);

    const tx = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);
    const built = preparePayment(details, { transactionsHex: tx, refundAddress: '', memo: '' });
    expect(built.warnings[0]).toMatch(/Without a refund address/);
    const before = merchant.payments.length;
    const receipt = await sendPrepared(details, built);
    expect(receipt.memo).toMatch(/^Thank you!/);
    expect(merchant.payments.length).toBe(before + 1);
    expect(decodePayment(built.bytes).merchantData).toEqual(details.merchantData);
  });

  it('a transport failure is a sentence that offers another try', async () => {
    const loaded = await loadPaymentRequest(merchant.requestUrl('unsigned'), merchant.pageUrl);
    const details = { ...loaded.evaluation.details, paymentUrl: 'http://127.0.0.1:1/pay' };
    const tx = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);
    const built = preparePayment(details, { transactionsHex: tx, refundAddress: '', memo: '' });
    const failure = await sendPrepared(details, built).then(
      () => undefined,
      (error: unknown) => describePaymentFailure(error),
    );
    expect(failure).toEqual({ message: expect.stringMatching(/Sending it again is safe/), retry: true });
  });

  it('blocks paying an expired request', async () => {
    const loaded = await loadPaymentRequest(merchant.requestUrl('expired'), undefined);
    expect(loaded.site.from).toBe('request');
    const { details } = loaded.evaluation;
    expect(secondsLeft(details, new Date())).toBeLessThan(0);
    const tx = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);
    expect(() => preparePayment(details, { transactionsHex: tx, refundAddress: '', memo: '' })).toThrow(
      /expired .*ask the merchant for a new one/,
    );
  });

  it('extra roots: listed by name, removed, and garbage refused', async () => {
    const [root] = await listExtraRoots();
    expect(root?.name).toBe('Hushdrop Test Merchant CA');
    expect(root?.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    await removeExtraRoot(root!.der64);
    expect(await loadExtraRoots()).toEqual([]);
    expect(() => certificatesFromPem('hello')).toThrow(RootInputError);
    expect(() => certificatesFromPem('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----')).toThrow(
      /cannot be read as an X.509 certificate/,
    );
  });
});

describe('formatDuration', () => {
  it('says how long in words', () => {
    expect(formatDuration(0)).toBe('0 seconds');
    expect(formatDuration(1)).toBe('1 second');
    expect(formatDuration(95)).toBe('1 minute 35 seconds');
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(3725)).toBe('1 hour 2 minutes');
    expect(formatDuration(86_400 * 2 + 3600)).toBe('2 days 1 hour');
    expect(formatDuration(86_400 * 800)).toBe('2 years');
    expect(formatDuration(1e12)).toBe('thousands of years');
  });
});
