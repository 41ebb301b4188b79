// The payment page's flow (platform/payments/flow.ts) built with what it needs passed in: Node's
// fetch against the local test merchant, a root store, and a history kept in memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDuration } from '../../entrypoints/payment/format';
import { describeScript } from '../../lib/payments/addresses';
import { decodeBolt11 } from '../../lib/payments/bolt11';
import { decodePayment } from '../../lib/payments/codec';
import { preparePayment } from '../../lib/payments/payment';
import { EMPTY_ROOT_STORE, type RootStore, withExtraRoots } from '../../lib/payments/roots';
import { clockOffsetSeconds, secondsLeft } from '../../lib/payments/timing';
import { walletUriFor } from '../../lib/payments/wallet';
import { createPaymentFlow } from '../../platform/payments/flow';
import { HistoryWriteError, type PaymentEntry } from '../../platform/storage/history';
import { makeInvoice } from '../lnurl/invoices';
import { type Merchant, PAY_TO_SCRIPT, PAYMENT_AMOUNT, startMerchant } from '../merchant/server';
import { fakeTransactionHex } from '../merchant/transactions';

const PAY_TO = describeScript(PAY_TO_SCRIPT, 'main').address!;
const TX = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);
const FORM = { transactionsHex: TX, refundAddress: '', memo: '' };

let merchant: Merchant;
beforeAll(async () => {
  merchant = await startMerchant();
});
afterAll(() => merchant?.close());

function flowWith(roots: RootStore, mayReach: (url: string) => Promise<boolean> = async () => true) {
  const history: PaymentEntry[] = [];
  const flow = createPaymentFlow({
    fetch: (input, init) => fetch(input, init),
    mayReach,
    roots: async () => roots,
    history: { add: async (entry) => void history.push(entry) },
  });
  return { flow, history };
}

describe('loading, showing and paying a request from the test merchant', () => {
  it('is verified with the test CA as a root, invalid without; paid, and the history says so', async () => {
    const without = await flowWith(EMPTY_ROOT_STORE).flow.load(
      merchant.requestUrl('sha256'),
      merchant.pageUrl,
    );
    expect(without.evaluation.verdict).toBe('invalid');

    const { flow, history } = flowWith(withExtraRoots(EMPTY_ROOT_STORE, [merchant.rootDer]));
    const loaded = await flow.load(merchant.requestUrl('sha256'), merchant.pageUrl);
    expect(loaded.evaluation.verdict).toBe('verified');
    expect(loaded.evaluation.hostMatches).toBe(true);
    expect(loaded.site).toEqual({ host: '127.0.0.1', from: 'page' });
    expect(loaded.fetchWarnings.join(' ')).toMatch(/plain http/);

    const entry = await flow.recordView(loaded);
    expect(history).toEqual([entry]);
    expect(entry).toMatchObject({
      requestUrl: merchant.requestUrl('sha256'),
      pageUrl: merchant.pageUrl,
      verdict: 'verified',
      merchant: '127.0.0.1',
      totalSat: String(PAYMENT_AMOUNT),
      network: 'main',
    });

    const { details } = loaded.evaluation;
    expect(walletUriFor(details, loaded.requestUrl)).toBe(
      `bitcoin:${PAY_TO}?amount=0.0015&r=${encodeURIComponent(merchant.requestUrl('sha256'))}`,
    );
    const now = new Date();
    expect(secondsLeft(details, now)).toBeGreaterThan(890);
    expect(Math.abs(clockOffsetSeconds(details, now))).toBeLessThan(5);

    const built = preparePayment(details, FORM, now);
    expect(built.warnings[0]).toMatch(/Without a refund address/);
    const before = merchant.payments.length;
    const receipt = await flow.send(loaded.requestUrl, details, built);
    expect(receipt.memo).toMatch(/^Thank you!/);
    expect(merchant.payments.length).toBe(before + 1);
    expect(decodePayment(built.bytes).merchantData).toEqual(details.merchantData);
    const paid = await flow.recordPaid(entry, receipt);
    expect(paid.ackMemo).toMatch(/^Thank you!/);
    expect(history.at(-1)).toBe(paid);
  });

  it('a transport failure is a sentence that offers another try', async () => {
    const { flow } = flowWith(EMPTY_ROOT_STORE);
    const loaded = await flow.load(merchant.requestUrl('unsigned'), merchant.pageUrl);
    const details = { ...loaded.evaluation.details, paymentUrl: 'http://127.0.0.1:1/pay' };
    const built = preparePayment(details, FORM, new Date());
    const failure = await flow.send('http://127.0.0.1:1/request', details, built).then(
      () => undefined,
      (error: unknown) => flow.describeFailure(error),
    );
    expect(failure).toEqual({ message: expect.stringMatching(/Sending it again is safe/), retry: true });
  });

  it('blocks paying an expired request', async () => {
    const { flow } = flowWith(EMPTY_ROOT_STORE);
    const loaded = await flow.load(merchant.requestUrl('expired'), undefined);
    expect(loaded.site.from).toBe('request');
    const { details } = loaded.evaluation;
    expect(secondsLeft(details, new Date())).toBeLessThan(0);
    expect(() => preparePayment(details, FORM, new Date())).toThrow(
      /expired .*ask the merchant for a new one/,
    );
  });

  it('contacts no private origin the person has not allowed, and pays only to the request’s origin', async () => {
    const asked: string[] = [];
    const fetched: string[] = [];
    const flow = createPaymentFlow({
      fetch: (input, init) => {
        fetched.push(input);
        return fetch(input, init);
      },
      mayReach: async (url) => {
        asked.push(url);
        return false;
      },
      roots: async () => EMPTY_ROOT_STORE,
      history: { add: async () => {} },
    });
    await expect(flow.load(merchant.requestUrl('unsigned'), undefined)).rejects.toMatchObject({
      code: 'private-host',
      message: expect.stringContaining(`${merchant.origin} is on this computer or a private network`),
    });
    expect(asked).toEqual([merchant.requestUrl('unsigned')]);
    expect(fetched).toEqual([]);
    // An LNURL service's payment check (LUD-21) passes the same gate.
    const verify = `${merchant.origin}/lnurlp/alice/verify/${'ab'.repeat(32)}`;
    await expect(
      flow.checkPaid(verify, decodeBolt11(makeInvoice({ description: 'Tea' }))),
    ).rejects.toMatchObject({
      code: 'private-host',
    });
    expect(asked.at(-1)).toBe(verify);
    expect(fetched).toEqual([]);

    const open = flowWith(EMPTY_ROOT_STORE).flow;
    const loaded = await open.load(merchant.requestUrl('unsigned'), undefined);
    const details = { ...loaded.evaluation.details, paymentUrl: 'http://127.0.0.1:1/pay' };
    const built = preparePayment(details, FORM, new Date());
    const paymentsBefore = merchant.payments.length;
    await expect(open.send(loaded.requestUrl, details, built)).rejects.toMatchObject({
      code: 'bad-url',
      message: expect.stringContaining(
        `sent to http://127.0.0.1:1, another site than the one it came from (${merchant.origin})`,
      ),
    });
    expect(merchant.payments.length).toBe(paymentsBefore);
  });

  it('a history that refuses to store is said as it is, without another try', () => {
    const { flow } = flowWith(EMPTY_ROOT_STORE);
    expect(flow.describeFailure(new HistoryWriteError('The browser refused.'))).toEqual({
      message: 'The browser refused.',
      retry: false,
    });
    expect(flow.describeFailure(new Error('boom'))).toEqual({
      message: expect.stringContaining('boom'),
      retry: true,
    });
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
