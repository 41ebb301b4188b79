import { bech32 } from '@scure/base';
import { t } from '../i18n';
import { PaymentError } from './errors';

/**
 * An LNURL-pay link or Lightning Address read offline, before anything is fetched: where its
 * terms are (LUD-01's bech32 `lnurl1…` with or without `lightning:`, LUD-17's `lnurlp://`,
 * LUD-16's `name@domain`), over https, or plain http only for .onion (LUD-01) and this machine (a
 * local test service), with a warning. lnurl.ts fetches; this stays small for read.ts's parser.
 */

export interface LnurlTarget {
  /** "address": a Lightning Address; "link": an LNURL. */
  form: 'address' | 'link';
  /** What the person sees: `name@domain` or the link's URL. */
  label: string;
  /** Where the terms are fetched from. */
  url: string;
  host: string;
  /** `name@domain` for a Lightning Address. */
  identifier?: string;
  warnings: string[];
}

const USERNAME = /^[a-z0-9\-_.]+$/;
const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** A refusal of an LNURL: `detail` names the rule, `why` is the sentence a person sees. */
export function badLnurl(detail: string, why: string): PaymentError {
  return new PaymentError('bad-lnurl', why, { detail });
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);

/** The service's URL if Hushdrop may use it: https, or http for .onion and this machine. */
export function serviceUrl(text: string): { url: URL; warnings: string[] } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badLnurl('url', t('payLnurlNotWeb'));
  }
  if (url.username || url.password) throw badLnurl('url', t('payLnurlNotWeb'));
  if (url.protocol === 'https:') return { url, warnings: [] };
  if (url.protocol === 'http:' && (url.hostname.endsWith('.onion') || isLoopback(url.hostname)))
    return { url, warnings: [t('payLnurlPlainHttp', url.host)] };
  throw badLnurl('url', t('payLnurlNotHttps'));
}

function target(form: LnurlTarget['form'], label: string, url: string, identifier?: string): LnurlTarget {
  const checked = serviceUrl(url);
  const out: LnurlTarget = {
    form,
    label,
    url: checked.url.href,
    host: checked.url.host,
    warnings: checked.warnings,
  };
  if (identifier) out.identifier = identifier;
  return out;
}

/** Reads an LNURL-pay link or Lightning Address; throws PaymentError('bad-lnurl') saying why not. */
export function parseLnurl(input: string): LnurlTarget {
  const text = input.trim().replace(/^lightning:/i, '');
  if (/^lnurl1/i.test(text)) {
    if (text !== text.toLowerCase() && text !== text.toUpperCase())
      throw badLnurl('mixed-case', t('payLnurlUnreadable'));
    const decoded = bech32.decodeUnsafe(text.toLowerCase(), false);
    const bytes = decoded && decoded.prefix === 'lnurl' ? bech32.fromWordsUnsafe(decoded.words) : undefined;
    if (!bytes) throw badLnurl('bech32', t('payLnurlUnreadable'));
    let url: string;
    try {
      url = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw badLnurl('bech32', t('payLnurlUnreadable'));
    }
    return target('link', url, url);
  }
  if (/^lnurlp:\/\//i.test(text)) {
    const rest = text.slice('lnurlp://'.length);
    const host = rest.split(/[/?#]/)[0]!.toLowerCase();
    const scheme = host.endsWith('.onion') || isLoopback(host.replace(/:\d+$/, '')) ? 'http' : 'https';
    const url = `${scheme}://${rest}`;
    return target('link', text, url);
  }
  const at = text.lastIndexOf('@');
  if (at > 0) {
    const name = text.slice(0, at).toLowerCase();
    const domain = text.slice(at + 1).toLowerCase();
    const [host, port] = domain.split(/:(?=\d+$)/) as [string, string?];
    if (!USERNAME.test(name)) throw badLnurl('address', t('payLnurlAddressName'));
    // A port only for a service on this machine (a test service); real addresses have none.
    if (!(HOSTNAME.test(host) || isLoopback(host)) || (port !== undefined && !isLoopback(host)))
      throw badLnurl('address', t('payLnurlAddressDomain'));
    const scheme = host.endsWith('.onion') || isLoopback(host) ? 'http' : 'https';
    return target(
      'address',
      `${name}@${domain}`,
      `${scheme}://${domain}/.well-known/lnurlp/${name}`,
      `${name}@${domain}`,
    );
  }
  throw badLnurl('form', t('payLnurlUnreadable'));
}
