// The README's table of settings is the one the config schema writes (server/config/table.ts), so a key
// added to the schema, or a default changed there, cannot be missing or wrong in the README.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, keySchema, sectionShape } from '../../server/config/schema';
import { configTable, TABLE_END, TABLE_START } from '../../server/config/table';

describe('the README’s table of settings', () => {
  it('is the schema’s (npx tsx scripts/config-table.ts writes it)', async () => {
    const readme = await readFile(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const start = readme.indexOf(TABLE_START);
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start + TABLE_START.length + 1, readme.indexOf(TABLE_END)).trim()).toBe(
      configTable(),
    );
  });

  it('has a row, with words, for every key of the schema', () => {
    const table = configTable();
    for (const [key, schema] of Object.entries(sectionShape(configSchema as never))) {
      const subs = Object.keys(sectionShape(schema));
      for (const path of subs.length ? subs.map((s) => [key, s]) : [[key]]) {
        expect(table).toContain(`| \`${path.join('.')}\``);
        expect((keySchema(path).meta() as { doc?: string })?.doc, path.join('.')).toBeTruthy();
      }
    }
  });
});
