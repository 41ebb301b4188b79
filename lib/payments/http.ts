import { plural, t } from '../i18n';
import { PaymentError } from './errors';

/** Shared pieces of the two HTTP exchanges (fetching a request, posting a payment). */

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpOptions {
  fetch: FetchLike;
  /** Cancels the exchange (e.g. the user closed the dialog). */
  signal?: AbortSignal;
  /** Gives up after this long; default 45 s, as Electrum did. */
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 45_000;

/** Which address a sentence is about: the request's link, or where the payment goes. */
export type AddressRole = 'request' | 'payment';

/** The address as the subject of a sentence ("The payment request link …"). */
const subject = (what: AddressRole) => t(what === 'request' ? 'payWhatRequestLink' : 'payWhatPaymentAddress');

export function parseHttpUrl(text: string, what: AddressRole): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PaymentError('bad-url', t('payUrlInvalid', subject(what)));
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new PaymentError('bad-url', t('payUrlScheme', subject(what)));
  }
  return url;
}

export function plainHttpWarning(url: URL, what: AddressRole): string | undefined {
  if (url.protocol !== 'http:') return undefined;
  return t('payUrlPlainHttp', subject(what));
}

/** The media type without parameters, lower-cased ("" when absent). */
export function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Runs `work` with a signal that fires on the caller's signal or on the timeout. */
export async function withDeadline<T>(
  options: HttpOptions,
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout: () => PaymentError,
): Promise<T> {
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forward = () => controller.abort();
  options.signal?.addEventListener('abort', forward, { once: true });
  if (options.signal?.aborted) controller.abort();
  try {
    return await work(controller.signal);
  } catch (error) {
    if (timedOut) throw onTimeout();
    throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', forward);
  }
}

/**
 * Reads a body, refusing it as soon as it passes `limit` bytes (while streaming, not after),
 * and up front when Content-Length already says so.
 */
export async function readCapped(
  response: Response,
  limit: number,
  /** Gets the size as words ("50,001 bytes", "more than 50,000 bytes"). */
  tooLarge: (size: string) => PaymentError,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge(plural('bytes', declared));
  }
  if (!response.body) {
    // Only for fetch implementations without streams; browsers and Node stream.
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length > limit) throw tooLarge(plural('bytes', bytes.length));
    return bytes;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (error) {
      throw new PaymentError('unreachable', t('payConnectionBroke'), { cause: error });
    }
    const { done, value } = step;
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(t('payMoreThan', plural('bytes', limit)));
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
