import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '@noble/hashes/sha2.js';
import { bech32, hex } from '@scure/base';
import { makeInvoice, sha256Hex } from './invoices';

/**
 * A local LNURL-pay service for tests (LUD-06, LUD-16), and a shop page with today's payment
 * links on it. Each name behaves its own way:
 *   alice            honest: terms, then an invoice committing to the metadata and the amount
 *   fixed            honest, one amount only (min = max)
 *   mallory-hash     an invoice whose description hash is not the metadata's
 *   mallory-amount   an invoice for 1 sat more than asked
 *   broken-invoice   an invoice with a changed character
 *   closed           {"status":"ERROR"} with HTML in its reason
 *   withdraw         a withdrawRequest, not a payRequest
 *   huge             terms padded past 256 KiB
 *   elsewhere        honest terms, but the callback on another origin (localhost, same port)
 *   liar             honest, but its LUD-21 check says "paid" with a secret that is not the invoice's
 *   verify-elsewhere honest, but its LUD-21 check is on another origin (localhost, same port)
 * Every honest invoice comes with a LUD-21 `verify` address on the service's origin, which says
 * "not paid" until the test calls settle() for that invoice. Invoices are signed by
 * tests/lnurl/invoices.ts's test node, each with a fresh secret (preimage).
 */

export const NAMES = [
  'alice',
  'fixed',
  'mallory-hash',
  'mallory-amount',
  'broken-invoice',
  'closed',
  'withdraw',
  'huge',
  'elsewhere',
  'liar',
  'verify-elsewhere',
] as const;
export type LnurlName = (typeof NAMES)[number];

export const MIN_MSAT = 1_000n;
export const MAX_MSAT = 1_000_000_000n;
export const FIXED_MSAT = 21_000_000n;
export const CLOSED_REASON = '<b>Shop closed</b> for the day';

export interface LnurlService {
  origin: string;
  /** `name@host:port` (a Lightning Address on this machine). */
  address(name: LnurlName): string;
  /** The bech32 LNURL of a name's terms (LUD-01). */
  lnurl(name: LnurlName): string;
  /** The metadata a name's terms carry (its SHA-256 is what an honest invoice commits to). */
  metadata(name: LnurlName): string;
  /** Invoice requests received: name and amount asked (msat). */
  invoiceRequests: { name: string; amountMsat: bigint }[];
  /** LUD-21 checks received, by payment hash. */
  verifyRequests: string[];
  /** Marks an invoice paid (its check then answers settled, with its preimage). */
  settle(invoice: string): void;
  /** A shop page with a page-specific set of payment links: see shopPage. */
  pageUrl: string;
  setPage(html: string): void;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startLnurlService(options: { host?: string } = {}): Promise<LnurlService> {
  const host = options.host ?? '127.0.0.1';
  const invoiceRequests: LnurlService['invoiceRequests'] = [];
  let page = '<!doctype html><title>Shop</title><p>No links yet.</p>';
  let origin = '';
  const identifier = (name: string) => `${name}@${new URL(origin).host}`;
  const metadata = (name: string) =>
    JSON.stringify([
      ['text/plain', `Tea for ${name} <script>alert(1)</script>`],
      ['text/long-desc', 'A pot of tea.\nServed hot.'],
      ['text/identifier', identifier(name)],
    ]);

  const terms = (name: LnurlName) => {
    if (name === 'closed') return { status: 'ERROR', reason: CLOSED_REASON };
    if (name === 'withdraw') return { tag: 'withdrawRequest', callback: `${origin}/x`, k1: '00' };
    const fixed = name === 'fixed';
    return {
      tag: 'payRequest',
      callback:
        name === 'elsewhere'
          ? `http://localhost:${new URL(origin).port}/lnurlp/${name}/callback`
          : `${origin}/lnurlp/${name}/callback`,
      minSendable: Number(fixed ? FIXED_MSAT : MIN_MSAT),
      maxSendable: Number(fixed ? FIXED_MSAT : MAX_MSAT),
      metadata: metadata(name),
      ...(name === 'huge' ? { padding: 'x'.repeat(300 * 1024) } : {}),
    };
  };

  /** What the service knows of each invoice it gave, by payment hash. */
  const invoices = new Map<string, { name: LnurlName; pr: string; preimage: Uint8Array; paid: boolean }>();
  const verifyRequests: string[] = [];

  const invoiceFor = (name: LnurlName, amountMsat: bigint) => {
    const preimage = randomBytes(32);
    const paymentHash = hex.encode(sha256(preimage));
    const honest = makeInvoice({
      amountMsat: name === 'mallory-amount' ? amountMsat + 1_000n : amountMsat,
      descriptionHash: sha256Hex(name === 'mallory-hash' ? metadata('someone-else') : metadata(name)),
      timestamp: Math.floor(Date.now() / 1000),
      expiry: 600,
      paymentHash,
    });
    invoices.set(paymentHash, { name, pr: honest, preimage, paid: false });
    const verifyOrigin = name === 'verify-elsewhere' ? `http://localhost:${new URL(origin).port}` : origin;
    const verify = `${verifyOrigin}/lnurlp/${name}/verify/${paymentHash}`;
    if (name !== 'broken-invoice') return { pr: honest, verify };
    const at = honest.length - 20;
    return { pr: `${honest.slice(0, at)}${honest[at] === 'q' ? 'p' : 'q'}${honest.slice(at + 1)}` };
  };

  /** LUD-21's answer for an invoice: settled or not, with its preimage once paid (or a wrong one). */
  const verifyAnswer = (paymentHash: string) => {
    verifyRequests.push(paymentHash);
    const known = invoices.get(paymentHash);
    if (!known) return { status: 'ERROR', reason: 'Not found' };
    const liar = known.name === 'liar';
    const settled = known.paid || liar;
    const preimage = liar ? hex.encode(randomBytes(32)) : settled ? hex.encode(known.preimage) : null;
    return { status: 'OK', settled, preimage, pr: known.pr };
  };

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/shop') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(page);
      return;
    }
    const well = /^\/\.well-known\/lnurlp\/([a-z-]+)$/.exec(url.pathname);
    const direct = /^\/lnurlp\/([a-z-]+)$/.exec(url.pathname);
    const callback = /^\/lnurlp\/([a-z-]+)\/callback$/.exec(url.pathname);
    const verify = /^\/lnurlp\/([a-z-]+)\/verify\/([0-9a-f]{64})$/.exec(url.pathname);
    if (verify) return send(response, 200, verifyAnswer(verify[2]!));
    const name = (well ?? direct ?? callback)?.[1] as LnurlName | undefined;
    if (!name || !NAMES.includes(name))
      return send(response, 404, { status: 'ERROR', reason: 'Unknown name.' });
    if (!callback) return send(response, 200, terms(name));
    const amount = url.searchParams.get('amount') ?? '';
    if (!/^\d+$/.test(amount)) return send(response, 400, { status: 'ERROR', reason: 'No amount.' });
    invoiceRequests.push({ name, amountMsat: BigInt(amount) });
    send(response, 200, { ...invoiceFor(name, BigInt(amount)), routes: [] });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://${host}:${port}`;
  return {
    origin,
    address: identifier,
    lnurl: (name) =>
      bech32
        .encode('lnurl', bech32.toWords(new TextEncoder().encode(`${origin}/lnurlp/${name}`)), false)
        .toUpperCase(),
    metadata,
    invoiceRequests,
    verifyRequests,
    settle(invoice) {
      const known = [...invoices.values()].find((i) => i.pr === invoice.replace(/^lightning:/i, ''));
      if (!known) throw new Error(`settle: no such invoice ${invoice.slice(0, 30)}…`);
      known.paid = true;
    },
    pageUrl: `${origin}/shop`,
    setPage(html) {
      page = html;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
