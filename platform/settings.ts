// The one settings item, kept in local storage with versioned migrations.
import { storage } from '@wxt-dev/storage';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_VERSION, type Settings } from '../lib/settings';

export const settingsItem = storage.defineItem<Settings>('local:settings', {
  fallback: DEFAULT_SETTINGS,
  version: SETTINGS_VERSION,
});

export async function loadSettings(): Promise<Settings> {
  return normalizeSettings(await settingsItem.getValue());
}

export async function saveSettings(s: Settings): Promise<void> {
  await settingsItem.setValue(normalizeSettings(s));
}
