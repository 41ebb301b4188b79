// Do-not-track as real servers honour it: the request header `DNT: 1` (Teknik has ignored the
// `doNotTrack` field since 2016-05). Pages cannot set that header, but an extension can add it
// with declarativeNetRequest. This module turns settings into those rules; platform/upload/dnt.ts
// installs them.
import type { Settings } from './index';

/** The part of a declarativeNetRequest rule these rules use (same shape in Chromium and Firefox). */
export interface DntRule {
  id: number;
  priority: number;
  condition: {
    /** `|<origin>/`: every URL on exactly that origin (scheme, host and port). */
    urlFilter: string;
    /** The extension's own origin host: its pages, offscreen document, worker or background page. */
    initiatorDomains: string[];
    /** fetch and XHR only: never a tab's navigation. */
    resourceTypes: ['xmlhttprequest'];
  };
  action: {
    type: 'modifyHeaders';
    requestHeaders: [{ header: 'DNT'; operation: 'set'; value: '1' }];
  };
}

/** Session rule ids this module owns: DNT_RULE_IDS.first … first + count - 1. */
export const DNT_RULE_IDS = { first: 1000, count: 1000 } as const;

export function isDntRuleId(id: number): boolean {
  return id >= DNT_RULE_IDS.first && id < DNT_RULE_IDS.first + DNT_RULE_IDS.count;
}

function originOf(address: string): string | undefined {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origins that get `DNT: 1`: every address (base, API, download) of every profile that asks
 * not to be tracked. Any profile counts, not only the active one, because the upload page and
 * background jobs can upload to any of them. When two profiles share an origin and disagree,
 * the header is sent: it only asks for less tracking.
 */
export function dntOrigins(settings: Settings): string[] {
  const origins = new Set<string>();
  for (const profile of settings.profiles) {
    if (!profile.defaults.doNotTrack) continue;
    const { baseUrl, apiUrl, uploadUrl } = profile.server;
    for (const address of [baseUrl, apiUrl, uploadUrl]) {
      const origin = originOf(address);
      if (origin) origins.add(origin);
    }
  }
  return [...origins].sort().slice(0, DNT_RULE_IDS.count);
}

/**
 * One rule per origin, matching only fetch/XHR that the extension itself makes (`initiatorDomains`
 * = its own host: measured in Chromium 156 to cover extension pages, the offscreen document and
 * the service worker, and in Firefox 153 the background page; a web page's request to the same
 * server, or a tab navigating there, is not matched).
 */
export function dntRules(settings: Settings, extensionHost: string): DntRule[] {
  return dntOrigins(settings).map((origin, i) => ({
    id: DNT_RULE_IDS.first + i,
    priority: 1,
    condition: {
      urlFilter: `|${origin}/`,
      initiatorDomains: [extensionHost],
      resourceTypes: ['xmlhttprequest'],
    },
    action: { type: 'modifyHeaders', requestHeaders: [{ header: 'DNT', operation: 'set', value: '1' }] },
  }));
}
