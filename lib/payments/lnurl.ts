import { sha256 } from '@noble/hashes/sha2.js';
import { hex } from '@scure/base';
import { plural, t } from '../i18n';
import { type Bolt11Invoice, decodeBolt11 } from './bolt11';
import { isPaymentError, PaymentError } from './errors';
import { type FetchLike, readCapped, withDeadline } from './http';
import { badLnurl, type LnurlTarget, serviceUrl } from './lnurl-target';
import { paymentGet } from './same-origin';
import { quote } from './verdict';

export { type LnurlTarget, parseLnurl } from './lnurl-target';

/**
 * LNURL-pay (LUD-06) and Lightning Addresses (LUD-16), once read (lnurl-target.ts): only when the
 * person asks, the service's terms fetched and, for the amount they choose, an invoice, refused
 * unless its description hash is the SHA-256 of the metadata the service showed and its amount is
 * the one asked for.
 */

export interface LnurlPayParams {
  callback: string;
  minSendableMsat: bigint;
  maxSendableMsat: bigint;
  /** The metadata exactly as sent: its SHA-256 is what the invoice must commit to. */
  metadata: string;
  /** `text/plain`: untrusted text. */
  description: string;
  longDescription?: string;
  /** `text/identifier` or `text/email`. */
  identifier?: string;
  /** Whether the service sent a picture (Hushdrop does not show it). */
  hasImage: boolean;
  warnings: string[];
}

/** Terms and invoices are small; a picture (LUD-06: up to 136,536 base64 characters) fits easily. */
export const MAX_LNURL_RESPONSE_BYTES = 256 * 1024;

export interface LnurlFetchOptions {
  fetch: FetchLike;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * GETs a service's JSON, whatever its status code or Content-Type (LUD-01 says to ignore both),
 * refusing redirects and anything over MAX_LNURL_RESPONSE_BYTES.
 */
export async function getJson(url: string, options: LnurlFetchOptions): Promise<Record<string, unknown>> {
  const host = new URL(url).host;
  return withDeadline(
    options,
    async (signal) => {
      const response = await paymentGet(
        options.fetch,
        url,
        'application/json',
        { request: signal, cancelled: options.signal },
        t('payLnurlNoAnswer', host),
      );
      const bytes = await readCapped(response, MAX_LNURL_RESPONSE_BYTES, (size) =>
        badLnurl('too-large', t('payLnurlTooLarge', size, plural('bytes', MAX_LNURL_RESPONSE_BYTES))),
      );
      let body: unknown;
      try {
        body = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        throw badLnurl('not-json', t('payLnurlNotJson', host));
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body))
        throw badLnurl('not-json', t('payLnurlNotJson', host));
      const record = body as Record<string, unknown>;
      if (record.status === 'ERROR') {
        const reason = typeof record.reason === 'string' ? record.reason : '';
        throw badLnurl('service-error', t('payLnurlServiceError', host, quote(reason, 200)));
      }
      return record;
    },
    () => new PaymentError('unreachable', t('payLnurlTimeout', host)),
  );
}

/** A whole number of millisatoshis from JSON (a number or a digit string). */
function msatOf(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return BigInt(value);
  return undefined;
}

/** Reads LUD-06's metadata: an array of [type, value] arrays with exactly one text/plain string. */
function readMetadata(
  metadata: string,
): Pick<LnurlPayParams, 'description' | 'longDescription' | 'identifier' | 'hasImage'> {
  let entries: unknown;
  try {
    entries = JSON.parse(metadata);
  } catch {
    throw badLnurl('metadata', t('payLnurlMetadata'));
  }
  if (!Array.isArray(entries) || !entries.every((e) => Array.isArray(e) && typeof e[0] === 'string'))
    throw badLnurl('metadata', t('payLnurlMetadata'));
  const of = (type: string) => (entries as unknown[][]).filter((e) => e[0] === type);
  const plain = of('text/plain');
  if (plain.length !== 1 || typeof plain[0]![1] !== 'string')
    throw badLnurl('metadata', t('payLnurlMetadata'));
  const out: ReturnType<typeof readMetadata> = {
    description: plain[0]![1] as string,
    hasImage: of('image/png;base64').length + of('image/jpeg;base64').length > 0,
  };
  const long = of('text/long-desc')[0]?.[1];
  if (typeof long === 'string') out.longDescription = long;
  const identifier = [...of('text/identifier'), ...of('text/email')][0]?.[1];
  if (typeof identifier === 'string') out.identifier = identifier;
  return out;
}

/** Step 1: the service's terms (LUD-06 payRequest): limits, metadata, where to ask for an invoice. */
export async function fetchPayParams(
  target: LnurlTarget,
  options: LnurlFetchOptions,
): Promise<LnurlPayParams> {
  const body = await getJson(target.url, options);
  if (body.tag !== 'payRequest')
    throw badLnurl('tag', t('payLnurlNotPay', quote(String(body.tag ?? ''), 40)));
  if (typeof body.callback !== 'string') throw badLnurl('callback', t('payLnurlCallback'));
  const callback = serviceUrl(body.callback);
  const min = msatOf(body.minSendable);
  const max = msatOf(body.maxSendable);
  if (min === undefined || max === undefined || min < 1n || min > max)
    throw badLnurl('limits', t('payLnurlLimits'));
  if (typeof body.metadata !== 'string') throw badLnurl('metadata', t('payLnurlMetadata'));
  const metadata = readMetadata(body.metadata);
  // The person allowed the service's own site, and only it: an invoice from elsewhere would need a
  // second permission for a site they never chose, and would hide who answers (same-origin rule).
  if (callback.url.origin !== new URL(target.url).origin)
    throw badLnurl('callback', t('payLnurlOtherHost', callback.url.host, target.host));
  const warnings = [...target.warnings, ...callback.warnings];
  if (target.identifier && metadata.identifier?.toLowerCase() !== target.identifier)
    warnings.push(t('payLnurlIdentifier', target.identifier));
  return {
    callback: callback.url.href,
    minSendableMsat: min,
    maxSendableMsat: max,
    metadata: body.metadata,
    ...metadata,
    warnings: [...new Set(warnings)],
  };
}

/** The callback URL for an amount: `<callback><?|&>amount=<msat>` (LUD-06 step 4). */
export function invoiceUrl(params: LnurlPayParams, amountMsat: bigint): string {
  const url = new URL(params.callback);
  url.searchParams.set('amount', amountMsat.toString());
  return url.href;
}

export interface LnurlInvoice {
  invoice?: Bolt11Invoice;
  /** Why the invoice must not be paid (empty when it matches). */
  reasons: string[];
  /** LUD-21: where the service says whether the invoice was paid, on the terms' own origin. */
  verify?: string;
  warnings?: string[];
}

/**
 * LUD-21's `verify` address from a callback's answer, if Hushdrop may ask it: a web address on the
 * origin the person allowed (the terms', which is the callback's), like every LNURL request. One
 * elsewhere is left unasked, with a warning saying so.
 */
function verifyOf(
  body: Record<string, unknown>,
  params: LnurlPayParams,
): Pick<LnurlInvoice, 'verify' | 'warnings'> {
  if (body.verify === undefined || body.verify === null) return {};
  const origin = new URL(params.callback).origin;
  try {
    const url = typeof body.verify === 'string' ? serviceUrl(body.verify).url : undefined;
    if (url?.origin === origin) return { verify: url.href };
    if (url) return { warnings: [t('payLnurlVerifyOtherHost', url.host)] };
  } catch (error) {
    if (!isPaymentError(error)) throw error;
  }
  return { warnings: [t('payLnurlVerifyNotWeb')] };
}

/**
 * Step 2: the invoice for `amountMsat`, checked against the terms (LUD-06 steps 6–7): its
 * description hash must be SHA-256 of the metadata and its amount the one asked for. A
 * mismatch comes back as reasons (the page shows the invoice as invalid); an amount outside the
 * limits, an error from the service or an unreadable answer throws PaymentError.
 */
export async function fetchLnurlInvoice(
  params: LnurlPayParams,
  amountMsat: bigint,
  options: LnurlFetchOptions,
): Promise<LnurlInvoice> {
  if (amountMsat < params.minSendableMsat || amountMsat > params.maxSendableMsat)
    throw new PaymentError('bad-input', t('payLnurlOutOfLimits'));
  const body = await getJson(invoiceUrl(params, amountMsat), options);
  if (typeof body.pr !== 'string') throw badLnurl('no-invoice', t('payLnurlNoInvoice'));
  let invoice: Bolt11Invoice;
  try {
    invoice = decodeBolt11(body.pr);
  } catch (error) {
    if (isPaymentError(error)) return { reasons: [error.message] };
    throw error;
  }
  const reasons: string[] = [];
  const expected = hex.encode(sha256(new TextEncoder().encode(params.metadata)));
  if (invoice.descriptionHash !== expected) reasons.push(t('payLnurlHashMismatch'));
  if (invoice.amountMsat !== amountMsat) reasons.push(t('payLnurlAmountMismatch'));
  return { invoice, reasons, ...verifyOf(body, params) };
}
