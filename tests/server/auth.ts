// Basic auth of the current variant: `Authorization: Basic base64(utf8(username:token))`.

import { timingSafeEqual } from 'node:crypto';
import type { Account } from './types';

export type AuthResult = { ok: true; username?: string } | { ok: false };

export const AUTH_REALM = 'Hushdrop reference server';

/** Constant-time comparison of two secrets. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * No header → anonymous. A header that is not Basic, not base64, not UTF-8, has no colon, or names no
 * account with that token → not ok (the server answers 401; unlike the MVC-era server, which silently
 * fell back to anonymous, so that clients notice wrong credentials).
 */
export function checkBasicAuth(header: string | undefined, accounts: readonly Account[]): AuthResult {
  if (header === undefined) return { ok: true };
  const match = /^\s*Basic\s+([A-Za-z0-9+/]+={0,2})\s*$/i.exec(header);
  if (!match || match[1].length % 4 === 1) return { ok: false };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(match[1], 'base64'));
  } catch {
    return { ok: false };
  }
  const colon = text.indexOf(':');
  if (colon < 0) return { ok: false };
  const username = text.slice(0, colon);
  const token = text.slice(colon + 1);
  const account = accounts.find((a) => a.username === username && sameText(a.token, token));
  return account ? { ok: true, username: account.username } : { ok: false };
}
