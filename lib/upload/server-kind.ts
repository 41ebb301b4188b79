// Telling a Hushdrop server from another Teknik-API server: a Hushdrop server answers
// `GET <base>/_hushdrop/info` (server/README.md) with `server: "hushdrop"` and the link formats it
// takes. Anything else, including no answer, is a server of unknown kind (the Teknik format is safe).
import { ECE_FORMAT_NAME, type LinkFormat } from '../crypto/link';
import type { ServerAddresses, Variant } from './types';

/** The addresses to ask, in order: the base address, then the origin of the variant's API address. */
export function serverInfoUrls(addresses: ServerAddresses, variant: Variant): string[] {
  const out = new Set<string>();
  for (const base of [addresses.baseUrl, variant === 'current' ? addresses.apiUrl : addresses.baseUrl]) {
    try {
      const url = new URL(base);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
      out.add(new URL('_hushdrop/info', url.href.endsWith('/') ? url.href : `${url.href}/`).href);
      out.add(new URL('/_hushdrop/info', url).href);
    } catch {
      // an unusable address is reported by the settings checks
    }
  }
  return [...out];
}

export interface ServerKind {
  hushdrop: boolean;
  /** Client-encrypted formats the server says it takes (always Teknik's). */
  formats: LinkFormat[];
}

export const UNKNOWN_SERVER: ServerKind = { hushdrop: false, formats: ['teknik'] };

/** Reads an info answer; a hostile or odd one reads as a server of unknown kind. */
export function readServerKind(json: unknown): ServerKind {
  const info = json as { server?: unknown; linkFormats?: unknown } | null;
  if (typeof info !== 'object' || info === null || info.server !== 'hushdrop') return UNKNOWN_SERVER;
  const listed = Array.isArray(info.linkFormats) ? info.linkFormats : [];
  return { hushdrop: true, formats: listed.includes(ECE_FORMAT_NAME) ? ['teknik', 'ece'] : ['teknik'] };
}
