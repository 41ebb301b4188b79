// Comparing a secret a request carries (a bearer token) without telling by time how much of it was right.
import { createHash, timingSafeEqual } from 'node:crypto';

export function sameSecret(given: string, expected: string): boolean {
  // Hashes first: equal lengths for timingSafeEqual, and the length of the secret stays unknown too.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
