// Which cipher a link's fragment asks for, and the stream that undoes it. The recipient page and
// its service worker both choose here, so a second link format (the authenticated one) is one more
// entry in FORMATS: its fragment says which it is, and everything around the decoder stays as is.
import { createCipher } from '../../../lib/crypto/cipher';
import { LinkError, parseLink } from '../../../lib/crypto/link';
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

interface Format {
  name: string;
  /** Whether a fragment is in this format (its shape alone; no secret is checked here). */
  claims(fragment: string): boolean;
  decoder(fragment: string, facts: StoredFacts): Decoder;
}

/**
 * Teknik's format (README, "The link format"): the fragment is the key itself, AES-CTR over the
 * whole file, no header. The IV is the one the server stored (for a Hushdrop upload it is also
 * derived from the key; Teknik's own uploads and server-made keys have random ones).
 */
const teknikCtr: Format = {
  name: 'teknik-ctr',
  claims: (fragment) => /^[A-Za-z0-9]+$/.test(fragment),
  decoder: (key, facts) => ({
    format: 'teknik-ctr',
    plainSize: facts.size,
    async open(stored) {
      return cryptStream(stored, await createCipher(key, facts.iv));
    },
  }),
};

const FORMATS: readonly Format[] = [teknikCtr];

/** The fragment of an address (everything after the first `#`, as Teknik's page read it). */
export function fragmentOf(href: string): string | undefined {
  const hash = href.indexOf('#');
  return hash < 0 ? undefined : href.slice(hash + 1);
}

/**
 * The decoder a link needs. Throws LinkError (a sentence for a person) when the link has no key or
 * one no format accepts; the Teknik format's rules (characters, length) give its messages.
 */
export function chooseDecoder(href: string, facts: StoredFacts): Decoder {
  const fragment = fragmentOf(href) ?? '';
  const format = FORMATS.find((f) => f.claims(fragment));
  if (format === teknikCtr || !format) {
    // Its checks give the sentence for a missing, empty or malformed key.
    const { key } = parseLink(href);
    return teknikCtr.decoder(key, facts);
  }
  return format.decoder(fragment, facts);
}

export { LinkError };
