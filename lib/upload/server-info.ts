// What a Hushdrop server says of itself at `GET <origin>/_hushdrop/info` (server/api/info.ts, typed for
// both in hushdrop-api.ts), read for the first-run page: from the one address a person typed, the
// variants and addresses to use.
// The answer is untrusted: anything of the wrong type, too long, not http(s), or on another origin
// than the one typed is dropped, so a hostile answer can at worst name nothing usable.
import { ECE_FORMAT_NAME, type LinkFormat } from '../crypto/link';
import type { CurrentVariantInfo, InfoAnswer, LegacyVariantInfo } from './hushdrop-api';
import type { ExpireUnit, Variant } from './types';

/** Longer addresses are not addresses a person would type; refusing them bounds what is stored. */
const MAX_URL_LENGTH = 2048;
/** More entries than there are expiry units means a confused or hostile answer. */
const MAX_LIST = 16;

/** Who may upload through a variant: anyone, or only with an account. */
export type Uploads = 'open' | 'accounts' | 'closed';

export interface LegacyInfo {
  baseUrl: string;
  uploads: Uploads;
  expiry: ExpireUnit[];
}

export interface CurrentInfo {
  apiUrl: string;
  uploadUrl: string;
  uploads: Uploads;
  expiry: ExpireUnit[];
}

export interface ServerInfo {
  formats: LinkFormat[];
  legacy?: LegacyInfo;
  current?: CurrentInfo;
  /** The largest upload the server takes, when it says. */
  maxUploadBytes?: number;
  /** Addresses the answer named on another origin than the one typed (to say why they were not used). */
  foreign: string[];
}

// The seed's spelling, and the real Teknik server's (`expirationUnit`), both read as the seed's.
const UNIT_NAMES: Record<string, ExpireUnit> = {
  never: 'never',
  view: 'view',
  views: 'view',
  minute: 'minute',
  minutes: 'minute',
  hour: 'hour',
  hours: 'hour',
  day: 'day',
  days: 'day',
  month: 'month',
  months: 'month',
  year: 'year',
  years: 'year',
};

/** The units of the list that are known expiry units, each once, in the list's order. */
export function readExpiryUnits(value: unknown): ExpireUnit[] {
  if (!Array.isArray(value) || value.length > MAX_LIST) return [];
  const out: ExpireUnit[] = [];
  for (const item of value) {
    if (typeof item !== 'string' || item.length > 16) continue;
    const unit = Object.hasOwn(UNIT_NAMES, item.toLowerCase()) ? UNIT_NAMES[item.toLowerCase()] : undefined;
    if (unit && !out.includes(unit)) out.push(unit);
  }
  return out;
}

/** The origin of an address a person typed (http or https), or undefined. */
export function typedOrigin(typed: string): string | undefined {
  const text = typed.trim();
  if (text.length > MAX_URL_LENGTH || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

type Address = { ok: string } | { foreign: string } | undefined;

/**
 * An address of the answer, usable only when it is an http(s) URL on `origin`, without credentials,
 * query or fragment; returned without a trailing slash (the form the settings keep).
 */
function readAddress(value: unknown, origin: string): Address {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password || url.search || url.hash) return undefined;
  if (url.origin !== origin) return { foreign: url.origin };
  return { ok: url.href.replace(/\/+$/, '') };
}

function readUploads(value: unknown, allowed: Uploads[]): Uploads {
  return allowed.includes(value as Uploads) ? (value as Uploads) : 'closed';
}

/** An object of the answer, its fields untrusted: only the names are the shared type's. */
function objectOf<T>(value: unknown): Partial<Record<keyof T, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Partial<Record<keyof T, unknown>>)
    : undefined;
}

/**
 * Reads an info answer for the address a person typed. Undefined when it is not a Hushdrop
 * server's answer (then the person is asked for the variant). A variant whose addresses are
 * unusable is left out.
 */
export function readServerInfo(json: unknown, typed: string): ServerInfo | undefined {
  const origin = typedOrigin(typed);
  const info = objectOf<InfoAnswer>(json);
  if (!origin || !info || info.server !== 'hushdrop') return undefined;
  const variants = objectOf<InfoAnswer['variants']>(info.variants) ?? {};
  const foreign = new Set<string>();
  const out: ServerInfo = {
    formats:
      Array.isArray(info.linkFormats) &&
      info.linkFormats.length <= MAX_LIST &&
      info.linkFormats.includes(ECE_FORMAT_NAME)
        ? ['teknik', 'ece']
        : ['teknik'],
    foreign: [],
  };
  const take = (value: unknown): string | undefined => {
    const a = readAddress(value, origin);
    if (a && 'foreign' in a) foreign.add(a.foreign);
    return a && 'ok' in a ? a.ok : undefined;
  };

  const legacy = objectOf<LegacyVariantInfo>(variants.legacy);
  const baseUrl = legacy && take(legacy.base_url);
  if (legacy && baseUrl)
    out.legacy = {
      baseUrl,
      uploads: readUploads(legacy.uploads, ['open', 'closed']),
      expiry: readExpiryUnits(legacy.expiry),
    };

  const current = objectOf<CurrentVariantInfo>(variants.current);
  const apiUrl = current && take(current.api_url);
  const uploadUrl = current && take(current.upload_url);
  if (current && apiUrl && uploadUrl)
    out.current = {
      apiUrl,
      uploadUrl,
      uploads: readUploads(current.uploads, ['open', 'accounts', 'closed']),
      expiry: readExpiryUnits(current.expiry),
    };

  const max = info.maxUploadBytes;
  if (typeof max === 'number' && Number.isSafeInteger(max) && max > 0) out.maxUploadBytes = max;
  out.foreign = [...foreign].sort();
  return out;
}

/**
 * The variant to upload with: one open to anyone (the current variant first, as it is the one the
 * Teknik API kept), else one that takes an account; undefined when the server takes no uploads.
 */
export function chooseVariant(info: ServerInfo): Variant | undefined {
  const order: Variant[] = ['current', 'legacy'];
  return order.find((v) => info[v]?.uploads === 'open') ?? order.find((v) => info[v]?.uploads === 'accounts');
}
