import { t } from '../i18n';
import { isAddress, type Network } from './addresses';
import { isPaymentError, PaymentError } from './errors';
import { type BitcoinUri, parseBitcoinUri } from './uri';
import { plainWalletUri } from './wallet';

/**
 * What the payment page is asked to show, read from text a person pasted or from the page's own
 * address. Every refusal is a PaymentError('bad-input') whose message is the sentence to show.
 */
export type PaymentSource =
  | { kind: 'request'; requestUrl: string; pageUrl?: string; uri?: BitcoinUri }
  | { kind: 'address'; uri: BitcoinUri; address: string; network: Network };

export type RequestSource = Extract<PaymentSource, { kind: 'request' }>;
export type AddressSource = Extract<PaymentSource, { kind: 'address' }>;

const badInput = (message: string) => new PaymentError('bad-input', message);

export function httpUrl(text: string): URL | undefined {
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
  if (trimmed === '') throw badInput(t('payInputEmpty'));
  if (/^bitcoin:/i.test(trimmed)) {
    let uri: BitcoinUri;
    try {
      uri = parseBitcoinUri(trimmed);
    } catch (error) {
      throw badInput(isPaymentError(error) ? error.message : t('payInputUnreadable'));
    }
    if (uri.r !== undefined) {
      const url = httpUrl(uri.r);
      if (!url) throw badInput(t('payInputRNotWeb'));
      return { kind: 'request', requestUrl: url.href, ...(pageUrl ? { pageUrl } : {}), uri };
    }
    if (uri.unknownRequired.length > 0) {
      throw badInput(t('payInputRequires', uri.unknownRequired.join(', ').slice(0, 80)));
    }
    if (!uri.address) throw badInput(t('payInputNothing'));
    const network: Network | undefined = isAddress(uri.address, 'main')
      ? 'main'
      : isAddress(uri.address, 'test')
        ? 'test'
        : undefined;
    if (!network) throw badInput(t('payInputBadAddress'));
    return { kind: 'address', uri, address: uri.address, network };
  }
  const url = httpUrl(trimmed);
  if (!url) throw badInput(t('payInputNotLink'));
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
    if (!url) throw badInput(t('payInputParamNotWeb'));
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
      source.kind === 'request'
        ? `bitcoin:?r=${encodeURIComponent(source.requestUrl)}`
        : plainWalletUri(source.uri),
    );
    if (source.kind === 'request' && source.pageUrl) q.set('page', source.pageUrl);
  }
  return `?${q}`;
}

/** What the link field shows for a source. */
export function inputTextOf(source: PaymentSource | undefined): string {
  if (!source) return '';
  if (source.kind === 'address') return plainWalletUri(source.uri);
  return source.requestUrl;
}
