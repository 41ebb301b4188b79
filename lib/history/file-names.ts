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
