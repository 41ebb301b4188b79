import { t } from '../i18n';
import type { Bip353Name } from './bip353/name';
import type { NameSource } from './bip353/source';
import { PaymentError } from './errors';
import { httpUrl, paymentFormOf } from './forms';
import type { LnurlTarget } from './lnurl-target';
import { type ReadPayment, readPayment } from './read';
import type { BitcoinUri } from './uri';

/**
 * What the payment page is asked to show, from text a person pasted or clicked, or from the page's
 * own address, as read by read.ts's parser. Four ways in:
 *   request  a BIP70 request to fetch (its web address, or a bitcoin: URI with r=)
 *   offline  text judged as it is: a bitcoin: URI without r=, a Lightning invoice or offer
 *   lnurl    an LNURL-pay link or Lightning Address, looked up only when the person asks
 *   name     a BIP 353 name `₿user@domain`, looked up only when the person asks (a plain
 *            `user@domain` is an lnurl source with `name`: asked as a BIP 353 name first)
 * Text of no known form is refused with PaymentError('bad-input') and the sentence to show.
 */
export type PaymentSource =
  | { kind: 'request'; requestUrl: string; pageUrl?: string; uri?: BitcoinUri }
  | { kind: 'offline'; text: string; pageUrl?: string }
  | {
      kind: 'lnurl';
      text: string;
      target: LnurlTarget;
      pageUrl?: string;
      /** A plain `user@domain` that is also a BIP 353 name, and the resolver to ask it of. */
      name?: Bip353Name;
      resolver?: string;
    }
  | NameSource;

export type RequestSource = Extract<PaymentSource, { kind: 'request' }>;
export type OfflineSource = Extract<PaymentSource, { kind: 'offline' }>;
export type LnurlSource = Extract<PaymentSource, { kind: 'lnurl' }>;
/** Sources that contact a server, only when the person asks. */
export type FetchedSource = RequestSource | LnurlSource | NameSource;

const badInput = (message: string) => new PaymentError('bad-input', message);

const withPage = (pageUrl: string | undefined) => (pageUrl ? { pageUrl } : {});

/** The server a source contacts first: the BIP70 request, the LNURL service's terms, or the name's resolver. */
export const serverOf = (source: FetchedSource) =>
  source.kind === 'request'
    ? source.requestUrl
    : source.kind === 'name'
      ? (source.resolver ?? '')
      : source.target.url;

/** What the page does with text read by the parser (read.ts). */
export function sourceOf(read: ReadPayment, pageUrl?: string): PaymentSource {
  switch (read.form) {
    case 'bip21': {
      // Unreadable: shown as an invalid request, with the reason.
      if ('unreadable' in read || read.uri.r === undefined)
        return { kind: 'offline', text: read.text, ...withPage(pageUrl) };
      const url = httpUrl(read.uri.r);
      if (!url) throw badInput(t('payInputRNotWeb'));
      return { kind: 'request', requestUrl: url.href, ...withPage(pageUrl), uri: read.uri };
    }
    case 'bolt11':
    case 'bolt12':
      return { kind: 'offline', text: read.text, ...withPage(pageUrl) };
    case 'lnurl':
      return 'unreadable' in read
        ? { kind: 'offline', text: read.text, ...withPage(pageUrl) }
        : {
            kind: 'lnurl',
            text: read.text,
            target: read.target,
            ...withPage(pageUrl),
            ...(read.name ? { name: read.name } : {}),
          };
    case 'bip353':
      // A ₿ name BIP 353 does not allow: nothing to look up, refused with the reason.
      if ('unreadable' in read) throw read.unreadable;
      return { kind: 'name', text: read.text, name: read.name, ...withPage(pageUrl) };
    case 'bip70':
      return { kind: 'request', requestUrl: read.url, ...withPage(pageUrl) };
  }
}

/** Pasted or clicked text: a web address, a bitcoin: URI, an invoice, an LNURL, name@domain or ₿name@domain. */
export function sourceFromText(text: string, pageUrl?: string): PaymentSource {
  if (text.trim() === '') throw badInput(t('payInputEmpty'));
  return sourceOf(readPayment(text), pageUrl);
}

/**
 * What the page's own address asks for: `?r=<request URL>&page=<page it was on>` (from a link on a
 * page) or `?uri=<request text>` (Firefox's bitcoin: handler, a reload, the recent list).
 * Undefined when neither is there.
 */
export function sourceFromParams(params: URLSearchParams): PaymentSource | undefined {
  const page = params.get('page') ?? undefined;
  const pageUrl = page && httpUrl(page) ? page : undefined;
  const r = params.get('r');
  if (r) {
    const read = paymentFormOf(r) === 'bip70' ? readPayment(r) : undefined;
    if (read?.form !== 'bip70') throw badInput(t('payInputParamNotWeb'));
    return { kind: 'request', requestUrl: read.url, ...withPage(pageUrl) };
  }
  const uri = params.get('uri');
  if (uri) return sourceFromText(uri, pageUrl);
  return undefined;
}

/** The page's own query for a source, so a reload shows the same thing. */
export function paramsFor(source: PaymentSource): string {
  const q = new URLSearchParams();
  if (source.kind === 'request' && !source.uri) q.set('r', source.requestUrl);
  else
    q.set(
      'uri',
      source.kind === 'request' ? `bitcoin:?r=${encodeURIComponent(source.requestUrl)}` : source.text,
    );
  if (source.pageUrl) q.set('page', source.pageUrl);
  return `?${q}`;
}

/** What the link field shows for a source. */
export function inputTextOf(source: PaymentSource | undefined): string {
  if (!source) return '';
  return source.kind === 'request' ? source.requestUrl : source.text;
}
