// Which sites the person has allowed Hushdrop to reach, beyond what the manifest grants: the
// options page lists them so each can be taken back. Patterns come from permissions.getAll()
// and the manifest; nothing here touches the browser.

export interface GrantedHost {
  /** The site as a person reads it: its host name (with a wildcard when the pattern has one). */
  host: string;
  /** Every pattern granted for that host (http and https are two), all removed together. */
  patterns: string[];
}

/** The host of a match pattern such as `https://example.com/*`; undefined for `<all_urls>` and the like. */
function hostOf(pattern: string): string | undefined {
  return /^(?:\*|https?|wss?):\/\/([^/]+)\//.exec(pattern)?.[1];
}

/**
 * The grants a person can revoke: `granted` minus the manifest's own (which cannot be removed),
 * grouped by host and sorted by name. Patterns that name no host (`<all_urls>`) are left out.
 */
export function revocableHosts(granted: readonly string[], manifest: readonly string[]): GrantedHost[] {
  const fixed = new Set(manifest);
  const byHost = new Map<string, string[]>();
  for (const pattern of granted) {
    if (fixed.has(pattern)) continue;
    const host = hostOf(pattern);
    if (host === undefined) continue;
    byHost.set(host, [...(byHost.get(host) ?? []), pattern]);
  }
  return [...byHost]
    .map(([host, patterns]) => ({ host, patterns }))
    .sort((a, b) => a.host.localeCompare(b.host));
}
