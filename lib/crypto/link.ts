/**
 * Share links: `url#key`. Everything after the first `#` is the key, taken verbatim (no URL
 * decoding), as Teknik's download page does.
 */

import { t } from '../i18n';
import { isAlphabetText, KEY_LENGTH } from './text';

/** Key lengths a link may carry: 32 (ours and Teknik's default), 16 or 24 (other server configs). */
export const LINK_KEY_LENGTHS: readonly number[] = [KEY_LENGTH, 16, 24];

export type LinkProblem = 'bad-url' | 'no-key' | 'empty-key' | 'key-characters' | 'key-length';

/** Why a link cannot be used; `message` is a sentence to show as it is. */
export class LinkError extends Error {
  override readonly name = 'LinkError';
  constructor(
    readonly problem: LinkProblem,
    message: string,
  ) {
    super(message);
  }
}

export interface ParsedLink {
  /** The file's address, without the fragment. */
  url: string;
  key: string;
}

function checkUrl(url: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new LinkError('bad-url', t('linkNotWeb'));
  }
}

function checkKey(key: string): void {
  if (key === '') {
    throw new LinkError('empty-key', t('linkEmptyKey'));
  }
  if (!isAlphabetText(key)) {
    throw new LinkError('key-characters', t('linkKeyCharacters'));
  }
  if (!LINK_KEY_LENGTHS.includes(key.length)) {
    throw new LinkError('key-length', t('linkKeyLength', key.length, KEY_LENGTH));
  }
}

/** Reads a share link; throws LinkError with a plain sentence when it cannot be used. */
export function parseLink(text: string): ParsedLink {
  const trimmed = text.trim();
  const hash = trimmed.indexOf('#');
  const url = hash < 0 ? trimmed : trimmed.slice(0, hash);
  checkUrl(url);
  if (hash < 0) {
    throw new LinkError('no-key', t('linkNoKey'));
  }
  const key = trimmed.slice(hash + 1);
  checkKey(key);
  return { url, key };
}

/**
 * The share link for a file and its key. A fragment already on `url` (a server-made key) is
 * replaced: the link must carry the key that decrypts the file.
 */
export function makeLink(url: string, key: string): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  checkUrl(base);
  checkKey(key);
  return `${base}#${key}`;
}
