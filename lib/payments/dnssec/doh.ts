/**
 * DNS over HTTPS (RFC 8484): one query as a GET with `?dns=<base64url of the message>`, the answer
 * read as application/dns-message. The resolver is the one the person chose; it is trusted to
 * carry records, never to judge them (validate.ts does). Like every payment fetch it follows no
 * redirect elsewhere, sends no credentials and reads at most a DNS message's largest size.
 */
import { base64urlnopad } from '@scure/base';
import { plural, t } from '../../i18n';
import { PaymentError } from '../errors';
import { type FetchLike, mediaType, readCapped, withDeadline } from '../http';
import { paymentGet } from '../same-origin';
import { FLAG, queryWire, RCODE, rcodeOf, readMessage } from './message';
import { displayName } from './problem';
import { DnsWireError, type Name, nameKey, type ResourceRecord, TYPE } from './wire';

export const DNS_MESSAGE_MIME = 'application/dns-message';
/** RFC 1035 §4.2.2: a message's length fits in 16 bits. */
export const MAX_DNS_MESSAGE_BYTES = 65_535;
/** Each query's own limit; a name's look-up makes about ten. */
export const DNS_QUERY_TIMEOUT_MS = 15_000;

export interface DohOptions {
  resolver: string;
  fetch: FetchLike;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The query's address: the resolver's, with `dns=` added to any query it has. */
export function dohQueryUrl(resolver: string, name: Name, type: number): string {
  const url = new URL(resolver);
  url.searchParams.set('dns', base64urlnopad.encode(queryWire(name, type)));
  return url.href;
}

/**
 * Asks the resolver for `type` at `name` (DO and CD set); returns the answer's and authority's
 * records (what a chain is made of), empty for a name that does not exist. Throws PaymentError
 * ('unreachable') when the resolver cannot be reached, times out or answers with anything but
 * a DNS message for this question.
 */
export async function dohQuery(name: Name, type: number, options: DohOptions): Promise<ResourceRecord[]> {
  const host = new URL(options.resolver).host;
  const refused = (why?: unknown) =>
    new PaymentError('unreachable', t('payResolverRefused', host, displayName(name)), { cause: why });
  return withDeadline(
    { ...options, timeoutMs: options.timeoutMs ?? DNS_QUERY_TIMEOUT_MS },
    async (signal) => {
      const response = await paymentGet(
        options.fetch,
        dohQueryUrl(options.resolver, name, type),
        DNS_MESSAGE_MIME,
        { request: signal, ...(options.signal ? { cancelled: options.signal } : {}) },
        t('payResolverNoAnswer', host),
      );
      if (response.status !== 200 || mediaType(response) !== DNS_MESSAGE_MIME) {
        await response.body?.cancel().catch(() => {});
        throw new PaymentError('unreachable', t('payResolverHttp', host, response.status));
      }
      const bytes = await readCapped(response, MAX_DNS_MESSAGE_BYTES, (size) =>
        refused(new Error(`${size} > ${plural('bytes', MAX_DNS_MESSAGE_BYTES)}`)),
      );
      let message: ReturnType<typeof readMessage>;
      try {
        message = readMessage(bytes);
      } catch (error) {
        if (error instanceof DnsWireError) throw refused(error);
        throw error;
      }
      const question = message.questions[0];
      const rcode = rcodeOf(message);
      if (
        !(message.flags & FLAG.QR) ||
        message.id !== 0 ||
        message.questions.length !== 1 ||
        nameKey(question!.name) !== nameKey(name) ||
        question!.type !== type
      )
        throw refused();
      if (rcode !== RCODE.NOERROR && rcode !== RCODE.NXDOMAIN) throw refused(new Error(`RCODE ${rcode}`));
      return [...message.answers, ...message.authority].filter((rr) => rr.type !== TYPE.OPT);
    },
    () => new PaymentError('unreachable', t('payResolverTimeout', host)),
  );
}
