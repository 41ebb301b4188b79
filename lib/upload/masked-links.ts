// Links with their secrets hidden, for a list on a screen that may be shared (the QR code already
// warns about that): the part after `#` of a share link (the key, or `ece1.` and the secret), and
// the deletion key, the last segment of a deletion link's path. What is hidden is returned as well,
// so a page can draw it as dots without putting the secret in its text.

export interface MaskedLink {
  /** The link up to the secret. */
  before: string;
  /** Whether there is a secret to hide (a link without a key has none). */
  hidden: boolean;
  /** What follows the secret (a deletion link's `?sub=u`). */
  after: string;
}

/** A share link: everything after `#` is the key. */
export function maskShareLink(link: string): MaskedLink {
  const hash = link.indexOf('#');
  if (hash < 0 || hash === link.length - 1) return { before: link, hidden: false, after: '' };
  return { before: link.slice(0, hash + 1), hidden: true, after: '' };
}

/** A deletion link: `…/<fileName>/<deletionKey>` with an optional query (legacy `?sub=u`). */
export function maskDeletionLink(link: string): MaskedLink {
  const query = link.search(/[?#]/);
  const path = query < 0 ? link : link.slice(0, query);
  const slash = path.lastIndexOf('/');
  // No key segment after the address (a malformed link): hide nothing rather than the host.
  if (slash < 0 || slash === path.length - 1 || !/^https?:\/\/[^/]+\/.+\//.test(path))
    return { before: link, hidden: false, after: '' };
  return { before: path.slice(0, slash + 1), hidden: true, after: query < 0 ? '' : link.slice(query) };
}
