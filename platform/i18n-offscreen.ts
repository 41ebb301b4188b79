// Chromium gives an offscreen document no i18n API (runtime only), yet its upload jobs write
// sentences. This reads the extension's own messages file for the browser's language instead, as
// browser.i18n would (falling back to English). The document's message handlers wait for
// `messagesReady`; they must be listening from the start, or the first message finds nobody.
import { browser } from 'wxt/browser';
import { connectMessages, fillMessage } from '../lib/i18n';

type Messages = Record<string, { message: string }>;

async function load(locale: string): Promise<Messages | undefined> {
  try {
    const res = await fetch(browser.runtime.getURL(`/_locales/${locale}/messages.json` as '/'));
    return res.ok ? ((await res.json()) as Messages) : undefined;
  } catch {
    return undefined;
  }
}

async function connect(): Promise<void> {
  const language = navigator.language;
  const [region, base, english] = await Promise.all([
    load(language.replace('-', '_')),
    load(language.split('-')[0]!),
    load('en'),
  ]);
  const lookup = (key: string) => region?.[key] ?? base?.[key] ?? english?.[key];
  connectMessages((key, substitutions) => {
    const entry = lookup(key);
    return entry ? fillMessage(entry.message, substitutions) : '';
  }, lookup('languageTag')?.message ?? language);
}

export const messagesReady: Promise<void> = connect();
