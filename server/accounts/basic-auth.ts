// Basic auth of the current variant: `Authorization: Basic base64(utf8(username:token))`.

export const AUTH_REALM = 'Hushdrop reference server';

export type BasicCredentials =
  | { kind: 'none' }
  /** Present but unusable: not Basic, not base64, not UTF-8, or no colon. */
  | { kind: 'bad' }
  | { kind: 'credentials'; username: string; token: string };

/** Reads the header; the token is everything after the first colon (it may contain colons). */
export function parseBasicAuth(header: string | undefined): BasicCredentials {
  if (header === undefined) return { kind: 'none' };
  const match = /^\s*Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!match || match[1]!.length % 4 === 1) return { kind: 'bad' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(match[1]!, 'base64'));
  } catch {
    return { kind: 'bad' };
  }
  const colon = text.indexOf(':');
  if (colon < 0) return { kind: 'bad' };
  return { kind: 'credentials', username: text.slice(0, colon), token: text.slice(colon + 1) };
}
