import { browser } from 'wxt/browser';

const LOOPBACK = /^https?:\/\/(127\.0\.0\.1|localhost)\//;

/**
 * Asks for access to the given origins (must run in a click handler). Loopback is granted by the
 * manifest already. Resolves false when the person declines.
 *
 * permissions.request is called before anything is awaited: Firefox accepts it only while the
 * click is being handled, and an await (even permissions.contains) ends that. Both browsers
 * answer true at once, with no prompt, for origins already granted.
 */
export function requestOrigins(patterns: string[]): Promise<boolean> {
  const needed = patterns.filter((p) => !LOOPBACK.test(p));
  if (needed.length === 0) return Promise.resolve(true);
  return browser.permissions.request({ origins: needed });
}
