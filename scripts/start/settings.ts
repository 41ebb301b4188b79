// The server profile `npm start` makes sure of: the extension ships no server (a new installation
// asks for one on its welcome page), so npm start writes a profile for the server it started. The
// person's other profiles and choices are kept.
import { readFileSync } from 'node:fs';
import { connectMessages, fillMessage } from '../../lib/i18n';
import {
  bundledServerName,
  MIGRATIONS,
  newProfile,
  normalizeSettings,
  SETTINGS_VERSION,
  type Settings,
} from '../../lib/settings';

export const START_PROFILE_ID = 'npm-start';

export interface Addresses {
  baseUrl: string;
  apiUrl: string;
  uploadUrl: string;
}

/** The profile name, in English (the language of the terminal this runs in). */
function startProfileName(): string {
  const en: Record<string, { message: string }> = JSON.parse(
    readFileSync(new URL('../../public/_locales/en/messages.json', import.meta.url), 'utf8'),
  );
  connectMessages((key, subs) => (en[key] ? fillMessage(en[key].message, subs) : ''), 'en');
  return bundledServerName();
}

/**
 * The settings to store (at SETTINGS_VERSION): `stored` (undefined on a fresh profile; at `version`,
 * migrated here as the extension would) with the npm-start profile set to `addresses`. A fresh
 * profile gets it as its only, active profile; otherwise the active one stays.
 */
export function withStartProfile(
  stored: unknown,
  version: number | undefined,
  addresses: Addresses,
): Settings {
  const profile = newProfile(START_PROFILE_ID, startProfileName(), { variant: 'current', ...addresses });
  // npm start has just started this server and read its addresses from it: it counts as tested, so
  // the popup uploads at once. It is a Hushdrop server, whose recipient page opens the
  // authenticated format.
  profile.passedTest = true;
  profile.defaults.format = 'ece';
  if (stored === undefined || stored === null)
    return { profiles: [profile], activeProfileId: START_PROFILE_ID };
  let value = stored;
  for (let v = (version ?? 1) + 1; v <= SETTINGS_VERSION; v++) value = MIGRATIONS[v]!(value);
  const settings = normalizeSettings(value);
  const at = settings.profiles.findIndex((p) => p.id === START_PROFILE_ID);
  if (at < 0) settings.profiles.push(profile);
  else
    settings.profiles[at] = {
      ...settings.profiles[at]!,
      server: { ...settings.profiles[at]!.server, ...addresses },
      passedTest: true,
    };
  return settings;
}
