// Payment traffic stays on the origin the person saw: every fetch of the payment flow goes
// through here. A redirect is never followed by the browser (a merchant's 307 would move the
// Payment POST, merchant_data included, to a host the page never named). Where the answer shows
// the redirect's target (Node, tests), a same-origin one is followed for a few hops; in a browser
// an extension page gets only an opaque answer with no Location, so any redirect is refused.
import { t } from '../i18n';
import { isPaymentError, PaymentError } from './errors';
import type { FetchLike } from './http';

/** Same-origin redirects followed before giving up (GET only). */
export const MAX_SAME_ORIGIN_HOPS = 3;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Fetches `url` without letting the browser follow redirects. A GET follows same-origin ones
 * itself (at most MAX_SAME_ORIGIN_HOPS); a POST follows none, so its body is sent once, to the
 * address that was checked. Any other redirect throws PaymentError('redirect') with a sentence
 * naming the origins; nothing is sent to the other origin.
 */
export async function fetchOnOrigin(fetch: FetchLike, url: string, init: RequestInit): Promise<Response> {
  const origin = new URL(url).origin;
  const hops = (init.method ?? 'GET').toUpperCase() === 'GET' ? MAX_SAME_ORIGIN_HOPS : 0;
  let current = url;
  for (let hop = 0; ; hop++) {
    const response = await fetch(current, { ...init, redirect: 'manual' });
    if (response.type === 'opaqueredirect')
      throw new PaymentError('redirect', t('payRedirectHidden', origin));
    if (!REDIRECT_STATUSES.has(response.status)) return response;
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get('location');
    let next: URL | undefined;
    try {
      next = location ? new URL(location, current) : undefined;
    } catch {
      next = undefined;
    }
    if (!next) throw new PaymentError('redirect', t('payRedirectHidden', origin));
    if (next.origin !== origin)
      throw new PaymentError('redirect', t('payRedirectOtherOrigin', origin, next.origin));
    if (hop >= hops) throw new PaymentError('redirect', t('payRedirectNotFollowed', origin));
    current = next.href;
  }
}

/**
 * Where a BIP70 Payment may be POSTed: only the origin the request came from. `payment_url` is the
 * merchant's choice, and an unsigned request (or one from a compromised site) could name any host
 * (this machine's services included) while the page names only the request's site. Returns the
 * sentence to show when it is elsewhere, undefined when it may be sent.
 */
export function paymentUrlProblem(requestUrl: string, paymentUrl: string): string | undefined {
  let request: string;
  let payment: string;
  try {
    request = new URL(requestUrl).origin;
    payment = new URL(paymentUrl).origin;
  } catch {
    return t('payUrlOtherOrigin', requestUrl.slice(0, 200), paymentUrl.slice(0, 200));
  }
  return request === payment ? undefined : t('payUrlOtherOrigin', request, payment);
}

/**
 * The payment flow's GET: on the request's origin, no credentials, no cache. A network failure is
 * PaymentError('unreachable') saying `noAnswer` (or that the person cancelled, when `cancelled` is
 * aborted); a refused redirect passes through as it is.
 */
export async function paymentGet(
  fetch: FetchLike,
  url: string,
  accept: string,
  signals: { request: AbortSignal; cancelled?: AbortSignal },
  noAnswer: string,
): Promise<Response> {
  try {
    return await fetchOnOrigin(fetch, url, {
      method: 'GET',
      headers: { Accept: accept },
      credentials: 'omit',
      cache: 'no-store',
      signal: signals.request,
    });
  } catch (error) {
    if (isPaymentError(error)) throw error;
    if (signals.cancelled?.aborted) throw new PaymentError('unreachable', t('payFetchCancelled'));
    throw new PaymentError('unreachable', noAnswer, { cause: error });
  }
}
