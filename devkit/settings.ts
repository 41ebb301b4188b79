// Settings written the one way every test, the bench and `npm start` use: profiles made by the
// product's own newProfile, stored with the current settings version so no migration runs.
import { newProfile, type Profile, SETTINGS_VERSION, type Settings } from '../lib/settings';

/** Where a reference server listens (the addresses it prints at start). */
export interface ServerAddresses {
  baseUrl: string;
  apiUrl: string;
  uploadUrl: string;
}

/**
 * Settings with one profile, active, pointing at `server` with `variant`; `extra` replaces fields
 * of the profile (a size limit, a silence limit, upload defaults, its id or name). The profile
 * counts as tested (`passedTest`), as the welcome page leaves it: the server is one a test started.
 */
export function serverSettings(
  server: ServerAddresses,
  variant: 'legacy' | 'current',
  extra: Partial<Profile> = {},
): Settings {
  const profile: Profile = {
    ...newProfile('test', 'Test server', {
      variant,
      baseUrl: server.baseUrl,
      apiUrl: server.apiUrl,
      uploadUrl: server.uploadUrl,
    }),
    passedTest: true,
    ...extra,
  };
  return { profiles: [profile], activeProfileId: profile.id };
}

/**
 * The storage.local items that hold `settings`: the value, and the version marker the settings
 * item reads (a marker older than SETTINGS_VERSION would run the migrations over them).
 */
export function settingsItems(settings: Settings): Record<string, unknown> {
  return { settings, settings$: { v: SETTINGS_VERSION } };
}
