// The operator's commands on the store the server's settings name: `uploads list` (never a key) and
// `uploads remove <link or name>`, while the server runs and after it stopped. On disk a running server
// holds the folder, so removal goes through its admin socket; on S3 (the `s3` project) it works directly.

import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/accounts/tokens';
import { type ProductServer, runProduct } from './product-cli';
import { type ProductStore, productStore, startProductOn } from './product-store';
import { storageUnderTest } from './storage-under-test';
import { bytesOf, form, post } from './test-helpers';

const onS3 = storageUnderTest() === 's3';

let scratch: string;
let store: ProductStore;
let server: ProductServer | undefined;
let env: Record<string, string>;
/** Everything secret the uploads' answers held, which no listing may show. */
const secrets: string[] = [];
const made: Record<string, { url: string; fileName: string; contentLength: number }> = {};

async function upload(name: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  // Expiry is the legacy variant's.
  const at = fields.expireUnit ? `${server!.baseUrl}/v1/Upload?sub=api` : `${server!.apiUrl}/v1/Upload`;
  const answer = await post(
    at,
    form({ ...fields, file: { bytes: bytesOf(`${name} `.repeat(100)), name: `${name}.txt` } }),
    headers,
  );
  expect(answer.status, answer.text).toBe(200);
  const result = answer.json.result;
  for (const key of ['key', 'iv', 'deletionKey']) if (result[key]) secrets.push(result[key]);
  made[name] = result;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'hushdrop-operator-'));
  store = await productStore(join(scratch, 'data'));
  const config = join(scratch, 'config.json');
  await writeFile(
    config,
    JSON.stringify({ accounts: [{ username: 'bob', tokenHash: await hashToken('b0b-token') }] }),
  );
  env = { ...store.env, CONFIG: config };
  server = await startProductOn(store, env);
  await upload('plain', { encrypt: 'false', genDeletionKey: 'true' });
  await upload(
    'kept',
    { encrypt: 'true', saveKey: 'true' },
    {
      Authorization: `Basic ${Buffer.from('bob:b0b-token').toString('base64')}`,
    },
  );
  await upload('views', { encrypt: 'false', expireUnit: 'view', expireLength: '2' });
  secrets.push(...(await store.contents()).blobs);
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await store?.close();
  await rm(scratch, { recursive: true, force: true });
});

describe('uploads list', () => {
  it('shows name, size, account, created, expiry and views, and never a key', async () => {
    const run = await runProduct(['uploads', 'list'], env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^3 upload\(s\) in /);
    expect(lines[1]!.split(/\s{2,}/)).toEqual([
      'NAME',
      'SIZE',
      'ACCOUNT',
      'CREATED',
      'EXPIRES',
      'VIEWS',
      'ENCRYPTED BY',
    ]);
    const row = (name: string) => lines.find((l) => l.startsWith(made[name]!.fileName))!.split(/\s{2,}/);
    expect(row('kept')).toEqual([
      made.kept!.fileName,
      '500 B',
      'bob',
      expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\dZ$/),
      'never',
      '0',
      'server, key kept',
    ]);
    expect(row('views').slice(4)).toEqual(['after views', '0/2', 'none']);
    expect(secrets.length).toBeGreaterThanOrEqual(6);
    for (const secret of secrets) expect(run.stdout).not.toContain(secret);

    const json = await runProduct(['uploads', 'list', '--json'], env);
    const uploads = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(uploads.map((u) => u.name).sort()).toEqual(
      Object.values(made)
        .map((m) => m.fileName)
        .sort(),
    );
    expect(uploads.find((u) => u.name === made.plain!.fileName)).toEqual({
      name: made.plain!.fileName,
      size: 600,
      account: null,
      created: expect.stringMatching(/Z$/),
      expires: null,
      views: 0,
      maxViews: 0,
      encryption: 'none',
    });
    for (const secret of secrets) expect(json.stdout).not.toContain(secret);
  });
});

describe('uploads remove', () => {
  it('takes an upload down by its link while the server runs, and says how', async () => {
    const link = made.kept!.url;
    expect((await fetch(link)).status).toBe(200);
    const run = await runProduct(['uploads', 'remove', `${link}#not-a-key`], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      onS3
        ? new RegExp(
            `^Removed ${made.kept!.fileName} \\(500 B, uploaded .*\\) from s3://.*, directly; no server on that store serves it any more\\.\\n$`,
          )
        : new RegExp(
            `^Removed ${made.kept!.fileName} \\(500 B, uploaded .*\\) through the server running on ${join(scratch, 'data')} \\(process ${server!.child.pid}\\)\\.\\n$`,
          ),
    );
    expect((await fetch(link)).status).toBe(404);
    expect((await store.contents()).records).not.toContain(made.kept!.fileName);
    expect((await store.contents()).blobs).toHaveLength(2);

    const again = await runProduct(['uploads', 'remove', made.kept!.fileName], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      // (On Node 20 the AWS SDK adds a warning of its own before it.)
      new RegExp(`^hushdrop server: There is no upload ${made.kept!.fileName} in `, 'm'),
    );
    const nonsense = await runProduct(['uploads', 'remove', 'https://drop.example.org/'], env);
    expect(nonsense.code).toBe(2);
    expect(nonsense.stderr).toMatch(/^hushdrop server: No upload name in "https:\/\/drop\.example\.org\/"/m);
  });

  it.skipIf(onS3)(
    'goes through the admin socket only with its token, which only the server’s user reads',
    async () => {
      const data = join(scratch, 'data');
      expect((await stat(join(data, 'admin.json'))).mode & 0o777).toBe(0o600);
      expect((await stat(join(data, 'admin.sock'))).mode & 0o777).toBe(0o600);
      const { token } = JSON.parse(await readFile(join(data, 'admin.json'), 'utf8'));
      const ask = (authorization: string) =>
        new Promise<number>((resolve, reject) => {
          const req = request(
            {
              socketPath: join(data, 'admin.sock'),
              method: 'DELETE',
              path: `/_hushdrop/admin/uploads/${made.plain!.fileName}`,
              headers: { Authorization: authorization },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode!);
            },
          );
          req.on('error', reject);
          req.end();
        });
      expect(await ask(`Bearer ${token.slice(0, -1)}x`)).toBe(401);
      expect(await ask('Bearer ')).toBe(401);
      expect((await fetch(made.plain!.url)).status).toBe(200);
      // Nor is it reachable over the network, even with the token (the recipient page's paths say 405).
      const network = await fetch(`${server!.listenUrl}/_hushdrop/admin/uploads/${made.plain!.fileName}`, {
        method: 'DELETE',
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(network.status).toBe(405);
      expect((await fetch(made.plain!.url)).status).toBe(200);
    },
  );

  it('works directly once the server has stopped', async () => {
    expect(await server!.stop()).toBe(0);
    server = undefined;
    const legacyLink = made.views!.url;
    expect(legacyLink).toMatch(/\?sub=u$/);
    const run = await runProduct(['uploads', 'remove', legacyLink], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      onS3
        ? / from s3:\/\/.*, directly; no server on that store serves it any more\.\n$/
        : new RegExp(
            ` from the data folder ${join(scratch, 'data')}, directly \\(no server was running on it\\)\\.\\n$`,
          ),
    );
    const left = await store.contents();
    expect(left.records).toEqual([made.plain!.fileName]);
    expect(left.blobs).toHaveLength(1);
  });
});
