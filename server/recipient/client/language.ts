// The page's language: the first of the browser's languages it has messages for (English and German
// now), through lib/i18n like the extension. The build keeps only the messages the page uses.
import { connectMessages, fillMessage } from '../../../lib/i18n';
import de from '../../../public/_locales/de/messages.json';
import en from '../../../public/_locales/en/messages.json';

type Table = Record<string, { message: string }>;
const TABLES: Record<string, Table> = { en, de };

/** `navigator.languages` in, the language used out ("en" when none of them is available). */
export function pickLanguage(wanted: readonly string[]): string {
  for (const tag of wanted) {
    const base = tag.toLowerCase().split('-')[0]!;
    if (base in TABLES) return base;
  }
  return 'en';
}

export function connectPageMessages(wanted: readonly string[]): string {
  const language = pickLanguage(wanted);
  const table = TABLES[language]!;
  connectMessages((key, subs) => {
    const entry = table[key] ?? (en as Table)[key];
    return entry ? fillMessage(entry.message, subs) : '';
  }, language);
  return language;
}
