import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRootCa, type Identity, issue, pemOf } from '../../devkit/ca';
import { describeScript } from '../../lib/payments/addresses';
import { formatBtc } from '../../lib/payments/amounts';
import {
  decodePayment,
  encodePaymentAck,
  type Payment,
  type PaymentDetailsInit,
} from '../../lib/payments/codec';
import { buildPaymentRequest } from './requests';

/**
 * A local BIP70 merchant for tests (unit, integration and the extension's e2e): a shop page with
 * payment links, PaymentRequests signed at start-up time by a test CA it creates, and a
 * payment_url that accepts a Payment and answers a PaymentACK. Export `rootDer` into the
 * extension's extra test roots to see its requests as verified.
 */

export const REQUEST_KINDS = [
  /** x509+sha256, leaf signed by the test root. */
  'sha256',
  /** x509+sha1, SHA-1 leaf certificate. */
  'sha1',
  /** Signed, but its `expires` is a minute in the past. */
  'expired',
  /** Signed with a merchant certificate that expired yesterday. */
  'expired-cert',
  /** pki_type none. */
  'unsigned',
  /** Signed, with an HTML/script memo, to check it renders as inert text. */
  'html-memo',
  /** Signed by a merchant whose certificate names carry HTML/script. */
  'html-merchant',
  /** Signed, then one byte of the details changed: the signature no longer matches. */
  'tampered',
  /** Signed, for the test network. */
  'testnet',
  /** Served as text/html instead of application/bitcoin-paymentrequest. */
  'wrong-type',
  /** 60,000 bytes: over the 50,000-byte limit. */
  'oversized',
] as const;

export type RequestKind = (typeof REQUEST_KINDS)[number];

export const HTML_MERCHANT = '<img src=x onerror=alert(2)>.example';
export const HTML_MEMO = '<img src=x onerror=alert(1)><script>alert("memo")</script> & <b>bold?</b>';
export const PAYMENT_AMOUNT = 150_000n;
/** hash160 0x42… as P2PKH: what the shop asks to be paid to. */
export const PAY_TO_SCRIPT = Uint8Array.from(Buffer.from(`76a914${'42'.repeat(20)}88ac`, 'hex'));

export interface ReceivedPayment {
  invoice: string;
  payment: Payment;
  contentType: string;
}

export interface Merchant {
  origin: string;
  pageUrl: string;
  requestUrl(kind: RequestKind, options?: { suffix?: boolean }): string;
  /** The test CA: install as a trusted root in tests. */
  rootDer: Uint8Array;
  rootPem: string;
  /** Payments accepted so far. */
  payments: ReceivedPayment[];
  close(): Promise<void>;
}

interface Invoice {
  merchantData: Uint8Array;
  kind: RequestKind;
}

const PAYMENT_MIME = 'application/bitcoin-payment';
const ACK_MIME = 'application/bitcoin-paymentack';
const REQUEST_MIME = 'application/bitcoin-paymentrequest';
const MAX_PAYMENT_BYTES = 50_000;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let over = false;
    request.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) over = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(over ? 'too-large' : new Uint8Array(Buffer.concat(chunks))));
    request.on('error', reject);
  });
}

function send(response: ServerResponse, status: number, type: string, body: string | Uint8Array) {
  response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
  response.end(body);
}

export async function startMerchant(options: { port?: number; host?: string } = {}): Promise<Merchant> {
  const host = options.host ?? '127.0.0.1';
  const root: Identity = await createRootCa('Hushdrop Test Merchant CA');
  // The certificate names the host the shop is served from, as a real shop's would.
  const merchantName = { organization: 'Hushdrop Test Shop', dnsNames: [host, 'localhost'] };
  const leaf = await issue(root, { commonName: host, ...merchantName });
  const leafSha1 = await issue(root, { commonName: host, ...merchantName, hash: 'SHA-1' });
  // No subjectAltName: the page then names the signer by this CN, the HTML a test wants shown as text.
  const htmlLeaf = await issue(root, {
    commonName: HTML_MERCHANT,
    organization: '<script>alert("org")</script> Shop',
  });
  const expiredLeaf = await issue(root, {
    commonName: host,
    ...merchantName,
    notBefore: new Date(Date.now() - 30 * 86_400_000),
    notAfter: new Date(Date.now() - 86_400_000),
  });

  const invoices = new Map<string, Invoice>();
  const payments: ReceivedPayment[] = [];
  let counter = 0;
  let origin = '';

  async function paymentRequest(kind: RequestKind): Promise<Uint8Array> {
    const invoice = `${kind}-${++counter}`;
    const merchantData = new TextEncoder().encode(JSON.stringify({ invoice }));
    invoices.set(invoice, { merchantData, kind });
    const now = BigInt(Math.floor(Date.now() / 1000));
    const details: PaymentDetailsInit = {
      network: kind === 'testnet' ? 'test' : 'main',
      outputs: [{ amount: PAYMENT_AMOUNT, script: PAY_TO_SCRIPT }],
      time: now,
      expires: kind === 'expired' ? now - 60n : now + 900n,
      memo:
        kind === 'html-memo' ? HTML_MEMO : `Payment request for invoice ${invoice} at the Hushdrop test shop`,
      paymentUrl: `${origin}/pay/${invoice}`,
      merchantData,
    };
    if (kind === 'oversized') details.memo = 'x'.repeat(60_000);
    if (kind === 'unsigned') return buildPaymentRequest({ details });
    const signer =
      kind === 'sha1'
        ? { chain: [leafSha1.der], privateKey: leafSha1.keys.privateKey }
        : kind === 'expired-cert'
          ? { chain: [expiredLeaf.der], privateKey: expiredLeaf.keys.privateKey }
          : kind === 'html-merchant'
            ? { chain: [htmlLeaf.der], privateKey: htmlLeaf.keys.privateKey }
            : { chain: [leaf.der], privateKey: leaf.keys.privateKey };
    const bytes = await buildPaymentRequest({
      details,
      signer,
      pkiType: kind === 'sha1' ? 'x509+sha1' : 'x509+sha256',
    });
    if (kind === 'tampered') {
      // Raise the amount by changing one byte inside the signed details.
      const at = Buffer.from(bytes).indexOf(Buffer.from(PAY_TO_SCRIPT)) - 4;
      bytes[at]! ^= 0x01;
    }
    return bytes;
  }

  function page(): string {
    const address = describeScript(PAY_TO_SCRIPT, 'main').address!;
    const r = (kind: RequestKind) => encodeURIComponent(merchant.requestUrl(kind));
    const amount = formatBtc(PAYMENT_AMOUNT);
    return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hushdrop test shop</title></head>
<body>
<h1>Hushdrop test shop</h1>
<p>Order 42: ${amount} BTC. ${escapeHtml('Prices include VAT & shipping.')}</p>
<ul id="payment-links">
  <li><a id="pay-bip72" href="bitcoin:?r=${r('sha256')}">Pay with a payment request (BIP72, no address)</a></li>
  <li><a id="pay-bip21-r" href="bitcoin:${address}?amount=${amount}&amp;label=Order%2042&amp;r=${r('sha1')}">Pay (address, amount and r=)</a></li>
  <li><a id="pay-mime" type="${REQUEST_MIME}" href="/request/unsigned">Unsigned payment request (by type)</a></li>
  <li><a id="pay-file" href="/request/html-memo.bitcoinpaymentrequest">Payment request file</a></li>
  <li><a id="pay-expired" href="bitcoin:?r=${r('expired')}">Expired payment request</a></li>
  <li><a id="pay-tampered" href="bitcoin:?r=${r('tampered')}">Tampered payment request</a></li>
</ul>
<ul id="ordinary-links">
  <li><a id="plain-bip21" href="bitcoin:${address}?amount=${amount}">Plain bitcoin: link without r=</a></li>
  <li><a id="about" href="/about">About this shop</a></li>
  <li><a id="external" href="https://example.org/">Example</a></li>
  <li><a id="mail" href="mailto:shop@example.org">Mail us</a></li>
  <li><a id="octet" type="application/octet-stream" href="/files/manual.pdf">Manual</a></li>
</ul>
<div id="late"></div>
<script>
  setTimeout(function () {
    var a = document.createElement('a');
    a.id = 'pay-late';
    a.href = 'bitcoin:?r=${r('sha256')}';
    a.textContent = 'Pay (link added one second after load)';
    document.getElementById('late').appendChild(a);
  }, 1000);
</script>
</body></html>
`;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', origin);
    if (request.method === 'GET' && (url.pathname === '/' || url.pathname === '/shop')) {
      return send(response, 200, 'text/html; charset=utf-8', page());
    }
    if (request.method === 'GET' && url.pathname === '/about') {
      return send(
        response,
        200,
        'text/html; charset=utf-8',
        '<!doctype html><title>About</title><p>A test shop.</p>',
      );
    }
    const requestMatch = /^\/request\/([a-z0-9-]+?)(\.bitcoinpaymentrequest)?$/.exec(url.pathname);
    if (request.method === 'GET' && requestMatch) {
      const kind = requestMatch[1] as RequestKind;
      if (!REQUEST_KINDS.includes(kind)) return send(response, 404, 'text/plain', 'No such payment request.');
      const bytes = await paymentRequest(kind);
      return send(response, 200, kind === 'wrong-type' ? 'text/html; charset=utf-8' : REQUEST_MIME, bytes);
    }
    const payMatch = /^\/pay\/([a-z0-9-]+)$/.exec(url.pathname);
    if (payMatch) {
      if (request.method !== 'POST') return send(response, 405, 'text/plain', 'POST a Payment here.');
      const invoice = invoices.get(payMatch[1]!);
      if (!invoice) return send(response, 404, 'text/plain', 'Unknown invoice.');
      const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (contentType !== PAYMENT_MIME) {
        return send(response, 400, 'text/plain', `Expected Content-Type ${PAYMENT_MIME}.`);
      }
      const body = await readBody(request, MAX_PAYMENT_BYTES);
      if (body === 'too-large') return send(response, 413, 'text/plain', 'Payment too large.');
      let payment: Payment;
      try {
        payment = decodePayment(body);
      } catch {
        return send(response, 400, 'text/plain', 'Not a Payment message.');
      }
      const echoed = payment.merchantData ?? new Uint8Array(0);
      if (Buffer.compare(Buffer.from(echoed), Buffer.from(invoice.merchantData)) !== 0) {
        return send(response, 400, 'text/plain', 'merchant_data was not echoed.');
      }
      if (payment.transactions.length === 0) return send(response, 400, 'text/plain', 'No transactions.');
      payments.push({ invoice: payMatch[1]!, payment, contentType });
      const ack = encodePaymentAck({
        payment,
        memo: `Thank you! Payment for invoice ${payMatch[1]} received (${payment.transactions.length} transaction${payment.transactions.length > 1 ? 's' : ''}).`,
      });
      return send(response, 200, ACK_MIME, ack);
    }
    return send(response, 404, 'text/plain', 'Not found.');
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, 500, 'text/plain', 'Internal error.');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;

  const merchant: Merchant = {
    origin,
    pageUrl: `${origin}/shop`,
    requestUrl: (kind, opts = {}) =>
      `${origin}/request/${kind}${opts.suffix ? '.bitcoinpaymentrequest' : ''}`,
    rootDer: root.der,
    rootPem: pemOf(root.der),
    payments,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
  return merchant;
}
