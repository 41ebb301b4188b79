// Every locale has every message, with the same substitutions; every message is used; every
// message the code asks for exists; and the pages hold no text of their own outside messages.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { fillMessage, formatBytes, plural, t } from '../../lib/i18n';

type Messages = Record<string, { message: string; description?: string }>;

const LOCALES = 'public/_locales';
const read = (lang: string): Messages =>
  JSON.parse(readFileSync(join(LOCALES, lang, 'messages.json'), 'utf8'));
const languages = readdirSync(LOCALES);
const en = read('en');

/** Source files whose text a person may see. */
function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'gen' && name !== 'node_modules') yield* sources(path);
    } else if (/\.(tsx?|html)$/.test(name)) yield path;
  }
}
const codeFiles = [
  ...['lib', 'platform', 'components', 'entrypoints', 'server/recipient'].flatMap((d) => [...sources(d)]),
  'wxt.config.ts',
];
const code = codeFiles.map((f) => readFileSync(f, 'utf8')).join('\n');

const placeholders = (text: string) => [...new Set(text.match(/\$[1-9]/g) ?? [])].sort();

describe('locales', () => {
  it('ship English and German', () => {
    expect(languages.sort()).toEqual(['de', 'en']);
  });

  for (const lang of languages)
    it(`${lang} has every message, no other, each with the substitutions English has`, () => {
      const messages = read(lang);
      const missing = Object.keys(en).filter((k) => !(k in messages));
      const extra = Object.keys(messages).filter((k) => !(k in en));
      expect(missing, `missing in ${lang}`).toEqual([]);
      expect(extra, `in ${lang} but not in en`).toEqual([]);
      for (const [key, { message }] of Object.entries(messages)) {
        expect(message.trim(), `${lang}/${key} is empty`).not.toBe('');
        expect(placeholders(message), `${lang}/${key} substitutions`).toEqual(placeholders(en[key]!.message));
      }
    });

  it('every plural family has at least the forms “one” and “other”', () => {
    for (const key of Object.keys(en).filter((k) => k.endsWith('_other'))) {
      const base = key.slice(0, -'_other'.length);
      expect(en, `${base}_one`).toHaveProperty(`${base}_one`);
    }
  });

  it('every message is used somewhere', () => {
    const unused = Object.keys(en).filter((key) => {
      const base = key.replace(/_(zero|one|two|few|many|other)$/, '');
      return ![`'${key}'`, `"${key}"`, `__MSG_${key}__`, `'${base}'`].some((form) => code.includes(form));
    });
    expect(unused).toEqual([]);
  });

  it('every message the code asks for exists', () => {
    const asked = [...code.matchAll(/\b(t|plural)\(\s*'([A-Za-z0-9_]+)'/g)].map(([, fn, key]) =>
      fn === 'plural' ? `${key}_other` : key!,
    );
    asked.push(...[...code.matchAll(/__MSG_([A-Za-z0-9_]+)__/g)].map(([, key]) => key!));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((key) => !(key in en))).toEqual([]);
  });

  it('pages and components hold no text of their own: it all comes from messages', () => {
    const found: string[] = [];
    for (const file of codeFiles.filter((f) => /^(entrypoints|components)\//.test(f) && f.endsWith('.tsx'))) {
      // Read as TSX, so that generics (useState<T>()) and arrows (=>) are not taken for tags.
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        // Text between tags, and the attributes a person reads or hears.
        if (ts.isJsxText(node) && /[A-Za-z]{2,}/.test(node.text)) found.push(`${file}: ${node.text.trim()}`);
        if (
          ts.isJsxAttribute(node) &&
          /^(aria-label|placeholder|title|alt|label)$/.test(node.name.getText(source)) &&
          node.initializer &&
          ts.isStringLiteral(node.initializer) &&
          /[A-Za-z]/.test(node.initializer.text)
        )
          found.push(`${file}: ${node.name.getText(source)}="${node.initializer.text}"`);
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(found).toEqual([]);
  });
});

describe('formatting', () => {
  it('fills substitutions as browsers do', () => {
    expect(fillMessage('$1 of $2 ($$)', ['a', 'b'])).toBe('a of b ($)');
  });

  it('writes sizes and plurals for the language', () => {
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GiB');
    expect(plural('bytes', 1234)).toBe('1,234 bytes');
    expect(t('extName')).toBe('Hushdrop');
  });
});
