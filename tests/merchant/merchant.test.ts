import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertNotExpired,
  buildPayment,
  createRootStore,
  decodePaymentRequest,
  evaluatePaymentRequest,
  fetchPaymentRequest,
  PaymentError,
  paymentLinkOf,
  readPayment,
  sendPayment,
  sourceOf,
} from '../../lib/payments';
import { HTML_MEMO, type Merchant, PAY_TO_SCRIPT, PAYMENT_AMOUNT, startMerchant } from './server';
import { fakeTransactionHex } from './transactions';

let merchant: Merchant;

beforeAll(async () => {
  merchant = await startMerchant({ port: 0 });
}, 60_000);

afterAll(async () => {
  await merchant?.close();
});

const opts = { fetch: globalThis.fetch };
const roots = () => createRootStore([merchant.rootDer]);

async function fetchAndEvaluate(kind: Parameters<Merchant['requestUrl']>[0]) {
  const fetched = await fetchPaymentRequest(merchant.requestUrl(kind), opts);
  const evaluation = await evaluatePaymentRequest(fetched.bytes, {
    roots: roots(),
    now: new Date(),
    pageHost: '127.0.0.1',
  });
  return { fetched, evaluation };
}

describe('local merchant', () => {
  it('serves a shop page whose payment links lib/payments recognises', async () => {
    const response = await fetch(merchant.pageUrl);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    const anchors = [...html.matchAll(/<a id="([^"]+)"(?: type="([^"]+)")? href="([^"]+)"/g)].map(
      ([, id, type, href]) => ({
        id: id!,
        type,
        href: new URL(href!.replaceAll('&amp;', '&'), merchant.pageUrl).href,
      }),
    );
    // Classified as the content script does, then read as the payment page does.
    const links = Object.fromEntries(
      anchors.map((a) => [a.id, paymentLinkOf({ href: a.href, type: a.type ?? null })]),
    );
    const source = (id: string) => sourceOf(readPayment(links[id]!.text));
    expect(links['pay-bip72']).toMatchObject({ form: 'bip21' });
    expect(source('pay-bip72')).toMatchObject({ kind: 'request', requestUrl: merchant.requestUrl('sha256') });
    expect(source('pay-bip21-r')).toMatchObject({
      kind: 'request',
      requestUrl: merchant.requestUrl('sha1'),
      uri: { amount: PAYMENT_AMOUNT, label: 'Order 42' },
    });
    expect(links['pay-mime']).toEqual({ form: 'bip70', text: merchant.requestUrl('unsigned') });
    expect(source('pay-mime')).toEqual({ kind: 'request', requestUrl: merchant.requestUrl('unsigned') });
    expect(links['pay-file']).toEqual({
      form: 'bip70',
      text: merchant.requestUrl('html-memo', { suffix: true }),
    });
    // A plain bitcoin: link is a payment link too, judged from its text (no request to fetch).
    expect(source('plain-bip21')).toMatchObject({ kind: 'offline' });
    for (const id of ['about', 'external', 'mail', 'octet']) expect(links[id], id).toBeUndefined();
    // The late link is written by a script one second after load.
    expect(html).toContain("a.id = 'pay-late'");
    expect(html).toContain(`bitcoin:?r=${encodeURIComponent(merchant.requestUrl('sha256'))}`);
  });

  it('serves SHA-256 and SHA-1 signed requests that verify against its exported root', async () => {
    for (const kind of ['sha256', 'sha1'] as const) {
      const { fetched, evaluation } = await fetchAndEvaluate(kind);
      expect(fetched.warnings.join(' ')).toMatch(/plain http/);
      expect(evaluation.reasons).toEqual([]);
      expect(evaluation.verdict).toBe('verified');
      expect(evaluation.pkiType).toBe(kind === 'sha1' ? 'x509+sha1' : 'x509+sha256');
      expect(evaluation.merchant).toMatchObject({
        commonName: '127.0.0.1',
        organization: 'Hushdrop Test Shop',
        trustAnchor: 'Hushdrop Test Merchant CA',
      });
      expect(evaluation.hostMatches).toBe(true);
      expect(evaluation.details.paymentUrl).toMatch(new RegExp(`^${merchant.origin}/pay/${kind}-\\d+$`));
      expect(evaluation.details.merchantData).toBeDefined();
    }
  });

  it('is not verified without its root, and its other kinds give the expected verdicts', async () => {
    const fetched = await fetchPaymentRequest(merchant.requestUrl('sha256'), opts);
    const untrusted = await evaluatePaymentRequest(fetched.bytes, {
      roots: createRootStore([]),
      now: new Date(),
    });
    expect(untrusted.verdict).toBe('invalid');

    const expired = (await fetchAndEvaluate('expired')).evaluation;
    expect(expired.verdict).toBe('verified');
    expect(expired.expired).toBe(true);
    expect(() => assertNotExpired(expired.details, new Date())).toThrow(PaymentError);

    expect((await fetchAndEvaluate('expired-cert')).evaluation.reasons.join(' ')).toMatch(/expired on/);
    expect((await fetchAndEvaluate('unsigned')).evaluation.verdict).toBe('unsigned');
    expect((await fetchAndEvaluate('tampered')).evaluation.reasons.join(' ')).toMatch(
      /signature does not match/,
    );
    expect((await fetchAndEvaluate('testnet')).evaluation.details.network).toBe('test');
    expect((await fetchAndEvaluate('html-memo')).evaluation.details.memo).toBe(HTML_MEMO);
  });

  it('serves requests with the BIP71 content type; the odd kinds are refused by fetchPaymentRequest', async () => {
    const response = await fetch(merchant.requestUrl('unsigned'));
    expect(response.headers.get('content-type')).toBe('application/bitcoin-paymentrequest');
    decodePaymentRequest(new Uint8Array(await response.arrayBuffer()));
    await expect(fetchPaymentRequest(merchant.requestUrl('wrong-type'), opts)).rejects.toMatchObject({
      code: 'wrong-content-type',
    });
    await expect(fetchPaymentRequest(merchant.requestUrl('oversized'), opts)).rejects.toMatchObject({
      code: 'too-large',
    });
    await expect(fetchPaymentRequest(`${merchant.origin}/request/nope`, opts)).rejects.toMatchObject({
      code: 'http-status',
    });
  });

  it('accepts a Payment that echoes merchant_data and answers a PaymentACK with a memo', async () => {
    const { evaluation } = await fetchAndEvaluate('sha256');
    const built = buildPayment({
      details: evaluation.details,
      transactionsHex: fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]),
      refundAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
      memo: 'Please ship fast',
    });
    expect(built.warnings).toEqual([]);
    const receipt = await sendPayment(evaluation.details.paymentUrl!, built.bytes, opts);
    expect(receipt.memo).toMatch(/^Thank you! Payment for invoice sha256-\d+ received/);
    expect(receipt.warnings.join(' ')).toMatch(/plain http/);
    const received = merchant.payments.at(-1)!;
    expect(received.contentType).toBe('application/bitcoin-payment');
    expect(received.payment.memo).toBe('Please ship fast');
    expect(received.payment.refundTo[0]!.amount).toBe(PAYMENT_AMOUNT);
    expect(receipt.ack.payment.merchantData).toEqual(evaluation.details.merchantData);
  });

  it('refuses a Payment without the echoed merchant_data, or with another content type', async () => {
    const { evaluation } = await fetchAndEvaluate('sha256');
    const hex = fakeTransactionHex([{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }]);
    const withoutData = buildPayment({
      details: { ...evaluation.details, merchantData: new Uint8Array([1]) },
      transactionsHex: hex,
    });
    await expect(sendPayment(evaluation.details.paymentUrl!, withoutData.bytes, opts)).rejects.toMatchObject({
      code: 'http-status',
    });
    const good = buildPayment({ details: evaluation.details, transactionsHex: hex });
    const response = await fetch(evaluation.details.paymentUrl!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream' },
      body: good.bytes as Uint8Array<ArrayBuffer>,
    });
    expect(response.status).toBe(400);
  });

  it('exports its CA certificate as DER and PEM', () => {
    expect(merchant.rootDer[0]).toBe(0x30);
    expect(merchant.rootPem).toMatch(
      /^-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n$/,
    );
  });
});
