// The one settings item, kept in local storage (never sync: tokens) with versioned migrations.
import { storage } from '@wxt-dev/storage';
import {
  activeProfile,
  MIGRATIONS,
  normalizeSettings,
  type Profile,
  SETTINGS_VERSION,
  type Settings,
} from '../../lib/settings';
import type { NameSettings } from '../../lib/settings/names';

// No fallback value: a missing item is made into the defaults by normalizeSettings when read (its
// profile's name is in the browser's language, which a value fixed at load time could not be).
export const settingsItem = storage.defineItem<Settings>('local:settings', {
  version: SETTINGS_VERSION,
  migrations: MIGRATIONS,
});

export async function loadSettings(): Promise<Settings> {
  return normalizeSettings(await settingsItem.getValue());
}

/**
 * Saves the servers part of the settings. The BIP 353 part has its own editor (saveNameSettings),
 * so what `s` carries of it (loaded when a page opened) is left for the stored one.
 */
export async function saveSettings(s: Settings): Promise<void> {
  const { names } = await loadSettings();
  await settingsItem.setValue(normalizeSettings({ ...s, ...(names ? { names } : {}) }));
}

/** Saves the BIP 353 part of the settings, the rest as stored. */
export async function saveNameSettings(names: NameSettings): Promise<void> {
  await settingsItem.setValue(normalizeSettings({ ...(await loadSettings()), names }));
}

export async function loadActiveProfile(): Promise<Profile> {
  return activeProfile(await loadSettings());
}

/** Changes one profile in place (e.g. to remember a size limit learned from a 413). */
export async function updateProfile(id: string, patch: Partial<Profile>): Promise<void> {
  const s = await loadSettings();
  await saveSettings({ ...s, profiles: s.profiles.map((p) => (p.id === id ? { ...p, ...patch } : p)) });
}

/** Calls `show` with the settings after every change (a size limit the background learned, an edit). */
export function watchSettings(show: (s: Settings) => void): () => void {
  return settingsItem.watch((s) => show(normalizeSettings(s)));
}
