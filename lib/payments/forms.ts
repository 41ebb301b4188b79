/**
 * The classifier: which form of payment request a text or a link on a page is, by its form alone.
 * Cheap (patterns, no decoding), so the content script can run it on every link of a hostile page;
 * read.ts's parser reads what it names, and the decoders judge that.
 */

export type RequestForm = 'bip21' | 'bolt11' | 'bolt12' | 'lnurl' | 'bip70' | 'bip353';

/** Longest request text Hushdrop takes (a BOLT 11 invoice fits a QR code, 7,089 characters). */
export const MAX_REQUEST_TEXT = 8_000;

/** The Content-Type of a BIP70 request, and the `type` attribute of a link to one. */
export const PAYMENT_REQUEST_MIME = 'application/bitcoin-paymentrequest';
/** The file suffix BIP 71 gives a BIP70 request. */
const FILE_SUFFIX = '.bitcoinpaymentrequest';

/** `lightning:` and a BOLT 11 prefix (lnbc, lntb, lntbs, lnbcrt), then bech32 data. */
export function looksLikeBolt11(text: string): boolean {
  return /^(lightning:)?ln(bcrt|tbs|bc|tb)[0-9a-z]*1[0-9a-z]+$/i.test(text.trim());
}

/** `lightning:` and a BOLT 12 offer (`lno1…`), whose parts a `+` and whitespace may join. */
export function looksLikeBolt12(text: string): boolean {
  return /^(lightning:)?lno1[0-9a-z]*$/i.test(text.trim().replace(/\+\s*/g, ''));
}

/** A bech32 LNURL (LUD-01), an lnurlp:// link (LUD-17) or name@domain (LUD-16). */
export function looksLikeLnurl(text: string): boolean {
  const s = text.trim().replace(/^lightning:/i, '');
  return /^lnurl1[0-9a-z]+$/i.test(s) || /^lnurlp:\/\//i.test(s) || /^[^\s@/:]+@[^\s@/]+$/.test(s);
}

/** A BIP 353 name as written with its ₿ (`₿user@domain`); a plain `user@domain` reads as LNURL's. */
export function looksLikeBip353(text: string): boolean {
  return /^₿[^\s@/:]+@[^\s@/]+$/u.test(text.trim());
}

/** The form of request text, or undefined for none Hushdrop reads. */
export function paymentFormOf(text: string): RequestForm | undefined {
  const s = text.trim();
  if (s.length > MAX_REQUEST_TEXT) return undefined;
  if (/^bitcoin:/i.test(s)) return 'bip21';
  if (looksLikeBolt11(s)) return 'bolt11';
  if (looksLikeBolt12(s)) return 'bolt12';
  if (looksLikeBip353(s)) return 'bip353';
  if (looksLikeLnurl(s)) return 'lnurl';
  if (/^https?:\/\//i.test(s)) return 'bip70';
  return undefined;
}

/** An anchor as the content script sees it: its `href` and `type` attributes, and the page's base. */
export interface Anchor {
  href: string;
  type?: string | null;
  baseUrl?: string;
}

/** A payment link: its form, and the request text a click hands over (for BIP70, its absolute address). */
export interface FoundLink {
  form: RequestForm;
  text: string;
}

/** `text` as an http(s) address (relative to `base` when given), or undefined. */
export function httpUrl(text: string, base?: string): URL | undefined {
  try {
    const url = base === undefined ? new URL(text) : new URL(text, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether an anchor is a payment link, and of which form: a `bitcoin:` URI of any form (an
 * unreadable one too: the payment page says why), a `lightning:` or `lnurlp:` link Hushdrop reads
 * (an invoice, an offer, an LNURL or Lightning Address),
 * a link with `type="application/bitcoin-paymentrequest"`, or a link whose path ends
 * `.bitcoinpaymentrequest`. Undefined for any other link.
 */
export function paymentLinkOf(anchor: Anchor): FoundLink | undefined {
  const href = anchor.href.trim();
  if (href.length > MAX_REQUEST_TEXT) return undefined;
  if (/^bitcoin:/i.test(href)) return { form: 'bip21', text: href };
  if (/^(lightning|lnurlp):/i.test(href)) {
    const form = paymentFormOf(href);
    return form === 'bolt11' || form === 'bolt12' || form === 'lnurl' ? { form, text: href } : undefined;
  }
  const url = httpUrl(href, anchor.baseUrl);
  if (!url) return undefined;
  const type = (anchor.type ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === PAYMENT_REQUEST_MIME || url.pathname.toLowerCase().endsWith(FILE_SUFFIX))
    return { form: 'bip70', text: url.href };
  return undefined;
}
