// The little text the server writes into the page before its script runs (the title, and what a
// browser without JavaScript shows), in the language the browser asks for. The script then speaks
// the language of navigator.languages. The messages are bundled into the installed package's script
// (only the page's: scripts/pack-server.ts), so it reads no file of the extension at run time.
import { fillMessage, type MessageKey } from '../../lib/i18n';
import de from '../../public/_locales/de/messages.json';
import en from '../../public/_locales/en/messages.json';

type Table = Record<string, { message: string } | undefined>;
const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

const TABLES: Record<Language, Table> = { en, de };
const table = (language: Language): Table => TABLES[language];

/** The best language of `Accept-Language` that the page has; English otherwise. */
export function acceptedLanguage(header: string | undefined): Language {
  const ranked = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { base: tag.trim().toLowerCase().split('-')[0]!, q: q === undefined ? 1 : Number(q) };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked.map((l) => l.base).find((b) => (LANGUAGES as readonly string[]).includes(b)) ??
    'en') as Language;
}

export function say(language: Language, key: MessageKey, ...substitutions: string[]): string {
  return fillMessage(table(language)[key]?.message ?? table('en')[key]!.message, substitutions);
}
