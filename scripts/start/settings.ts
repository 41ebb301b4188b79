// The server profile `npm start` makes sure of: the extension's own default already points at
// http://127.0.0.1:8787, so only another port (PORT) needs a profile of its own. The person's other
// profiles and choices are kept.
import { readFileSync } from 'node:fs';
import { connectMessages, fillMessage, t } from '../../lib/i18n';
import {
  DEFAULT_SERVER,
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

/** Whether the extension's built-in default profile already reaches these addresses. */
export function defaultReaches(a: Addresses): boolean {
  return (
    a.baseUrl === DEFAULT_SERVER.baseUrl &&
    a.apiUrl === DEFAULT_SERVER.apiUrl &&
    a.uploadUrl === DEFAULT_SERVER.uploadUrl
  );
}

/** The profile name, in English (the language of the terminal this runs in). */
function startProfileName(): string {
  const en: Record<string, { message: string }> = JSON.parse(
    readFileSync(new URL('../../public/_locales/en/messages.json', import.meta.url), 'utf8'),
  );
  connectMessages((key, subs) => (en[key] ? fillMessage(en[key].message, subs) : ''), 'en');
  return t('profileLocal');
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
    };
  return settings;
}
