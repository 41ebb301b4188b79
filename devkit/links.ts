// Opening a Hushdrop link the way the README documents it, with Node's own AES-256-CTR: the key
// from the link's fragment, the IV derived from the key. Written again here (not imported from
// lib/) so that the tests check the documented format, not the code against itself.
import { createDecipheriv, createHash, type Decipher } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eceDecryptBytes } from '../lib/crypto/ece-stream';
import { parseShareLink } from '../lib/crypto/link';
import { storedBytes } from './stored-bytes';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The documented IV rule: the first 16 bytes of SHA-256 of the key, each mapped into the alphabet. */
export function ivFromKey(key: string): string {
  const h = createHash('sha256').update(key, 'utf8').digest();
  return [...h.subarray(0, 16)].map((b) => ALPHABET[b % 62]).join('');
}

/** Node's own AES-256-CTR for a link's key, with the key-derived IV. */
export function decipherFor(key: string): Decipher {
  return createDecipheriv('aes-256-ctr', Buffer.from(key, 'utf8'), Buffer.from(ivFromKey(key), 'utf8'));
}

/**
 * Fetches what a link points at (as a program does: README, "Recipients") and decrypts it with its
 * key. A link in the authenticated format (the bundled server's default) is opened with lib's codec,
 * which tests/crypto checks against an independent Node implementation.
 */
export async function openLink(link: string): Promise<Buffer> {
  const cipher = (await storedBytes(link)).bytes;
  const parsed = parseShareLink(link);
  if (parsed.format === 'ece') return Buffer.from(await eceDecryptBytes(cipher, parsed.secret));
  const d = decipherFor(parsed.key);
  return Buffer.concat([d.update(cipher), d.final()]);
}

/** SHA-256 of a stored ciphertext (a file's path, or a stream) once decrypted with a link's key, streamed (any size). */
export async function decryptedHash(source: string | Readable, key: string): Promise<string> {
  const hash = createHash('sha256');
  const input =
    typeof source === 'string' ? createReadStream(source, { highWaterMark: 1024 * 1024 }) : source;
  await pipeline(input, decipherFor(key), hash);
  return hash.digest('hex');
}
