// Headers of everything under /_hushdrop/ and of the page itself. The page runs only its own
// script from this server (no inline script, no eval), sends no referrer, and cannot be framed.

export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  // The download is an address of the page's own service worker, opened in a hidden frame.
  "frame-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A service worker's own CSP: it may only fetch from this server. */
export const WORKER_CSP = "default-src 'none'; connect-src 'self'";

export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export function pageHeaders(): Record<string, string> {
  return {
    ...COMMON_HEADERS,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'X-Robots-Tag': 'noindex, nofollow',
    'Cache-Control': 'no-store',
    Vary: 'Accept-Language',
  };
}
