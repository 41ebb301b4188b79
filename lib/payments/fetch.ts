import { plural, t } from '../i18n';
import { PaymentError } from './errors';
import { PAYMENT_REQUEST_MIME } from './forms';
import {
  type HttpOptions,
  mediaType,
  parseHttpUrl,
  plainHttpWarning,
  readCapped,
  withDeadline,
} from './http';
import { MAX_PAYMENT_REQUEST_BYTES } from './limits';
import { paymentGet } from './same-origin';

/**
 * Fetching a PaymentRequest (BIP72 / BIP71): GET with the BIP70 Accept header, refuse any other
 * Content-Type (so an HTML error page is never decoded as protobuf) and anything over 50,000
 * bytes, warn loudly about plain http.
 */

export interface FetchedPaymentRequest {
  bytes: Uint8Array;
  /** Where the request finally came from (after same-origin redirects). */
  url: string;
  warnings: string[];
}

export async function fetchPaymentRequest(url: string, options: HttpOptions): Promise<FetchedPaymentRequest> {
  const target = parseHttpUrl(url, 'request');
  const warnings: string[] = [];
  const plain = plainHttpWarning(target, 'request');
  if (plain) warnings.push(`${plain} ${t('payRequestCouldChange')}`);

  return withDeadline(
    options,
    async (signal) => {
      const response = await paymentGet(
        options.fetch,
        target.href,
        PAYMENT_REQUEST_MIME,
        { request: signal, cancelled: options.signal },
        t('payFetchNoAnswer'),
      );
      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new PaymentError('http-status', t('payFetchHttpStatus', String(response.status)));
      }
      const type = mediaType(response);
      if (type !== PAYMENT_REQUEST_MIME) {
        await response.body?.cancel().catch(() => {});
        if (type === 'application/bitcoincash-paymentrequest') {
          throw new PaymentError('wrong-content-type', t('payFetchBitcoinCash'));
        }
        throw new PaymentError(
          'wrong-content-type',
          type ? t('payFetchWrongType', type.slice(0, 60)) : t('payFetchNoType'),
        );
      }
      // A same-origin redirect cannot turn https into http (that would be another origin).
      const finalUrl = response.url || target.href;
      const bytes = await readCapped(
        response,
        MAX_PAYMENT_REQUEST_BYTES,
        (size) =>
          new PaymentError(
            'too-large',
            t('payFetchTooLarge', size, plural('bytes', MAX_PAYMENT_REQUEST_BYTES)),
          ),
      );
      return { bytes, url: finalUrl, warnings };
    },
    () => new PaymentError('unreachable', t('payFetchTimeout')),
  );
}
