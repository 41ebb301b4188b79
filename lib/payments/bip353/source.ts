/**
 * BIP 353 names on the payment page: what it was asked to look up (`₿user@domain`, or a plain
 * `user@domain`, which is a BIP 353 name asked first and a Lightning Address asked second), and
 * where the look-up goes: the DNS-over-HTTPS resolver the person chose, the one payment server
 * that is not the request's own site, and for a plain address the Lightning Address's site too.
 */
import type { LnurlSource, PaymentSource } from '../page-input';
import type { Bip353Name } from './name';

/** A `₿user@domain` to look up (BIP 353 only). */
export interface NameSource {
  kind: 'name';
  text: string;
  name: Bip353Name;
  /** The resolver's address, set by the page from the settings before anything is asked. */
  resolver?: string;
  pageUrl?: string;
}

/** Whether a source looks a BIP 353 name up (a ₿ name, or a Lightning Address that is also one). */
export const looksUpName = (
  source: PaymentSource,
): source is NameSource | (LnurlSource & { name: Bip353Name }) =>
  source.kind === 'name' || (source.kind === 'lnurl' && source.name !== undefined);

/** The source with the resolver it will ask (names only; other sources as they are). */
export function withResolver<S extends PaymentSource>(source: S, resolver: string): S {
  return looksUpName(source) ? { ...source, resolver } : source;
}

/** Every address the look-up contacts, the first one first: what the person is asked to allow. */
export function contactsOf(source: PaymentSource, server: string): string[] {
  if (source.kind === 'lnurl' && source.name && source.resolver) return [source.resolver, server];
  return [server];
}
