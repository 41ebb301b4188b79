// Which cipher a link's fragment asks for, and the stream that undoes it. The recipient page and
// its service worker both choose here: the fragment says which format it is (README, "The link
// format" and "The authenticated format").
import { createCipher } from '../../../lib/crypto/cipher';
import { ecePlaintextSize } from '../../../lib/crypto/ece';
import { eceDecryptStream } from '../../../lib/crypto/ece-stream';
import { LinkIntegrityError } from '../../../lib/crypto/integrity';
import { LinkError, parseShareLink } from '../../../lib/crypto/link';
import { cryptStream } from '../../../lib/crypto/stream';

/** What the page knows of the stored file besides the link. */
export interface StoredFacts {
  /** The IV the server stored with the upload (the Teknik format's counter start). */
  iv: string;
  /** Bytes stored. */
  size: number;
}

export interface Decoder {
  /** The format's name, for logs and tests. */
  format: string;
  /** Bytes the decoded file will have. */
  plainSize: number;
  /** The stored bytes in, the file out, as they are read (memory stays bounded). */
  open(stored: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>>;
}

/**
 * Teknik's format (README, "The link format"): the fragment is the key itself, AES-CTR over the
 * whole file, no header. The IV is the one the server stored (for a Hushdrop upload it is also
 * derived from the key; Teknik's own uploads and server-made keys have random ones).
 */
function teknikCtr(key: string, facts: StoredFacts): Decoder {
  return {
    format: 'teknik-ctr',
    plainSize: facts.size,
    async open(stored) {
      return cryptStream(stored, await createCipher(key, facts.iv));
    },
  };
}

/**
 * The authenticated format: `ece1.<secret>`. Every record is checked before its bytes go out, and
 * the end is checked too, so a changed, cut or extended file ends the stream with a
 * LinkIntegrityError. A stored size no file of this format can have is refused before any fetch.
 */
function ece(secret: Uint8Array, facts: StoredFacts): Decoder {
  const plainSize = ecePlaintextSize(facts.size);
  if (plainSize === undefined) throw new LinkIntegrityError('header');
  return {
    format: 'ece1',
    plainSize,
    async open(stored) {
      return eceDecryptStream(stored, secret);
    },
  };
}

/** The fragment of an address (everything after the first `#`, as Teknik's page read it). */
export function fragmentOf(href: string): string | undefined {
  const hash = href.indexOf('#');
  return hash < 0 ? undefined : href.slice(hash + 1);
}

/**
 * The decoder a link needs. Throws LinkError (a sentence for a person) when the link has no key or
 * one no format accepts, and LinkIntegrityError when the stored size cannot be the format's.
 */
export function chooseDecoder(href: string, facts: StoredFacts): Decoder {
  const link = parseShareLink(href);
  return link.format === 'ece' ? ece(link.secret, facts) : teknikCtr(link.key, facts);
}

export { LinkError, LinkIntegrityError };
