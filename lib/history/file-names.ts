// Names for files that arrive without one: a right-clicked image, a fetched link, a pasted text.

/** "2026-11-21T07-41-09": a time stamp that is safe in a file name. */
export function fileStamp(now = new Date()): string {
  return now.toISOString().replace(/[:.]/g, '-').slice(0, 19);
}

/**
 * The last path segment of an http(s) URL, decoded; for data:, blob: or a URL without a path,
 * `<stem>-<stamp>.<extension of the type>`.
 */
export function fileNameFromUrl(url: string, type = '', stem = 'download', now?: Date): string {
  if (/^https?:/i.test(url)) {
    try {
      const last = new URL(url).pathname.split('/').filter(Boolean).pop();
      if (last) return decodeURIComponent(last);
    } catch {
      // a malformed URL or escape: fall back to a made-up name
    }
  }
  const ext = type.split('/')[1]?.split(/[+;]/)[0] || 'bin';
  return `${stem}-${fileStamp(now)}.${ext}`;
}

/**
 * Bidirectional-text controls (LRM, RLM, ALM, the embeddings and overrides U+202A–202E, the
 * isolates U+2066–2069). In a file name they only serve to disguise it: `invoice\u202Efdp.exe`
 * shows as "invoiceexe.pdf".
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** A name as it may be shown or saved: without bidi controls, so it reads in its real order. */
export function displayName(name: string): string {
  return name.replace(BIDI_CONTROLS, '');
}
