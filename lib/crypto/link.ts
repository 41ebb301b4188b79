/**
 * Share links, in two formats that one parser tells apart by the fragment (everything after the
 * first `#`, taken verbatim, no URL decoding, as Teknik's download page does):
 * - Teknik: `url#<key>`, the key being 16, 24 or 32 letters and digits (AES-CTR, no MAC).
 * - Authenticated (ece): `url#ece1.<secret>`, the secret being 16 bytes in base64url without
 *   padding (22 characters). A Teknik key has no `.`, so no fragment is both.
 */
import { base64urlnopad } from '@scure/base';
import { t } from '../i18n';
import { checkSecret, ECE_SECRET_BYTES } from './ece';
import { isAlphabetText, KEY_LENGTH } from './text';

/** Which cipher a link's file is in: Teknik's AES-CTR, or the authenticated format (RFC 8188). */
export type LinkFormat = 'teknik' | 'ece';

/** The authenticated format's name and version, as links and uploads name it. */
export const ECE_FORMAT_NAME = 'ece1';
/** How an authenticated link's fragment begins. */
export const ECE_LINK_PREFIX = `${ECE_FORMAT_NAME}.`;
/** Characters of the secret's base64url text. */
export const ECE_SECRET_CHARS = Math.ceil((ECE_SECRET_BYTES * 8) / 6);
/** A fragment in the form of a versioned format name (`ece1.`, `ece2.`…), known or not. */
const VERSIONED = /^ece\d+\./;

/** Key lengths a link may carry: 32 (ours and Teknik's default), 16 or 24 (other server configs). */
export const LINK_KEY_LENGTHS: readonly number[] = [KEY_LENGTH, 16, 24];

export type LinkProblem =
  | 'bad-url'
  | 'no-key'
  | 'empty-key'
  | 'key-characters'
  | 'key-length'
  /** An authenticated link whose secret is not 22 base64url characters of 16 bytes. */
  | 'secret'
  /** A versioned format this version does not know (`ece2.…`). */
  | 'unknown-format'
  /** An authenticated link given to an opener of Teknik links only. */
  | 'format-not-here';

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

export interface TeknikLink {
  format: 'teknik';
  /** The file's address, without the fragment. */
  url: string;
  key: string;
}

export interface EceLink {
  format: 'ece';
  /** The file's address, without the fragment. */
  url: string;
  /** The 16-byte secret the file's key and nonces are derived from. */
  secret: Uint8Array;
}

export type ParsedLink = TeknikLink | EceLink;

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

/** The secret of an `ece1.` fragment; LinkError unless it is exactly 16 bytes in canonical base64url. */
function readSecret(text: string): Uint8Array {
  let secret: Uint8Array | undefined;
  try {
    secret = text.length === ECE_SECRET_CHARS ? base64urlnopad.decode(text) : undefined;
  } catch {
    secret = undefined;
  }
  if (secret?.length !== ECE_SECRET_BYTES)
    throw new LinkError('secret', t('linkSecretShape', ECE_SECRET_CHARS));
  return secret;
}

/** Reads a share link of either format; throws LinkError with a plain sentence when it cannot be used. */
export function parseShareLink(text: string): ParsedLink {
  const trimmed = text.trim();
  const hash = trimmed.indexOf('#');
  const url = hash < 0 ? trimmed : trimmed.slice(0, hash);
  checkUrl(url);
  if (hash < 0) {
    throw new LinkError('no-key', t('linkNoKey'));
  }
  const fragment = trimmed.slice(hash + 1);
  if (fragment.startsWith(ECE_LINK_PREFIX))
    return { format: 'ece', url, secret: readSecret(fragment.slice(ECE_LINK_PREFIX.length)) };
  if (VERSIONED.test(fragment)) throw new LinkError('unknown-format', t('linkFormatUnknown'));
  checkKey(fragment);
  return { format: 'teknik', url, key: fragment };
}

/**
 * Reads a Teknik link, for openers that know only that format: an authenticated link is refused
 * with a sentence rather than decrypted the wrong way.
 */
export function parseLink(text: string): TeknikLink {
  const link = parseShareLink(text);
  if (link.format !== 'teknik') throw new LinkError('format-not-here', t('linkFormatNotHere'));
  return link;
}

/**
 * The share link for a file and its key. A fragment already on `url` (a server-made key) is
 * replaced: the link must carry the key that decrypts the file.
 */
export function makeLink(url: string, key: string): string {
  const base = linkBase(url);
  checkKey(key);
  return `${base}#${key}`;
}

/** `url` without its fragment, checked to be a web address. */
function linkBase(url: string): string {
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  checkUrl(base);
  return base;
}

/** The fragment of an authenticated link: `ece1.` and the secret in base64url. */
export function eceFragment(secret: Uint8Array): string {
  checkSecret(secret);
  return ECE_LINK_PREFIX + base64urlnopad.encode(secret);
}

/** The authenticated share link for a file and its secret (a fragment already on `url` is replaced). */
export function makeEceLink(url: string, secret: Uint8Array): string {
  return `${linkBase(url)}#${eceFragment(secret)}`;
}
