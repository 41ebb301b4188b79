// API tokens are stored only as scrypt hashes: `scrypt$N$r$p$<salt>$<hash>` (salt and hash base64url).
// Tokens the server makes are 40 random alphanumerics (about 238 bits), but an operator may set their own,
// so a slow, salted hash protects a leaked accounts file either way.

import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { randomText } from '../../lib/crypto/text';

const TOKEN_LENGTH = 40;
const HASH_BYTES = 32;
const SALT_BYTES = 16;
const DEFAULTS = { N: 16384, r: 8, p: 1 };
const FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/;

export class TokenHashError extends Error {
  override readonly name = 'TokenHashError';
}

/** A fresh token to hand to a person (shown once, never stored). */
export function newToken(): string {
  return randomText(TOKEN_LENGTH);
}

function derive(token: string, salt: Buffer, params: ScryptOptions, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // maxmem: scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is just enough for the defaults.
    scrypt(token.normalize('NFC'), salt, length, { ...params, maxmem: 256 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashToken(token: string): Promise<string> {
  if (token === '') throw new TokenHashError('A token cannot be empty.');
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(token, salt, DEFAULTS, HASH_BYTES);
  const { N, r, p } = DEFAULTS;
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Throws TokenHashError with a sentence when `stored` is not a hash this server can check. */
export function checkTokenHash(stored: string): void {
  const m = FORMAT.exec(stored);
  if (!m)
    throw new TokenHashError(
      'A token hash must look like scrypt$16384$8$1$<salt>$<hash> (make one with `npm run server -- hash-token`).',
    );
  const N = Number(m[1]);
  if (!(N > 1 && (N & (N - 1)) === 0 && N <= 2 ** 20) || Number(m[2]) > 32 || Number(m[3]) > 16)
    throw new TokenHashError('A token hash has scrypt parameters out of range.');
}

export async function verifyToken(token: string, stored: string): Promise<boolean> {
  checkTokenHash(stored);
  const [, n, r, p, salt, hash] = FORMAT.exec(stored)!;
  const expected = Buffer.from(hash!, 'base64url');
  const actual = await derive(
    token,
    Buffer.from(salt!, 'base64url'),
    { N: Number(n), r: Number(r), p: Number(p) },
    expected.length,
  );
  return timingSafeEqual(actual, expected);
}
