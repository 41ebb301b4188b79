// Accounts: made with the CLI, stored only as scrypt hashes, used as Basic auth, and (when the server says
// so) required for every upload. On the `s3` project the server keeps its uploads in S3 (product-store.ts);
// its accounts file stays in its data folder there too.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { hashToken, verifyToken } from '../../server/accounts/tokens';
import { type ProductServer, startProductServer } from './product-cli';
import { type ProductStore, productStore, startProductOn } from './product-store';
import { bytesOf, form, post } from './test-helpers';

const run = promisify(execFile);
let scratch: string | undefined;
let running: ProductServer | undefined;
let store: ProductStore | undefined;
afterEach(async () => {
  await running?.stop('SIGKILL');
  running = undefined;
  await store?.close();
  store = undefined;
  if (scratch) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** `npm run server -- <args>` with `env`; resolves with its output. */
async function cli(args: string[], env: Record<string, string>, input?: string) {
  const child = run(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    env: { ...process.env, ...env },
  });
  if (input !== undefined) child.child.stdin!.end(input);
  return child;
}

const basic = (user: string, token: string) => ({
  Authorization: `Basic ${Buffer.from(`${user}:${token}`, 'utf8').toString('base64')}`,
});
const upload = () => form({ encrypt: 'false', file: { bytes: bytesOf('mine'), name: 'm.txt' } });

describe('tokens', () => {
  it('are hashed with a salt (two hashes of one token differ) and verified only by the right token', async () => {
    const a = await hashToken('tøken');
    const b = await hashToken('tøken');
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyToken('tøken', a)).toBe(true);
    expect(await verifyToken('token', a)).toBe(false);
  });
});

describe('accounts made with the CLI', () => {
  it('keep only a hash on disk, and when accounts are required every upload needs one', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-accounts-'));
    store = await productStore(join(scratch, 'data'));
    const env = store.env;
    const added = await cli(['account', 'add', 'alice'], env);
    const token = added.stdout.split('\n')[1]!.trim();
    expect(token).toMatch(/^[A-Za-z0-9]{40}$/);
    const file = await readFile(join(scratch, 'data', 'accounts.json'), 'utf8');
    expect(file).not.toContain(token);
    expect(JSON.parse(file).accounts).toEqual([
      { username: 'alice', tokenHash: expect.stringMatching(/^scrypt\$/) },
    ]);
    await expect(cli(['account', 'add', 'alice'], env)).rejects.toThrow(/already an account "alice"/);

    // hash-token for accounts in the config file: reads the token from stdin.
    const hashed = await cli(['hash-token'], env, 'b0b-token\n');
    const bobHash = /^tokenHash=(\S+)$/m.exec(hashed.stdout)![1]!;
    expect(await verifyToken('b0b-token', bobHash)).toBe(true);
    const config = join(scratch, 'config.json');
    await writeFile(
      config,
      JSON.stringify({ requireAccount: true, accounts: [{ username: 'bob', tokenHash: bobHash }] }),
    );

    running = await startProductOn(store, { CONFIG: config });
    const api = `${running.apiUrl}/v1/Upload`;
    expect((await post(api, upload(), basic('alice', token))).status).toBe(200);
    expect((await post(api, upload(), basic('bob', 'b0b-token'))).status).toBe(200);
    const anonymous = await post(api, upload());
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.message).toMatch(/only from accounts/);
    const legacy = await post(`${running.baseUrl}/v1/Upload?sub=api`, upload());
    expect(legacy.status).toBe(401);
    expect(legacy.json.error.message).toMatch(/through the current API/);
    for (const wrong of [basic('alice', 'nope'), basic('nobody', token), basic('bob', token)])
      expect((await post(api, upload(), wrong)).status).toBe(401);
    const kept = await store.contents();
    expect([kept.records.length, kept.blobs.length]).toEqual([2, 2]);
    const info = await (await fetch(`${running.baseUrl}/_hushdrop/info`)).json();
    expect(info.accounts).toEqual({ required: true, auth: 'basic' });

    // An account removed while the server runs stops working at once (the file is read again).
    await cli(['account', 'remove', 'alice'], env);
    expect((await post(api, upload(), basic('alice', token))).status).toBe(401);
  }, 180_000);

  it('refuses tokens in clear, in the environment or the config file, with a sentence', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-accounts-'));
    const config = join(scratch, 'config.json');
    await writeFile(config, JSON.stringify({ accounts: [{ username: 'bob', token: 'clear' }] }));
    store = await productStore(scratch);
    await expect(startProductServer({ ...store.env, ACCOUNTS: 'bob:clear' })).rejects.toThrow(
      /ACCOUNTS \(tokens in clear\) is not read/,
    );
    await expect(startProductServer({ ...store.env, CONFIG: config })).rejects.toThrow(
      /accounts\[0\] holds a token in clear/,
    );
  }, 120_000);

  it('say which accounts file they use, and warn when it is only the default one', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-accounts-'));
    // No CONFIG, ACCOUNTS_FILE or DATA_DIR: the default data folder of this user (HOME here).
    const clean = { HOME: scratch, XDG_DATA_HOME: '', CONFIG: '', DATA_DIR: '', ACCOUNTS_FILE: '' };
    const defaulted = await cli(['account', 'add', 'alice'], clean);
    const defaultFile = join(scratch, '.local', 'share', 'hushdrop', 'server', 'accounts.json');
    expect(defaulted.stderr).toContain(
      `Accounts file: ${defaultFile} (from the default data folder of user `,
    );
    expect(defaulted.stderr).toMatch(/no CONFIG, ACCOUNTS_FILE or DATA_DIR is set/);
    expect(defaulted.stderr).toMatch(/as the server's user with its CONFIG/);

    const config = join(scratch, 'config.json');
    await writeFile(config, JSON.stringify({ dataDir: 'srv' }));
    const listed = await cli(['account', 'list'], { ...clean, CONFIG: config });
    const configured = join(scratch, 'srv', 'accounts.json');
    expect(listed.stderr).toBe(`Accounts file: ${configured} (from the config file CONFIG=${config}).\n`);
    expect(listed.stdout).toBe(`No accounts in ${configured}.\n`);
  }, 120_000);

  it('rotate a token in one write: the old one stops, the new one works, the account is never missing', async () => {
    scratch = await mkdtemp(join(tmpdir(), 'hushdrop-accounts-'));
    store = await productStore(join(scratch, 'data'));
    const env = store.env;
    const file = join(scratch, 'data', 'accounts.json');
    const first = (await cli(['account', 'add', 'alice'], env)).stdout.split('\n')[1]!.trim();
    await cli(['account', 'add', 'carol'], env);
    running = await startProductOn(store, { REQUIRE_ACCOUNT: 'true' });
    const api = `${running.apiUrl}/v1/Upload`;
    expect((await post(api, upload(), basic('alice', first))).status).toBe(200);

    // Read the file over and over while the token is replaced: every read has both accounts.
    let rotating = true;
    const reads: string[][] = [];
    const reader = (async () => {
      while (rotating) {
        const { accounts } = JSON.parse(await readFile(file, 'utf8'));
        reads.push(accounts.map((a: { username: string }) => a.username));
      }
    })();
    const rotated = await cli(['account', 'rotate', 'alice'], env);
    rotating = false;
    await reader;
    expect(reads.length).toBeGreaterThan(0);
    for (const names of reads) expect(names).toEqual(['alice', 'carol']);
    expect(rotated.stdout).toMatch(
      new RegExp(`The token of "alice" was replaced in ${file}; the old one no longer works`),
    );
    const second = rotated.stdout.split('\n')[1]!.trim();
    expect(second).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(second).not.toBe(first);

    expect((await post(api, upload(), basic('alice', first))).status).toBe(401);
    expect((await post(api, upload(), basic('alice', second))).status).toBe(200);
    await expect(cli(['account', 'rotate', 'dave'], env)).rejects.toThrow(/There is no account "dave" in /);
  }, 180_000);
});
