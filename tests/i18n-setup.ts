// Unit tests read messages from the English file, as the browser would for an English UI.
import { readFileSync } from 'node:fs';
import { connectMessages, fillMessage } from '../lib/i18n';

const en: Record<string, { message: string }> = JSON.parse(
  readFileSync(new URL('../public/_locales/en/messages.json', import.meta.url), 'utf8'),
);
connectMessages((key, substitutions) => {
  const entry = en[key];
  return entry ? fillMessage(entry.message, substitutions) : '';
}, 'en');
