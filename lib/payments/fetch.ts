import { PaymentError } from './errors';
import {
  type HttpOptions,
  mediaType,
  parseHttpUrl,
  plainHttpWarning,
  readCapped,
  withDeadline,
} from './http';
import { MAX_PAYMENT_REQUEST_BYTES } from './limits';
import { PAYMENT_REQUEST_MIME } from './uri';

/**
 * Fetching a PaymentRequest (BIP72 / BIP71): GET with the BIP70 Accept header, refuse any other
 * Content-Type (so an HTML error page is never decoded as protobuf) and anything over 50,000
 * bytes, warn loudly about plain http.
 */

export interface FetchedPaymentRequest {
  bytes: Uint8Array;
  /** Where the request finally came from (after redirects). */
  url: string;
  warnings: string[];
}

const UNREACHABLE = "The merchant's payment system did not answer";

export async function fetchPaymentRequest(url: string, options: HttpOptions): Promise<FetchedPaymentRequest> {
  const target = parseHttpUrl(url, 'payment request link');
  const warnings: string[] = [];
  const plain = plainHttpWarning(target, 'payment request link');
  if (plain) warnings.push(`${plain} A changed request could send your money elsewhere.`);

  return withDeadline(
    options,
    async (signal) => {
      let response: Response;
      try {
        response = await options.fetch(target.href, {
          method: 'GET',
          headers: { Accept: PAYMENT_REQUEST_MIME },
          redirect: 'follow',
          credentials: 'omit',
          cache: 'no-store',
          signal,
        });
      } catch (error) {
        if (options.signal?.aborted)
          throw new PaymentError('unreachable', 'Fetching the payment request was cancelled.');
        throw new PaymentError('unreachable', `${UNREACHABLE}; it may be down, or the link may be wrong.`, {
          cause: error,
        });
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new PaymentError(
          'http-status',
          `The merchant's payment system answered with an error (HTTP ${response.status}); the request may have expired or been paid.`,
        );
      }
      const type = mediaType(response);
      if (type !== PAYMENT_REQUEST_MIME) {
        await response.body?.cancel().catch(() => {});
        if (type === 'application/bitcoincash-paymentrequest') {
          throw new PaymentError(
            'wrong-content-type',
            'This is a Bitcoin Cash payment request, not a Bitcoin one.',
          );
        }
        throw new PaymentError(
          'wrong-content-type',
          `The merchant's server did not send a payment request (it sent ${type ? `"${type.slice(0, 60)}"` : 'no content type'}).`,
        );
      }
      const finalUrl = response.url || target.href;
      if (response.url && target.protocol === 'https:' && response.url.startsWith('http:')) {
        warnings.push(
          'The payment request link redirected from https to plain http: it could have been changed on the way.',
        );
      }
      const bytes = await readCapped(
        response,
        MAX_PAYMENT_REQUEST_BYTES,
        (size) =>
          new PaymentError(
            'too-large',
            `The payment request is too large (${size}; at most ${MAX_PAYMENT_REQUEST_BYTES} bytes are allowed).`,
          ),
      );
      return { bytes, url: finalUrl, warnings };
    },
    () => new PaymentError('unreachable', `${UNREACHABLE} in time.`),
  );
}
