// What the payment page does that is not drawing: read what it was opened with, fetch and judge
// the request (the browser's fetch, the bundled roots plus the person's own, the clock now),
// keep the history entry, build and send the Payment. The page only shows the results.
import { browser } from 'wxt/browser';
import { t } from '../lib/i18n';
import {
  assertNotExpired,
  type BitcoinUri,
  type BuiltPayment,
  bitcoinUriFor,
  buildPayment,
  bundledRootStore,
  type EvaluatedDetails,
  evaluatePaymentRequest,
  type FetchLike,
  fetchPaymentRequest,
  isAddress,
  isPaymentError,
  type Network,
  type PaymentReceipt,
  type PaymentRequestEvaluation,
  parseBitcoinUri,
  type RootStore,
  rootStoreFromBase64,
  sendPayment,
} from '../lib/payments/index';
import { originPattern } from '../lib/settings';
import { loadExtraRoots } from './payment-roots';
import { requestOrigins } from './permissions';
import { addPayment, HistoryWriteError, type PaymentEntry } from './storage/history';

/** What the page was asked to show. */
export type PaymentSource =
  | { kind: 'request'; requestUrl: string; pageUrl?: string; uri?: BitcoinUri }
  | { kind: 'address'; uri: BitcoinUri; address: string; network: Network };

/** Input the page cannot use; the message is a sentence for the person. */
export class PaymentInputError extends Error {
  override name = 'PaymentInputError';
}

function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A pasted payment request link or `bitcoin:` URI (with or without `r=`). */
export function sourceFromText(text: string, pageUrl?: string): PaymentSource {
  const trimmed = text.trim();
  if (trimmed === '') throw new PaymentInputError(t('payInputEmpty'));
  if (/^bitcoin:/i.test(trimmed)) {
    let uri: BitcoinUri;
    try {
      uri = parseBitcoinUri(trimmed);
    } catch (error) {
      throw new PaymentInputError(isPaymentError(error) ? error.message : t('payInputUnreadable'));
    }
    if (uri.r !== undefined) {
      const url = httpUrl(uri.r);
      if (!url) {
        throw new PaymentInputError(t('payInputRNotWeb'));
      }
      return { kind: 'request', requestUrl: url.href, ...(pageUrl ? { pageUrl } : {}), uri };
    }
    if (uri.unknownRequired.length > 0) {
      throw new PaymentInputError(t('payInputRequires', uri.unknownRequired.join(', ').slice(0, 80)));
    }
    if (!uri.address) {
      throw new PaymentInputError(t('payInputNothing'));
    }
    const network: Network | undefined = isAddress(uri.address, 'main')
      ? 'main'
      : isAddress(uri.address, 'test')
        ? 'test'
        : undefined;
    if (!network) throw new PaymentInputError(t('payInputBadAddress'));
    return { kind: 'address', uri, address: uri.address, network };
  }
  const url = httpUrl(trimmed);
  if (!url) {
    throw new PaymentInputError(t('payInputNotLink'));
  }
  return { kind: 'request', requestUrl: url.href, ...(pageUrl ? { pageUrl } : {}) };
}

/**
 * What the page's own address asks for: `?r=<request URL>&page=<page it was on>` (from a link on a
 * page) or `?uri=<bitcoin: URI>` (Firefox's protocol handler). Undefined when neither is there.
 */
export function sourceFromParams(params: URLSearchParams): PaymentSource | undefined {
  const page = params.get('page') ?? undefined;
  const pageUrl = page && httpUrl(page) ? page : undefined;
  const r = params.get('r');
  if (r) {
    const url = httpUrl(r);
    if (!url) throw new PaymentInputError(t('payInputParamNotWeb'));
    return { kind: 'request', requestUrl: url.href, ...(pageUrl ? { pageUrl } : {}) };
  }
  const uri = params.get('uri');
  if (uri) return sourceFromText(uri, pageUrl);
  return undefined;
}

/** The page's own query for a source, so a reload shows the same thing. */
export function paramsFor(source: PaymentSource): string {
  const q = new URLSearchParams();
  if (source.kind === 'request' && !source.uri) {
    q.set('r', source.requestUrl);
    if (source.pageUrl) q.set('page', source.pageUrl);
  } else {
    q.set(
      'uri',
      source.kind === 'request' ? `bitcoin:?r=${encodeURIComponent(source.requestUrl)}` : uriText(source.uri),
    );
    if (source.kind === 'request' && source.pageUrl) q.set('page', source.pageUrl);
  }
  return `?${q}`;
}

function uriText(uri: BitcoinUri): string {
  const extra: { label?: string; message?: string } = {};
  if (uri.label) extra.label = uri.label;
  if (uri.message) extra.message = uri.message;
  return bitcoinUriFor(uri.address ?? '', uri.amount, extra);
}

/** The `bitcoin:` URI for a plain address link, rebuilt from what was understood. */
export const plainWalletUri = (source: Extract<PaymentSource, { kind: 'address' }>) => uriText(source.uri);

// ---- permission to contact a server -------------------------------------------------------

/** Whether the extension may already fetch from this URL's site (loopback always may). */
export async function mayContact(url: string): Promise<boolean> {
  try {
    return await browser.permissions.contains({ origins: [originPattern(url)] });
  } catch {
    return false;
  }
}

/** Asks the person for access to the URL's site; call it straight from a click. */
export function askToContact(url: string): Promise<boolean> {
  return requestOrigins([originPattern(url)]);
}

// ---- fetching and judging ------------------------------------------------------------------

/** The bundled Mozilla roots plus the person's own (options page). */
export async function paymentRootStore(): Promise<RootStore> {
  const bundled = bundledRootStore();
  const extra = rootStoreFromBase64(await loadExtraRoots());
  return {
    certificates: [...bundled.certificates, ...extra.certificates],
    skipped: bundled.skipped + extra.skipped,
  };
}

const browserFetch: FetchLike = (input, init) => fetch(input, init);

export interface LoadedRequest {
  /** Where the request came from in the end (after redirects). */
  requestUrl: string;
  pageUrl?: string;
  /** The host the certificate is compared with, and whether it is the page's or the link's. */
  site: { host: string; from: 'page' | 'request' };
  /** Transport warnings (plain http, redirects). */
  fetchWarnings: string[];
  evaluation: PaymentRequestEvaluation;
  evaluatedAt: Date;
}

function siteOf(pageUrl: string | undefined, requestUrl: string): LoadedRequest['site'] {
  const page = pageUrl ? httpUrl(pageUrl) : undefined;
  if (page) return { host: page.hostname, from: 'page' };
  return { host: new URL(requestUrl).hostname, from: 'request' };
}

/** Fetches (Accept header, 50,000-byte cap, Content-Type check) and evaluates a request. */
export async function loadPaymentRequest(
  requestUrl: string,
  pageUrl: string | undefined,
  signal?: AbortSignal,
): Promise<LoadedRequest> {
  const fetched = await fetchPaymentRequest(requestUrl, {
    fetch: browserFetch,
    ...(signal ? { signal } : {}),
  });
  const site = siteOf(pageUrl, fetched.url);
  const roots = await paymentRootStore();
  const evaluatedAt = new Date();
  const evaluation = await evaluatePaymentRequest(fetched.bytes, {
    roots,
    now: evaluatedAt,
    pageHost: site.host,
  });
  const loaded: LoadedRequest = {
    requestUrl: fetched.url,
    site,
    fetchWarnings: fetched.warnings,
    evaluation,
    evaluatedAt,
  };
  if (pageUrl) loaded.pageUrl = pageUrl;
  return loaded;
}

/** A failure as a sentence, and whether trying the same thing again makes sense. */
export function describePaymentFailure(error: unknown): { message: string; retry: boolean } {
  if (error instanceof PaymentInputError || error instanceof HistoryWriteError) {
    return { message: error.message, retry: false };
  }
  if (isPaymentError(error)) return { message: error.message, retry: error.code === 'unreachable' };
  if (error instanceof DOMException && error.name === 'AbortError') {
    return { message: t('payCancelled'), retry: true };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: t('paySomethingWrong', text.slice(0, 200)), retry: true };
}

// ---- what to show --------------------------------------------------------------------------

/**
 * The `bitcoin:` URI a wallet can open (BIP21 + BIP72): the first output's address and amount
 * for wallets without payment-request support, and `r=` for those with it.
 */
export function walletUriFor(details: EvaluatedDetails, requestUrl: string): string {
  const r = `r=${encodeURIComponent(requestUrl)}`;
  const first = details.outputs[0];
  if (!first?.address) return `bitcoin:?${r}`;
  const base = bitcoinUriFor(first.address, first.amount);
  return `${base}${base.includes('?') ? '&' : '?'}${r}`;
}

/** Seconds the local clock is ahead of the request's creation time (negative: behind). */
export function clockOffsetSeconds(details: EvaluatedDetails, now: Date): number {
  return Math.floor(now.getTime() / 1000) - Number(details.time);
}

/** More than this between the local clock and the request's `time` gets a warning. */
export const CLOCK_TOLERANCE_S = 5 * 60;

/** Seconds until expiry (negative once expired), or undefined when it never expires. */
export function secondsLeft(details: EvaluatedDetails, now: Date): number | undefined {
  if (details.expires === undefined) return undefined;
  const left = details.expires - BigInt(Math.floor(now.getTime() / 1000));
  // Far-future values stay far in the future, without losing the sign.
  if (left > 10n ** 12n) return 1e12;
  if (left < -(10n ** 12n)) return -1e12;
  return Number(left);
}

// ---- history -------------------------------------------------------------------------------

/** Expiry in ms since the epoch, when it is a date JavaScript can hold. */
function expiresMs(details: EvaluatedDetails): number | undefined {
  if (details.expires === undefined || details.expires > 8_640_000_000_000n) return undefined;
  return Number(details.expires) * 1000;
}

/** Saves the viewed request in the payment history; returns the entry (to mark it paid later). */
export async function recordView(loaded: LoadedRequest): Promise<PaymentEntry> {
  const { evaluation } = loaded;
  const entry: PaymentEntry = {
    id: crypto.randomUUID(),
    requestUrl: loaded.requestUrl,
    verdict: evaluation.verdict,
    reasons: evaluation.reasons,
    network: evaluation.details.network,
    totalSat: evaluation.details.total.toString(),
    time: loaded.evaluatedAt.getTime(),
  };
  if (loaded.pageUrl) entry.pageUrl = loaded.pageUrl;
  if (evaluation.verdict === 'verified' && evaluation.merchant)
    entry.merchant = evaluation.merchant.commonName;
  if (evaluation.details.memo !== undefined) entry.memo = evaluation.details.memo.slice(0, 2000);
  const expires = expiresMs(evaluation.details);
  if (expires !== undefined) entry.expires = expires;
  await addPayment(entry);
  return entry;
}

export async function recordPaid(entry: PaymentEntry, receipt: PaymentReceipt): Promise<PaymentEntry> {
  const paid: PaymentEntry = { ...entry, paidAt: Date.now() };
  if (receipt.memo !== undefined) paid.ackMemo = receipt.memo.slice(0, 2000);
  await addPayment(paid);
  return paid;
}

// ---- paying --------------------------------------------------------------------------------

export interface PaymentForm {
  transactionsHex: string;
  refundAddress: string;
  memo: string;
}

/**
 * Checks expiry and builds the Payment (merchant_data echoed, refund address checked for the
 * request's network). Warnings are things to confirm before sending (no refund address, the
 * transactions do not pay every output). Throws PaymentError with a sentence.
 */
export function preparePayment(details: EvaluatedDetails, form: PaymentForm): BuiltPayment {
  assertNotExpired(details, new Date());
  const refund = form.refundAddress.trim();
  const built = buildPayment({
    details,
    transactionsHex: form.transactionsHex,
    ...(refund ? { refundAddress: refund } : {}),
    ...(form.memo.trim() ? { memo: form.memo.trim() } : {}),
  });
  if (!refund) {
    built.warnings.unshift(t('payNoRefundAddress'));
  }
  return built;
}

/** Re-checks expiry at the last moment, then POSTs the Payment and reads the PaymentACK. */
export async function sendPrepared(
  details: EvaluatedDetails,
  payment: BuiltPayment,
  signal?: AbortSignal,
): Promise<PaymentReceipt> {
  if (!details.paymentUrl) throw new PaymentInputError(t('payNoPaymentUrl'));
  assertNotExpired(details, new Date());
  return sendPayment(details.paymentUrl, payment.bytes, {
    fetch: browserFetch,
    ...(signal ? { signal } : {}),
  });
}
