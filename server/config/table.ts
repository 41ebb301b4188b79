// The README's table of settings, written from the schema (schema.ts): one row per key, with the variable
// that overrides it, its default and its meaning. `scripts/config-table.ts` writes it into the README;
// tests/server/config-table.test.ts fails when the README's differs.

import { configSchema, type KeyDoc, keyPaths, keySchema } from './schema';

export const TABLE_START =
  '<!-- config table: written by `npx tsx scripts/config-table.ts` from server/config/schema.ts -->';
export const TABLE_END = '<!-- end of config table -->';

function shownDefault(path: string[], doc: KeyDoc): string {
  if (doc.shown) return doc.shown;
  const section = path.length > 1 ? keySchema([path[0]!]).parse({}) : configSchema.parse({});
  const value = (section as Record<string, unknown>)[path[path.length - 1]!];
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return 'none';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

function row(path: string[]): string {
  const doc = keySchema(path).meta() as unknown as KeyDoc;
  const key = `\`${path.join('.')}\`${doc.env ? ` (\`${doc.env}\`)` : ''}`;
  return `| ${key} | ${shownDefault(path, doc)} | ${doc.doc} |`;
}

export function configTable(): string {
  const rows = ['| key (environment variable) | default | meaning |', '|---|---|---|'];
  for (const path of keyPaths()) rows.push(row(path));
  return rows.join('\n');
}
