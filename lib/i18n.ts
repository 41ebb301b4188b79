// Every sentence a person sees is a message in public/_locales/<lang>/messages.json, read through
// `t` (and `plural`). lib/ has no browser API, so the platform connects `t` to browser.i18n when
// a context starts (platform/i18n.ts); unit tests connect it to the English file. Numbers, sizes,
// dates and plural forms follow the browser's language through Intl.
import type en from '../public/_locales/en/messages.json';

export type MessageKey = keyof typeof en;
/** The families of plural messages: `<base>_one`, `<base>_other` (and any other CLDR category). */
export type PluralBase = MessageKey extends infer K ? (K extends `${infer B}_other` ? B : never) : never;

/** What reads a message: browser.i18n.getMessage, or a table in tests. '' when there is none. */
export type MessageLookup = (key: string, substitutions: string[]) => string;

let lookup: MessageLookup = () => '';
let language = 'en';

// Intl formatters are costly to make (a DateTimeFormat is about as dear as checking a signature)
// and cheap to reuse: one per language and options.
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
function formatter<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(
  kind: string,
  options: object | undefined,
  make: () => T,
): T {
  const key = `${kind}|${language}|${JSON.stringify(options ?? {})}`;
  let made = formatters.get(key) as T | undefined;
  if (!made) {
    made = make();
    formatters.set(key, made);
  }
  return made;
}

/** Points `t` at a message source; `uiLanguage` is the browser's language (e.g. "de", "en-US"). */
export function connectMessages(source: MessageLookup, uiLanguage: string): void {
  lookup = source;
  language = uiLanguage;
}

export function uiLanguage(): string {
  return language;
}

/**
 * A messages.json text with its substitutions filled in, as browsers do it: `$1`…`$9` are the
 * substitutions, `$$` is a dollar sign. (For lookups outside a browser: tests, scripts.)
 */
export function fillMessage(message: string, substitutions: string[]): string {
  return message.replace(/\$(\$|[1-9])/g, (_, what: string) =>
    what === '$' ? '$' : (substitutions[Number(what) - 1] ?? ''),
  );
}

/** The message, with $1…$9 filled in (numbers formatted for the language). */
export function t(key: MessageKey, ...substitutions: (string | number)[]): string {
  const text = lookup(
    key,
    substitutions.map((s) => (typeof s === 'number' ? formatNumber(s) : s)),
  );
  // A missing message shows its key rather than nothing; the locale test fails on it first.
  return text || key;
}

/** The plural form of `base` that fits `count` in this language; `count` is $1, the rest follow. */
export function plural(base: PluralBase, count: number, ...substitutions: (string | number)[]): string {
  const category = formatter('plural', undefined, () => new Intl.PluralRules(language)).select(count);
  const subs = [
    formatNumber(count),
    ...substitutions.map((s) => (typeof s === 'number' ? formatNumber(s) : s)),
  ];
  return lookup(`${base}_${category}`, subs) || lookup(`${base}_other`, subs) || `${base}_other`;
}

export function formatNumber(n: number, options?: Intl.NumberFormatOptions): string {
  return formatter('number', options, () => new Intl.NumberFormat(language, options)).format(n);
}

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** The binary unit that writes `n` bytes with a whole part under 1024: 0 is bytes, 1 KiB, 2 MiB… */
function unitOf(n: number): number {
  let i = 0;
  while (n >= 1024 ** (i + 1) && i < UNITS.length) i++;
  return i;
}

/** `n` bytes in unit `i` (as unitOf gives it), as a number for the language. */
function inUnit(n: number, i: number): string {
  const v = n / 1024 ** i;
  return formatNumber(v, { maximumFractionDigits: i === 0 ? 0 : v < 10 ? 1 : 0 });
}

/** 1536 → "1.5 KiB" (binary units; the number written as the language writes numbers). */
export function formatBytes(n: number): string {
  const i = unitOf(n);
  return i === 0 ? plural('bytes', n) : `${inUnit(n, i)} ${UNITS[i - 1]}`;
}

/** Part of a size in the whole's unit: (3.4 MiB, 20 MiB) → "3.4 of 20 MiB", as a progress shows it. */
export function formatBytesOf(done: number, total: number): string {
  return t('amountOf', inUnit(done, unitOf(total)), formatBytes(total));
}

/** A moment as the language writes it (ms since the epoch, or an ISO date). */
export function formatDate(when: number | string | Date, options: Intl.DateTimeFormatOptions = {}): string {
  const all: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short', ...options };
  return formatter('date', all, () => new Intl.DateTimeFormat(language, all)).format(new Date(when));
}
