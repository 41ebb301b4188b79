import { PAYMENT_REQUEST_MIME } from './forms';

/**
 * How the content script finds payment links on a page at a cost the page cannot inflate: a
 * selector precise enough that ordinary links (and links with an unrelated `type`) never reach
 * script, a cap on the links examined, and a cap on the badge updates a page can cause.
 * `paymentLinkOf` (forms.ts) still decides for each candidate.
 */

/**
 * Anchors that may be payment links: `bitcoin:` URIs of every form, `lightning:` and `lnurlp:`
 * links, the BIP70 MIME type, the BIP70 file suffix.
 */
export const PAYMENT_LINK_SELECTOR = [
  'a[href^="bitcoin:" i]',
  'a[href^="lightning:" i]',
  'a[href^="lnurlp:" i]',
  `a[type^="${PAYMENT_REQUEST_MIME}" i]`,
  'a[href*=".bitcoinpaymentrequest" i]',
].join(', ');

/**
 * Candidate links examined per page. A shop shows a handful; past this the page is marked
 * "999+" and nothing more is examined (a click on any payment link is still handled).
 */
export const LINKS_EXAMINED_CAP = 999;

/** Badge updates one page can cause. */
export const REPORTS_CAP = 20;

/** Links added by the page are looked at in one batch per this many milliseconds. */
export const MUTATION_BATCH_MS = 200;

/** What the content script reports: links found, and whether it stopped looking at the cap. */
export interface LinkCount {
  found: number;
  capped: boolean;
}

/** The toolbar badge for a page's count (empty for none), never longer than "999+". */
export function badgeText(count: LinkCount | undefined): string {
  const found = count?.found;
  const capped = count?.capped;
  if (typeof found !== 'number' || !Number.isInteger(found) || found <= 0) return '';
  // The script never reports more than it may examine; a bigger number is forged.
  if (found > LINKS_EXAMINED_CAP) return `${LINKS_EXAMINED_CAP}+`;
  return capped === true ? `${found}+` : String(found);
}
