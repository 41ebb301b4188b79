/**
 * Which kind of payment request a piece of text is, by its form alone: cheap enough for the
 * content script and the background, which must not load the decoders. The decoders judge it.
 */

export type TextKind = 'bip21' | 'bolt11' | 'lnurl' | 'bip70' | 'bip353';

/** Longest request text Hushdrop takes (a BOLT 11 invoice fits a QR code, 7,089 characters). */
export const MAX_REQUEST_TEXT = 8_000;

/** `lightning:` and a BOLT 11 prefix (lnbc, lntb, lntbs, lnbcrt), then bech32 data. */
export function looksLikeBolt11(text: string): boolean {
  return /^(lightning:)?ln(bcrt|tbs|bc|tb)[0-9a-z]*1[0-9a-z]+$/i.test(text.trim());
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

/** The kind of request text by its form, or undefined for none Hushdrop reads. */
export function kindOfText(text: string): TextKind | undefined {
  const s = text.trim();
  if (s.length > MAX_REQUEST_TEXT) return undefined;
  if (/^bitcoin:/i.test(s)) return 'bip21';
  if (looksLikeBolt11(s)) return 'bolt11';
  if (looksLikeBip353(s)) return 'bip353';
  if (looksLikeLnurl(s)) return 'lnurl';
  if (/^https?:\/\//i.test(s)) return 'bip70';
  return undefined;
}
