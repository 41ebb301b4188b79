// Telling a Hushdrop server from another Teknik-API server: a Hushdrop server answers
// `GET <base>/_hushdrop/info` (server/README.md, typed in hushdrop-api.ts) with `server: "hushdrop"`,
// the link formats it takes and whether it takes uploads in parts. Anything else, including no
// answer, is a server of unknown kind (the Teknik format is safe, and one request).
import { ECE_FORMAT_NAME, type LinkFormat } from '../crypto/link';
import type { InfoAnswer } from './hushdrop-api';
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
  /** It takes uploads in parts (its answer lists `parts`: hushdrop-api.ts). */
  parts: boolean;
}

export const UNKNOWN_SERVER: ServerKind = { hushdrop: false, formats: ['teknik'], parts: false };

/** Reads an info answer (untrusted: any JSON); a hostile or odd one reads as a server of unknown kind. */
export function readServerKind(json: unknown): ServerKind {
  const info = json as Partial<Record<keyof InfoAnswer, unknown>> | null;
  if (typeof info !== 'object' || info === null || info.server !== 'hushdrop') return UNKNOWN_SERVER;
  const listed = Array.isArray(info.linkFormats) ? info.linkFormats : [];
  const parts = info.parts as Partial<Record<string, unknown>> | null | undefined;
  return {
    hushdrop: true,
    formats: listed.includes(ECE_FORMAT_NAME) ? ['teknik', 'ece'] : ['teknik'],
    parts:
      typeof parts === 'object' &&
      parts !== null &&
      Number.isSafeInteger(parts.partBytes) &&
      (parts.partBytes as number) > 0,
  };
}
