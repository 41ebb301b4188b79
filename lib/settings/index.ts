// Settings: their shape, defaults and the migrations between shapes. Pure data, no browser API:
// the storage item that persists them lives in platform/storage/settings.ts.

import { formatBytes, t } from '../i18n';
import type { Credentials, ExpireUnit, Mode, UploadOptions, UploadTarget, Variant } from '../upload';
import { filesWithin, fitsLimit, readSizeLimit, type SizeLimit } from '../upload/limit';

export interface ServerSettings {
  variant: Variant;
  baseUrl: string;
  apiUrl: string;
  uploadUrl: string;
  username: string;
  token: string;
}

export interface UploadDefaults {
  mode: Mode;
  saveKey: boolean;
  genDeletionKey: boolean;
  expireUnit: ExpireUnit;
  expireLength: number;
  doNotTrack: boolean;
}

/** A server and how uploads to it are made unless the person chooses otherwise. */
export interface Profile {
  id: string;
  name: string;
  server: ServerSettings;
  defaults: UploadDefaults;
  /** What is known of the largest upload the server takes (set by hand or learned from a 413). */
  sizeLimit?: SizeLimit;
  /** Seconds the server may stay silent during an upload before Hushdrop gives up (default 60). */
  timeoutSeconds?: number;
}

export interface Settings {
  profiles: Profile[];
  activeProfileId: string;
}

/** Version 1 (the first release) had one server and one set of defaults. */
export interface SettingsV1 {
  server: ServerSettings;
  defaults: UploadDefaults;
}

export const SETTINGS_VERSION = 3;

// The bundled reference server listens here when started with `npm run server`.
export const DEFAULT_SERVER: ServerSettings = {
  variant: 'current',
  baseUrl: 'http://127.0.0.1:8787',
  apiUrl: 'http://127.0.0.1:8787/api',
  uploadUrl: 'http://127.0.0.1:8787/u',
  username: '',
  token: '',
};

export const DEFAULT_UPLOAD: UploadDefaults = {
  mode: 'client',
  saveKey: true,
  genDeletionKey: true,
  expireUnit: 'never',
  expireLength: 1,
  doNotTrack: true,
};

export function newProfile(id: string, name: string, server: Partial<ServerSettings> = {}): Profile {
  return { id, name, server: { ...DEFAULT_SERVER, ...server }, defaults: { ...DEFAULT_UPLOAD } };
}

/** What a new installation starts with (made when asked for: the name is in the browser's language). */
export function defaultSettings(): Settings {
  return { profiles: [newProfile('default', t('profileLocal'))], activeProfileId: 'default' };
}

/** Ordered migrations: key n turns version n-1 into version n. */
export const MIGRATIONS: Record<number, (old: any) => any> = {
  2: (v1: Partial<SettingsV1> | Settings): Settings =>
    'profiles' in (v1 ?? {}) ? normalizeSettings(v1) : migrateV1(v1 as Partial<SettingsV1>),
  // Version 3: a profile's sizeLimit went from a number of bytes to a SizeLimit (readSizeLimit).
  3: (v2: unknown): Settings => normalizeSettings(v2),
};

function migrateV1(v1: Partial<SettingsV1>): Settings {
  return {
    profiles: [
      {
        id: 'default',
        name: t('profileMine'),
        server: { ...DEFAULT_SERVER, ...(v1?.server ?? {}) },
        defaults: { ...DEFAULT_UPLOAD, ...(v1?.defaults ?? {}) },
      },
    ],
    activeProfileId: 'default',
  };
}

function normalizeProfile(p: any, i: number): Profile {
  const out: Profile = {
    id: typeof p?.id === 'string' && p.id ? p.id : `profile-${i + 1}`,
    name: typeof p?.name === 'string' && p.name.trim() ? p.name : t('serverNumbered', i + 1),
    server: { ...DEFAULT_SERVER, ...(p?.server ?? {}) },
    defaults: { ...DEFAULT_UPLOAD, ...(p?.defaults ?? {}) },
  };
  const sizeLimit = readSizeLimit(p?.sizeLimit);
  if (sizeLimit) out.sizeLimit = sizeLimit;
  if (typeof p?.timeoutSeconds === 'number' && p.timeoutSeconds > 0) out.timeoutSeconds = p.timeoutSeconds;
  return out;
}

/** Makes any stored value usable: fills gaps from the defaults and keeps the active id valid. */
export function normalizeSettings(value: unknown): Settings {
  const v = (value ?? {}) as Partial<Settings>;
  const profiles =
    Array.isArray(v.profiles) && v.profiles.length
      ? v.profiles.map(normalizeProfile)
      : defaultSettings().profiles;
  const activeProfileId = profiles.some((p) => p.id === v.activeProfileId)
    ? v.activeProfileId!
    : profiles[0]!.id;
  return { profiles, activeProfileId };
}

export function activeProfile(s: Settings): Profile {
  return s.profiles.find((p) => p.id === s.activeProfileId) ?? s.profiles[0]!;
}

export function uploadTarget(server: ServerSettings, variant: Variant = server.variant): UploadTarget {
  const credentials: Credentials | undefined =
    variant === 'current' && server.username ? { username: server.username, token: server.token } : undefined;
  return {
    variant,
    addresses: { baseUrl: server.baseUrl, apiUrl: server.apiUrl, uploadUrl: server.uploadUrl },
    credentials,
  };
}

export function uploadOptions(d: UploadDefaults): UploadOptions {
  return {
    mode: d.mode,
    saveKey: d.saveKey,
    genDeletionKey: d.genDeletionKey,
    expireUnit: d.expireUnit,
    expireLength: d.expireLength,
    doNotTrack: d.doNotTrack,
  };
}

/** A server address must be an absolute http(s) URL; returns a sentence when it is not. */
export function checkServerAddress(label: string, value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return t('addressNotHttp', label);
    return undefined;
  } catch {
    return t('addressNotWeb', label);
  }
}

/**
 * The host-permission pattern for an address's site, any port: Firefox's match patterns take no
 * port (one with a port is never granted there), Chromium's cover every port without one.
 */
export function originPattern(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.hostname}/*`;
}

/** The origins a server's addresses live on, as host-permission patterns. */
export function serverOriginPatterns(server: ServerSettings): string[] {
  const out = new Set<string>();
  for (const a of [server.baseUrl, server.apiUrl, server.uploadUrl]) {
    try {
      out.add(originPattern(a));
    } catch {
      // invalid addresses are reported by checkServerAddress
    }
  }
  return [...out];
}

/** The profile whose server serves `url` (same origin as one of its addresses), if any. */
export function profileServing(s: Settings, url: string): Profile | undefined {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return undefined;
  }
  return s.profiles.find((p) =>
    [p.server.baseUrl, p.server.apiUrl, p.server.uploadUrl].some(
      (a) => URL.canParse(a) && new URL(a).origin === origin,
    ),
  );
}

/** A sentence when a file is over the profile's known limit, else undefined. */
export function sizeProblem(profile: Profile, size: number): string | undefined {
  if (profile.sizeLimit === undefined || fitsLimit(profile.sizeLimit, size)) return undefined;
  return t('sizeProblem', formatBytes(size), profile.name, filesWithin(profile.sizeLimit));
}

/** The sentence after a server refused a file for its size, with what that taught. */
export function tooLargeSentence(profile: Profile, learned: SizeLimit): string {
  return t('tooLarge', profile.name, filesWithin(learned));
}

/** The silence an upload to this profile may meet before it fails, in ms (undefined: the default). */
export function silenceMs(profile: Profile): number | undefined {
  return profile.timeoutSeconds ? profile.timeoutSeconds * 1000 : undefined;
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A sentence when the profile's token would travel unencrypted: Basic auth over plain http to a
 * host other than this machine. Undefined when there is no token or the connection is safe.
 */
export function tokenExposure(server: ServerSettings): string | undefined {
  if (server.variant !== 'current' || !server.username || !server.token) return undefined;
  let url: URL;
  try {
    url = new URL(server.apiUrl);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' || LOOPBACK_HOST.test(url.hostname)) return undefined;
  return t('tokenExposure', url.host);
}
