// Opening a Hushdrop link the way the README documents it, with Node's own AES-256-CTR: the key
// from the link's fragment, the IV derived from the key. Written again here (not imported from
// lib/) so that the tests check the documented format, not the code against itself.
import { createDecipheriv, createHash, type Decipher } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';

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

/** Fetches what a link points at and decrypts it with the key in its fragment. */
export async function openLink(link: string): Promise<Buffer> {
  const [url, key] = link.split('#') as [string, string];
  const d = decipherFor(key);
  const cipher = Buffer.from(await (await fetch(url)).arrayBuffer());
  return Buffer.concat([d.update(cipher), d.final()]);
}

/** SHA-256 of a stored ciphertext once decrypted with a link's key, streamed (any size). */
export async function decryptedHash(path: string, key: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path, { highWaterMark: 1024 * 1024 }), decipherFor(key), hash);
  return hash.digest('hex');
}
