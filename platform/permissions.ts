import { browser } from 'wxt/browser';
import { type GrantedHost, revocableHosts } from '../lib/granted-hosts';

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

/** The manifest's own host grants, which cannot be taken back (MV3: host_permissions; MV2: in permissions). */
function manifestHosts(): string[] {
  const m = browser.runtime.getManifest() as { host_permissions?: string[]; permissions?: string[] };
  return [...(m.host_permissions ?? []), ...(m.permissions ?? [])];
}

/** The sites the person allowed beyond the manifest, for the options page to list. */
export async function grantedHosts(): Promise<GrantedHost[]> {
  const { origins = [] } = await browser.permissions.getAll();
  return revocableHosts(origins, manifestHosts());
}

/** Takes back one site's grant; true when the browser removed it. */
export function revokeHost(host: GrantedHost): Promise<boolean> {
  return browser.permissions.remove({ origins: host.patterns });
}
