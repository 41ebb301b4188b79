// The first-run page's rules, without the page: the server settings one typed address leads to
// (from the server's info answer, or from the variant the person chose), and where the server
// that passed its test goes in the settings.
import type { Variant } from '../upload';
import type { ServerInfo } from '../upload/server-info';
import { DEFAULT_SERVER, DEFAULT_UPLOAD, type Profile, type ServerSettings, type Settings } from './index';

export interface Account {
  username: string;
  token: string;
}

/** The server settings for the variant the info answer named (its addresses, all on the typed origin). */
export function serverFromInfo(info: ServerInfo, variant: Variant, account?: Account): ServerSettings {
  const origin = (info.legacy?.baseUrl ?? info.current?.apiUrl)!;
  const base = info.legacy?.baseUrl ?? new URL(origin).origin;
  return {
    ...DEFAULT_SERVER,
    variant,
    baseUrl: base,
    apiUrl: info.current?.apiUrl ?? base,
    uploadUrl: info.current?.uploadUrl ?? base,
    ...(variant === 'current' && account ? account : {}),
  };
}

/**
 * The server settings for a server that does not describe itself: the typed address is the
 * legacy variant's one address; the current variant's two are asked for (Advanced).
 */
export function serverByHand(
  typed: string,
  variant: Variant,
  current: { apiUrl: string; uploadUrl: string },
  account?: Account,
): ServerSettings {
  const base = typed.trim().replace(/\/+$/, '');
  return variant === 'legacy'
    ? { ...DEFAULT_SERVER, variant, baseUrl: base, apiUrl: base, uploadUrl: base }
    : { ...DEFAULT_SERVER, variant, baseUrl: base, ...current, ...(account ?? {}) };
}

/** The profile for a server that passed its test, named after its host. */
export function setUpProfile(id: string, typed: string, server: ServerSettings, info?: ServerInfo): Profile {
  const profile: Profile = {
    id,
    name: new URL(typed.trim()).host,
    server,
    defaults: { ...DEFAULT_UPLOAD, format: info?.formats.includes('ece') ? 'ece' : 'teknik' },
    passedTest: true,
  };
  if (info) {
    profile.expiryUnits = {};
    if (info.legacy) profile.expiryUnits.legacy = info.legacy.expiry;
    if (info.current) profile.expiryUnits.current = info.current.expiry;
    if (info.maxUploadBytes) profile.sizeLimit = { bytes: info.maxUploadBytes, kind: 'at-most' };
  }
  return profile;
}

/**
 * The settings with `profile` used for uploads: it takes the place of a profile that never passed
 * a test (the empty one a new installation starts with), else it is added beside the others.
 */
export function withSetUpProfile(s: Settings, profile: Profile): Settings {
  const untested = s.profiles.findIndex((p) => p.id === s.activeProfileId && !p.passedTest);
  const placed = untested >= 0 ? { ...profile, id: s.profiles[untested]!.id } : profile;
  const profiles =
    untested >= 0 ? s.profiles.map((p, i) => (i === untested ? placed : p)) : [...s.profiles, placed];
  return { profiles, activeProfileId: placed.id };
}
