import { describe, expect, it } from 'vitest';
import { addressToScript, describeScript } from '../../lib/payments/addresses';
import { decodePayment, encodePaymentAck } from '../../lib/payments/codec';
import { PaymentError } from '../../lib/payments/errors';
import { assertNotExpired, formatTime, isExpired } from '../../lib/payments/expiry';
import { fetchPaymentRequest } from '../../lib/payments/fetch';
import type { FetchLike } from '../../lib/payments/http';
import { buildPayment, sendPayment } from '../../lib/payments/payment';
import { parseTransaction, parseTransactionsHex } from '../../lib/payments/transactions';
import { fakeTransaction, fakeTransactionHex } from '../merchant/transactions';
import { fromHex, toHex } from '../merchant/wire';

interface Seen {
  url: string;
  init: RequestInit;
}

function fakeFetch(
  respond: (url: string, init: RequestInit) => Response | Promise<Response>,
  seen: Seen[] = [],
) {
  const fetch: FetchLike = async (url, init) => {
    seen.push({ url, init });
    return respond(url, init);
  };
  return { fetch, seen };
}

const REQUEST = 'application/bitcoin-paymentrequest';

/** A body that never ends: the cap must stop reading it. */
function endless(chunk = 4096): {
  stream: ReadableStream<Uint8Array>;
  pulled: () => number;
  cancelled: () => boolean;
} {
  let pulls = 0;
  let wasCancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulls++;
      controller.enqueue(new Uint8Array(chunk));
    },
    cancel() {
      wasCancelled = true;
    },
  });
  return { stream, pulled: () => pulls, cancelled: () => wasCancelled };
}

describe('fetchPaymentRequest', () => {
  it('GETs with the BIP71 Accept header and returns the bytes', async () => {
    const { fetch, seen } = fakeFetch(
      () => new Response(fromHex('2201aa'), { headers: { 'Content-Type': REQUEST } }),
    );
    const fetched = await fetchPaymentRequest('https://shop.example/i/1', { fetch });
    expect(toHex(fetched.bytes)).toBe('2201aa');
    expect(fetched.warnings).toEqual([]);
    expect(seen[0]!.init.method).toBe('GET');
    expect(new Headers(seen[0]!.init.headers).get('accept')).toBe(REQUEST);
  });

  it('warns loudly on plain http', async () => {
    const { fetch } = fakeFetch(() => new Response(fromHex('00'), { headers: { 'Content-Type': REQUEST } }));
    const fetched = await fetchPaymentRequest('http://shop.example/i/1', { fetch });
    expect(fetched.warnings.join(' ')).toMatch(/plain http.*send your money elsewhere/);
  });

  it('refuses another content type (an HTML page is never decoded), and names Bitcoin Cash', async () => {
    for (const [type, pattern] of [
      ['text/html; charset=utf-8', /did not send a payment request \(it sent "text\/html"\)/],
      ['application/bitcoincash-paymentrequest', /Bitcoin Cash/],
      [null, /no content type/],
    ] as const) {
      const { fetch } = fakeFetch(() => {
        const response = new Response('<html>', type ? { headers: { 'Content-Type': type } } : {});
        if (!type) response.headers.delete('content-type');
        return response;
      });
      await expect(fetchPaymentRequest('https://shop.example/i/1', { fetch })).rejects.toThrow(pattern);
    }
  });

  it('accepts exactly 50,000 bytes; refuses 50,001 (by Content-Length and while streaming)', async () => {
    const ok = fakeFetch(
      () => new Response(new Uint8Array(50_000), { headers: { 'Content-Type': REQUEST } }),
    );
    expect((await fetchPaymentRequest('https://s.example/', ok).then((f) => f.bytes)).length).toBe(50_000);
    const declared = fakeFetch(
      () => new Response(new Uint8Array(50_001), { headers: { 'Content-Type': REQUEST } }),
    );
    await expect(fetchPaymentRequest('https://s.example/', declared)).rejects.toMatchObject({
      code: 'too-large',
    });
  });

  it('stops reading an endless body once it passes the limit, and cancels it', async () => {
    const body = endless();
    const { fetch } = fakeFetch(() => new Response(body.stream, { headers: { 'Content-Type': REQUEST } }));
    await expect(fetchPaymentRequest('https://s.example/', { fetch })).rejects.toMatchObject({
      code: 'too-large',
    });
    expect(body.pulled()).toBeLessThan(20);
    expect(body.cancelled()).toBe(true);
  });

  it('network failure, HTTP errors, bad URLs → typed errors with sentences', async () => {
    const down = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    await expect(fetchPaymentRequest('https://s.example/', down)).rejects.toThrow(
      "The merchant's payment system did not answer; it may be down, or the link may be wrong.",
    );
    const notFound = fakeFetch(
      () => new Response('gone', { status: 404, headers: { 'Content-Type': REQUEST } }),
    );
    await expect(fetchPaymentRequest('https://s.example/', notFound)).rejects.toMatchObject({
      code: 'http-status',
      message: expect.stringMatching(/HTTP 404/),
    });
    await expect(fetchPaymentRequest('ftp://s.example/', down)).rejects.toMatchObject({ code: 'bad-url' });
    await expect(fetchPaymentRequest('not a url', down)).rejects.toMatchObject({ code: 'bad-url' });
  });

  it('a body that breaks mid-way → unreachable', async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(10));
        controller.error(new Error('socket hang up'));
      },
    });
    const { fetch } = fakeFetch(() => new Response(stream, { headers: { 'Content-Type': REQUEST } }));
    await expect(fetchPaymentRequest('https://s.example/', { fetch })).rejects.toMatchObject({
      code: 'unreachable',
    });
  });

  it('a server that never answers is given up on (timeout), and the caller can cancel', async () => {
    const hang = fakeFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(fetchPaymentRequest('https://s.example/', { ...hang, timeoutMs: 20 })).rejects.toThrow(
      /did not answer in time/,
    );
    const controller = new AbortController();
    const pending = fetchPaymentRequest('https://s.example/', { ...hang, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toThrow(/cancelled/);
  });
});

describe('buildPayment', () => {
  const script = fromHex(`76a914${'42'.repeat(20)}88ac`);
  const details = {
    network: 'main',
    merchantData: fromHex('c0ffee'),
    total: 150_000n,
    outputs: [{ amount: 150_000n, script: toHex(script) }],
  };

  it('wraps pasted transactions, refund address and memo, echoing merchant_data', () => {
    const tx1 = fakeTransactionHex([{ amount: 150_000n, script }]);
    const tx2 = fakeTransactionHex([{ amount: 1n, script }], { segwit: true });
    const built = buildPayment({
      details,
      transactionsHex: `  ${tx1.toUpperCase()},\n${tx2}\n`,
      refundAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      memo: 'hi',
    });
    expect(built.warnings).toEqual([]);
    const payment = decodePayment(built.bytes);
    expect(payment.merchantData).toEqual(fromHex('c0ffee'));
    expect(payment.transactions.map(toHex)).toEqual([tx1, tx2]);
    expect(payment.refundTo).toEqual([
      {
        amount: 150_000n,
        script: fromHex('0014751e76e8199196d454941c45d1b3a323f1433bd6'),
        unknownFields: [],
        amountPresent: true,
      },
    ]);
    expect(payment.memo).toBe('hi');
    expect(built.transactions[1]!.segwit).toBe(true);
  });

  it('no refund address → no refund_to; open amount → refund without amount', () => {
    const tx = fakeTransactionHex([{ amount: 5n, script }]);
    expect(decodePayment(buildPayment({ details, transactionsHex: tx }).bytes).refundTo).toEqual([]);
    const open = buildPayment({
      details: { ...details, total: 0n, outputs: [{ amount: 0n, script: toHex(script) }] },
      transactionsHex: tx,
      refundAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
    });
    expect(decodePayment(open.bytes).refundTo[0]!.amountPresent).toBe(false);
  });

  it('warns when the transactions do not pay what was asked', () => {
    const built = buildPayment({
      details,
      transactionsHex: fakeTransactionHex([{ amount: 149_999n, script }]),
    });
    expect(built.warnings.join(' ')).toMatch(/does not pay 1 of the 1 requested output/);
  });

  it('checks the refund address against the request network', () => {
    const tx = fakeTransactionHex([{ amount: 150_000n, script }]);
    expect(() =>
      buildPayment({ details, transactionsHex: tx, refundAddress: 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn' }),
    ).toThrow(/another network/);
    expect(() =>
      buildPayment({
        details: { ...details, network: 'test' },
        transactionsHex: tx,
        refundAddress: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4',
      }),
    ).toThrow(/another network/);
    expect(() =>
      buildPayment({ details, transactionsHex: tx, refundAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyU' }),
    ).toThrow(/checksum/);
    expect(() => buildPayment({ details: { ...details, network: 'regtest' }, transactionsHex: tx })).toThrow(
      /unknown network/,
    );
  });

  it('refuses pasted text that is not a transaction', () => {
    for (const [text, pattern] of [
      ['', /Paste at least one/],
      ['xyz', /not hexadecimal/],
      ['abc', /not hexadecimal/],
      ['02000000', /ends too early/],
      [`${fakeTransactionHex([{ amount: 1n, script }])}00`, /extra bytes/],
      ['0200000000', /spends nothing/],
    ] as const) {
      expect(() => buildPayment({ details, transactionsHex: text })).toThrow(pattern);
    }
  });
});

describe('transactions', () => {
  it('parses legacy and segwit transactions and lists their outputs', () => {
    const script = fromHex('0014751e76e8199196d454941c45d1b3a323f1433bd6');
    for (const segwit of [false, true]) {
      const tx = parseTransaction(
        fakeTransaction(
          [
            { amount: 7n, script },
            { amount: 2n ** 60n, script },
          ],
          { segwit, inputs: 3 },
        ),
      );
      expect(tx.segwit).toBe(segwit);
      expect(tx.inputs).toBe(3);
      expect(tx.outputs.map((o) => o.amount)).toEqual([7n, 2n ** 60n]);
    }
  });

  it('a hand-assembled legacy transaction (one input, one output) parses', () => {
    const hex =
      '0100000001e7b8e6c9d7e98b0c7d3c7ec0e5b4e5a4c8f5d7e7f6e5d4c3b2a1908f7e6d5c4b000000006a47304402200000000000000000000000000000000000000000000000000000000000000001022000000000000000000000000000000000000000000000000000000000000000010121020000000000000000000000000000000000000000000000000000000000000001ffffffff01a0860100000000001976a9141ed5557f4914da4362c7bb25be78ae9386b4e76d88ac00000000';
    const [tx] = parseTransactionsHex(hex);
    expect(tx!.outputs[0]!.amount).toBe(100_000n);
  });
});

describe('sendPayment', () => {
  const ackBytes = encodePaymentAck({ payment: {}, memo: 'Thanks <b>!</b>' });

  it('POSTs with the BIP71 types and returns the ACK memo as text', async () => {
    const { fetch, seen } = fakeFetch(
      () => new Response(ackBytes, { headers: { 'Content-Type': 'application/bitcoin-paymentack' } }),
    );
    const receipt = await sendPayment('https://shop.example/pay/1', fromHex('0a00'), { fetch });
    expect(receipt.memo).toBe('Thanks <b>!</b>');
    expect(receipt.warnings).toEqual([]);
    const headers = new Headers(seen[0]!.init.headers);
    expect(seen[0]!.init.method).toBe('POST');
    expect(headers.get('content-type')).toBe('application/bitcoin-payment');
    expect(headers.get('accept')).toBe('application/bitcoin-paymentack');
    expect(toHex(seen[0]!.init.body as Uint8Array)).toBe('0a00');
  });

  it('an ACK over 60,000 bytes, of another type, or garbled → "sent, but reply unreadable"', async () => {
    const cases: [Response, string][] = [
      [
        new Response(endless().stream, { headers: { 'Content-Type': 'application/bitcoin-paymentack' } }),
        'too-large',
      ],
      [new Response('<html>ok</html>', { headers: { 'Content-Type': 'text/html' } }), 'wrong-content-type'],
      [
        new Response(fromHex('ffff'), { headers: { 'Content-Type': 'application/bitcoin-paymentack' } }),
        'malformed',
      ],
    ];
    for (const [response, code] of cases) {
      const { fetch } = fakeFetch(() => response);
      const error = await sendPayment('https://s.example/pay', fromHex('0a00'), { fetch }).catch((e) => e);
      expect(error).toBeInstanceOf(PaymentError);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(/^The payment was sent, but the merchant’s reply could not be read/);
    }
  });

  it('a refused payment, a dead server, a plain-http URL', async () => {
    const refused = fakeFetch(() => new Response('no', { status: 400 }));
    await expect(sendPayment('https://s.example/pay', fromHex('0a00'), refused)).rejects.toThrow(
      /refused the payment \(HTTP 400\)/,
    );
    const dead = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    await expect(sendPayment('https://s.example/pay', fromHex('0a00'), dead)).rejects.toThrow(
      /Sending it again is safe/,
    );
    const ok = fakeFetch(
      () => new Response(ackBytes, { headers: { 'Content-Type': 'application/bitcoin-paymentack' } }),
    );
    expect((await sendPayment('http://s.example/pay', fromHex('0a00'), ok)).warnings.join(' ')).toMatch(
      /refund address/,
    );
    await expect(sendPayment('javascript:alert(1)', fromHex('0a00'), ok)).rejects.toMatchObject({
      code: 'bad-url',
    });
    await expect(sendPayment('https://s.example/pay', new Uint8Array(50_001), ok)).rejects.toMatchObject({
      code: 'too-large',
    });
  });
});

describe('expiry helper and addresses', () => {
  it('assertNotExpired throws a readable PaymentError only after expires', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const t = BigInt(now.getTime() / 1000);
    expect(() => assertNotExpired({ expires: t }, now)).not.toThrow();
    expect(() => assertNotExpired({}, now)).not.toThrow();
    expect(() => assertNotExpired({ expires: t - 1n }, now)).toThrow(
      `This payment request expired on ${formatTime(t - 1n)}; ask the merchant for a new one.`,
    );
    expect(isExpired(0n, now)).toBe(true);
    expect(formatTime(1n << 63n)).toMatch(/beyond the year/);
  });

  it('round-trips every address type on both networks', () => {
    const scripts = [
      `76a914${'11'.repeat(20)}88ac`,
      `a914${'22'.repeat(20)}87`,
      `0014${'33'.repeat(20)}`,
      `0020${'44'.repeat(32)}`,
      `5120${'55'.repeat(32)}`,
    ];
    for (const network of ['main', 'test'] as const) {
      for (const hex of scripts) {
        const { address } = describeScript(fromHex(hex), network);
        expect(toHex(addressToScript(address!, network))).toBe(hex);
      }
    }
  });

  it('near-miss scripts are custom', () => {
    for (const hex of [
      '',
      '6a',
      `76a914${'11'.repeat(19)}88ac`,
      `0015${'33'.repeat(21)}`,
      `5220${'55'.repeat(32)}`,
    ]) {
      expect(describeScript(fromHex(hex), 'main')).toEqual({ type: 'custom' });
    }
  });
});
