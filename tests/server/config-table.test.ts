// The README's table of settings is the one the config schema writes (server/config/table.ts), so a key
// added to the schema, or a default changed there, cannot be missing or wrong in the README.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_KEYS } from '../../server/config/load';
import { keyPaths, keySchema } from '../../server/config/schema';
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
    const paths = keyPaths();
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) {
      expect(table).toContain(`| \`${path.join('.')}\``);
      expect((keySchema(path).meta() as { doc?: string })?.doc, path.join('.')).toBeTruthy();
    }
  });

  it('names the variables the server reads, each with the key it sets', () => {
    expect(ENV_KEYS.map((k) => `${k.env}=${k.path.join('.')}`)).toEqual([
      'HOST=host',
      'PORT=port',
      'DATA_DIR=dataDir',
      'STORAGE_URL=storageUrl',
      'PUBLIC_URL=publicUrl',
      'TRUSTED_PROXIES=trustedProxies',
      'MAX_UPLOAD_BYTES=maxUploadBytes',
      'REQUIRE_ACCOUNT=requireAccount',
      'ACCOUNTS_FILE=accountsFile',
      'ACCESS_LOG=accessLog',
      'METRICS_TOKEN=metrics.token',
      'TLS_CERT=tls.certFile',
      'TLS_KEY=tls.keyFile',
    ]);
  });
});
