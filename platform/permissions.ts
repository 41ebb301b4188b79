import { browser } from 'wxt/browser';

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost)\//;

/**
 * Asks for access to the given origins (must run in a click handler). Loopback is granted by the
 * manifest already. Resolves false when the person declines.
 */
export async function requestOrigins(patterns: string[]): Promise<boolean> {
  const needed = patterns.filter((p) => !LOOPBACK.test(p));
  if (needed.length === 0) return true;
  if (await browser.permissions.contains({ origins: needed })) return true;
  return browser.permissions.request({ origins: needed });
}
