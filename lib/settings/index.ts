// Settings: their shape, defaults and the migrations between shapes. Pure data, no browser API:
// the storage item that persists them lives in platform/storage/settings.ts.

import type { LinkFormat } from '../crypto/link';
import { formatBytes, t } from '../i18n';
import type { Credentials, ExpireUnit, Mode, UploadOptions, UploadTarget, Variant } from '../upload';
import { filesWithin, fitsLimit, readSizeLimit, type SizeLimit } from '../upload/limit';
import { readExpiryUnits } from '../upload/server-info';
import { defaultNames, type NameSettings, normalizeNames } from './names';

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
  /**
   * Client mode: the format files are encrypted in. `teknik` (AES-CTR, what Teknik servers and
   * their download page open) or `ece`, the authenticated format, for a Hushdrop server, whose
   * recipient page opens it. Test connection tells which kind of server a profile points at.
   */
  format: LinkFormat;
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
  /**
   * True once a Test connection (first-run page or settings) succeeded with these addresses. Until
   * the server used for uploads has passed one, the popup asks to set one up instead of uploading.
   */
  passedTest?: boolean;
  /** The expiry units the server said each variant takes (its info answer); unknown when absent. */
  expiryUnits?: Partial<Record<Variant, ExpireUnit[]>>;
}

export interface Settings {
  profiles: Profile[];
  activeProfileId: string;
  /** BIP 353 names (version 6): the resolver and extra trust anchors. Read through namesOf. */
  names?: NameSettings;
}

/** Version 1 (the first release) had one server and one set of defaults. */
export interface SettingsV1 {
  server: ServerSettings;
  defaults: UploadDefaults;
}

export const SETTINGS_VERSION = 6;

// No server until the person names one (the first-run page): a store build must not send anyone's
// first upload to a loopback address nobody runs. `npm start` and the tests write theirs.
export const DEFAULT_SERVER: ServerSettings = {
  variant: 'current',
  baseUrl: '',
  apiUrl: '',
  uploadUrl: '',
  username: '',
  token: '',
};

// Where `npm run server` puts the bundled server: the default of settings versions 1–4, which
// migration 4 recognises.
const BUNDLED_SERVER_V4 = {
  baseUrl: 'http://127.0.0.1:8787',
  apiUrl: 'http://127.0.0.1:8787/api',
  uploadUrl: 'http://127.0.0.1:8787/u',
};

export const DEFAULT_UPLOAD: UploadDefaults = {
  mode: 'client',
  saveKey: true,
  genDeletionKey: true,
  expireUnit: 'never',
  expireLength: 1,
  doNotTrack: true,
  // A server of unknown kind gets the format every Teknik-API server's download page opens.
  format: 'teknik',
};

export function newProfile(id: string, name: string, server: Partial<ServerSettings> = {}): Profile {
  return { id, name, server: { ...DEFAULT_SERVER, ...server }, defaults: { ...DEFAULT_UPLOAD } };
}

/** Whether `server` is the bundled Hushdrop server where `npm run server` puts it (its addresses unchanged). */
function isBundledServer(server: ServerSettings): boolean {
  return (['baseUrl', 'apiUrl', 'uploadUrl'] as const).every((k) => server[k] === BUNDLED_SERVER_V4[k]);
}

/**
 * What a new installation starts with: one profile with no addresses, not tested, which the
 * first-run page fills in (made when asked for: the name is in the browser's language).
 */
export function defaultSettings(): Settings {
  return { profiles: [newProfile('default', t('profileMine'))], activeProfileId: 'default' };
}

/** The name of a profile for the bundled server on this computer (the one `npm start` writes). */
export function bundledServerName(): string {
  return t('profileLocal');
}

/** Whether uploads wait for a server to be set up: the one used for uploads has not passed a test. */
export function needsSetup(s: Settings): boolean {
  return !activeProfile(s).passedTest;
}

/**
 * `profile` with its server changed by `patch`. A passed test belongs to the addresses and variant
 * it was made with: once one of them changes, the profile counts as not tested again.
 */
export function withServerChange(profile: Profile, patch: Partial<ServerSettings>): Profile {
  const server = { ...profile.server, ...patch };
  const moved = (['variant', 'baseUrl', 'apiUrl', 'uploadUrl'] as const).some(
    (k) => server[k] !== profile.server[k],
  );
  return { ...profile, server, ...(moved ? { passedTest: false } : {}) };
}

/** Ordered migrations: key n turns version n-1 into version n. */
export const MIGRATIONS: Record<number, (old: any) => any> = {
  2: (v1: Partial<SettingsV1> | Settings): Settings =>
    'profiles' in (v1 ?? {}) ? normalizeSettings(v1) : migrateV1(v1 as Partial<SettingsV1>),
  // Version 3: a profile's sizeLimit went from a number of bytes to a SizeLimit (readSizeLimit).
  3: (v2: unknown): Settings => normalizeSettings(v2),
  // Version 4: each profile says its link format. Profiles kept their Teknik format (what their
  // links so far were), except one still pointing at the bundled Hushdrop server, which takes ece.
  4: (v3: unknown): Settings => {
    const s = normalizeSettings(v3);
    for (const p of s.profiles) p.defaults.format = isBundledServer(p.server) ? 'ece' : 'teknik';
    return s;
  },
  // Version 5: no loopback default, and uploads wait for a server that passed a test. Profiles
  // made before were in use already, so each one with its addresses filled in counts as tested
  // (an update must not stop uploads that worked).
  5: (v4: unknown): Settings => {
    const s = normalizeSettings(v4);
    for (const p of s.profiles)
      p.passedTest = (['baseUrl', 'apiUrl', 'uploadUrl'] as const).every((k) => p.server[k] !== '');
    return s;
  },
  // Version 6: BIP 353 names, looked up through the default resolver with the root's anchors only.
  6: (v5: unknown): Settings => ({ ...normalizeSettings(v5), names: defaultNames() }),
};

function migrateV1(v1: Partial<SettingsV1>): Settings {
  return {
    profiles: [
      {
        id: 'default',
        name: t('profileMine'),
        server: { ...DEFAULT_SERVER, ...BUNDLED_SERVER_V4, ...(v1?.server ?? {}) },
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
  if (out.defaults.format !== 'ece') out.defaults.format = 'teknik';
  const sizeLimit = readSizeLimit(p?.sizeLimit);
  if (sizeLimit) out.sizeLimit = sizeLimit;
  if (typeof p?.timeoutSeconds === 'number' && p.timeoutSeconds > 0) out.timeoutSeconds = p.timeoutSeconds;
  if (p?.passedTest === true) out.passedTest = true;
  const units = p?.expiryUnits;
  if (typeof units === 'object' && units !== null) {
    const known: Partial<Record<Variant, ExpireUnit[]>> = {};
    for (const v of ['legacy', 'current'] as const)
      if (Array.isArray(units[v])) known[v] = readExpiryUnits(units[v]);
    out.expiryUnits = known;
  }
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
  return { profiles, activeProfileId, ...(v.names !== undefined ? { names: normalizeNames(v.names) } : {}) };
}

/** The BIP 353 settings, the defaults where none were stored. */
export const namesOf = (s: Settings): NameSettings => s.names ?? defaultNames();

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
    format: d.format,
  };
}

/** The addresses a variant uses: the legacy variant one host, the current variant its API and download hosts. */
export function addressesOf(variant: Variant): ('baseUrl' | 'apiUrl' | 'uploadUrl')[] {
  return variant === 'legacy' ? ['baseUrl'] : ['apiUrl', 'uploadUrl'];
}

/** A server address must be an absolute http(s) URL; returns a sentence when it is not. */
export function checkServerAddress(label: string, value: string): string | undefined {
  if (!value.trim()) return t('addressEmpty', label);
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
