// The name and type a decrypted file is saved under. Both come from the server's page, so they are
// cleaned as untrusted text before they reach a header.

/** Bidirectional-text controls, path separators and control characters. */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069/\\]/gu;

/** A name that saves as what it says: no bidi tricks, no folders, never empty or a dot name. */
export function saveName(name: string): string {
  const cleaned = name.replace(UNSAFE, '').trim().slice(0, 200);
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'download' : cleaned;
}

/** `Content-Disposition` for a download: an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(name: string): string {
  const safe = saveName(name);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_').replace(/["%]/g, '_');
  const encoded = encodeURIComponent(safe).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A MIME type fit for a header, or the neutral one. */
export function saveType(type: string): string {
  return /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/.test(type) ? type : 'application/octet-stream';
}
