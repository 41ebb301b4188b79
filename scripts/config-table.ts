// `npx tsx scripts/config-table.ts`: writes the README's table of settings from the config schema
// (server/config/table.ts), between its two markers. tests/server/config-table.test.ts fails when they differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configTable, TABLE_END, TABLE_START } from '../server/config/table';

const readme = join(import.meta.dirname, '..', 'README.md');
const text = readFileSync(readme, 'utf8');
const start = text.indexOf(TABLE_START);
const end = text.indexOf(TABLE_END);
if (start < 0 || end < start) throw new Error(`README.md has no "${TABLE_START}" … "${TABLE_END}".`);
writeFileSync(readme, `${text.slice(0, start)}${TABLE_START}\n${configTable()}\n${text.slice(end)}`);
console.log('README.md: the table of settings was written from server/config/schema.ts.');
