import { t } from '../i18n';
import type { Bip353Name } from './bip353/name';
import { alsoName, type NameSource, nameSource } from './bip353/source';
import { PaymentError } from './errors';
import { kindOfText } from './forms';
import { type LnurlTarget, parseLnurl } from './lnurl';
import { type BitcoinUri, parseBitcoinUri } from './uri';

/**
 * What the payment page is asked to show, read from text a person pasted or clicked, or from the
 * page's own address. Three ways in:
 *   request  a BIP70 request to fetch (its web address, or a bitcoin: URI with r=)
 *   offline  text judged as it is: a bitcoin: URI without r=, a Lightning invoice
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

export function httpUrl(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const withPage = (pageUrl: string | undefined) => (pageUrl ? { pageUrl } : {});

/** The server a source contacts first: the BIP70 request, the LNURL service's terms, or the name's resolver. */
export const serverOf = (source: FetchedSource) =>
  source.kind === 'request'
    ? source.requestUrl
    : source.kind === 'name'
      ? (source.resolver ?? '')
      : source.target.url;

/** Pasted or clicked text: a web address, a bitcoin: URI, an invoice, an LNURL or name@domain. */
export function sourceFromText(text: string, pageUrl?: string): PaymentSource {
  const trimmed = text.trim();
  if (trimmed === '') throw badInput(t('payInputEmpty'));
  switch (kindOfText(trimmed)) {
    case 'bip21': {
      let uri: BitcoinUri | undefined;
      try {
        uri = parseBitcoinUri(trimmed);
      } catch {
        // Unreadable: shown as an invalid request, with the reason.
      }
      if (uri?.r === undefined) return { kind: 'offline', text: trimmed, ...withPage(pageUrl) };
      const url = httpUrl(uri.r);
      if (!url) throw badInput(t('payInputRNotWeb'));
      return { kind: 'request', requestUrl: url.href, ...withPage(pageUrl), uri };
    }
    case 'bolt11':
      return { kind: 'offline', text: trimmed, ...withPage(pageUrl) };
    case 'bip353':
      return nameSource(trimmed, pageUrl);
    case 'lnurl':
      try {
        const target = parseLnurl(trimmed);
        const name = target.form === 'address' && !/^lightning:/i.test(trimmed) ? alsoName(trimmed) : {};
        return { kind: 'lnurl', text: trimmed, target, ...withPage(pageUrl), ...name };
      } catch {
        return { kind: 'offline', text: trimmed, ...withPage(pageUrl) };
      }
    case 'bip70': {
      const url = httpUrl(trimmed);
      if (url) return { kind: 'request', requestUrl: url.href, ...withPage(pageUrl) };
    }
  }
  throw badInput(t('payInputNotLink'));
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
    const url = httpUrl(r);
    if (!url) throw badInput(t('payInputParamNotWeb'));
    return { kind: 'request', requestUrl: url.href, ...withPage(pageUrl) };
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
