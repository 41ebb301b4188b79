// Settings for BIP 353 names (part of the one settings item, version 6): the DNS-over-HTTPS
// resolver that carries their records, and DS records trusted besides the root's. Pure data and
// rules; the page that edits them is the options page's "BIP 353 names" section.
import { t } from '../i18n';
import { readAnchorLine } from '../payments/dnssec/anchors';
import { isPaymentError } from '../payments/errors';

/**
 * The resolver a new installation uses: Cloudflare's public DNS over HTTPS (RFC 8484 with DO and
 * CD honoured). It sees which names are looked up, not what Hushdrop makes of them.
 */
export const DEFAULT_RESOLVER = 'https://cloudflare-dns.com/dns-query';

/** Trust anchors a person may add; more is surely a mistake. */
export const MAX_TRUST_ANCHORS = 50;

export interface NameSettings {
  /** An https address (http only on this machine, for a resolver of one's own or a test). */
  resolver: string;
  /** DS records in their text form, one each, trusted besides the root's. */
  trustAnchors: string[];
}

export const defaultNames = (): NameSettings => ({ resolver: DEFAULT_RESOLVER, trustAnchors: [] });

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** A sentence when `text` cannot be the resolver's address, else undefined. */
export function resolverProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return t('namesResolverNotWeb');
  }
  if (url.username || url.password || url.hash) return t('namesResolverNotWeb');
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && LOOPBACK.test(url.hostname)) return undefined;
  return t('namesResolverNotHttps');
}

/** A sentence when `line` is not a DS record, else undefined. */
export function anchorProblem(line: string): string | undefined {
  try {
    readAnchorLine(line);
    return undefined;
  } catch (error) {
    if (isPaymentError(error)) return error.message;
    throw error;
  }
}

/** Any stored value made usable: a resolver that fails the rules is the default, bad anchors left out. */
export function normalizeNames(value: unknown): NameSettings {
  const v = (value ?? {}) as Partial<NameSettings>;
  const resolver =
    typeof v.resolver === 'string' && resolverProblem(v.resolver) === undefined
      ? v.resolver.trim()
      : DEFAULT_RESOLVER;
  const trustAnchors = Array.isArray(v.trustAnchors)
    ? [
        ...new Set(
          v.trustAnchors.filter((a): a is string => typeof a === 'string' && anchorProblem(a) === undefined),
        ),
      ].slice(0, MAX_TRUST_ANCHORS)
    : [];
  return { resolver, trustAnchors };
}
