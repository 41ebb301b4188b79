// The keyboard shortcuts (the manifest's commands) and the optional clipboard permission the
// "upload the clipboard" shortcut needs.
import { browser } from 'wxt/browser';
import { t } from '../lib/i18n';

export interface Shortcut {
  name: string;
  description: string;
  /** Empty when the person removed it or another extension had it first. */
  shortcut: string;
}

const CLIPBOARD = { permissions: ['clipboardRead' as const] };

export async function listShortcuts(): Promise<Shortcut[]> {
  return (await browser.commands.getAll()).map((c) => ({
    name: c.name ?? '',
    // The popup's command has no description of its own.
    description: c.description || t('commandOpen'),
    shortcut: c.shortcut ?? '',
  }));
}

/** Opens the browser's own page for changing extension shortcuts. */
export async function openShortcutSettings(): Promise<void> {
  const commands = browser.commands as typeof browser.commands & {
    openShortcutSettings?: () => Promise<void>;
  };
  if (commands.openShortcutSettings) await commands.openShortcutSettings();
  else await browser.tabs.create({ url: 'chrome://extensions/shortcuts' });
}

export function clipboardAllowed(): Promise<boolean> {
  return browser.permissions.contains(CLIPBOARD);
}

/** Must be called straight from a click: Firefox accepts permission requests only while it is handled. */
export function allowClipboard(): Promise<boolean> {
  return browser.permissions.request(CLIPBOARD).catch(() => false);
}

export async function revokeClipboard(): Promise<void> {
  await browser.permissions.remove(CLIPBOARD);
}
