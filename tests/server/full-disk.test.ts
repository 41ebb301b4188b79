// A full disk: the server's data folder on a real 4 MiB tmpfs (mounted in a mount namespace of the server's
// own, so no root is needed where user namespaces are allowed). Uploads that do not fit get 507 with a
// sentence and leave nothing behind, whether the bytes or the record ran out of room; the server goes on.

import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../devkit/wait';
import { type ProductServer, startProductServer } from './product-cli';
import { bytesOf, form, getBytes, post, randomBytesOf } from './test-helpers';

const PAGE = 4096;
/** The tmpfs's size in pages: 1024 × 4 KiB. */
const PAGES = 1024;

const namespaces = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'true']).status === 0;
if (!namespaces)
  console.warn('full-disk test skipped: `unshare --user --map-root-user --mount` is not allowed here');

/** The product server with its data folder on a tmpfs of `bytes`, in a mount namespace of its own. */
async function startOnTmpfs(bytes: number) {
  const scratch = await mkdtemp(join(tmpdir(), 'hushdrop-full-'));
  const dataDir = join(scratch, 'data');
  await mkdir(dataDir);
  const server = await startProductServer({ DATA_DIR: dataDir }, (node) => [
    'unshare',
    '--user',
    '--map-root-user',
    '--mount',
    'sh',
    '-c',
    `mount -t tmpfs -o size=${bytes} tmpfs "$0" && exec "$@"`,
    dataDir,
    ...node,
  ]);
  return {
    server,
    dataDir,
    /** The data folder as the server sees it (inside its mount namespace). */
    inside: `/proc/${server.child.pid}/root${dataDir}`,
    async stop() {
      await server.stop();
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

let tmpfs: Awaited<ReturnType<typeof startOnTmpfs>> | undefined;
let dataDir: string;
let server: ProductServer;
let inside: string;

beforeAll(async () => {
  if (!namespaces) return;
  tmpfs = await startOnTmpfs(PAGES * PAGE);
  ({ server, dataDir, inside } = tmpfs);
}, 120_000);
afterAll(async () => {
  await tmpfs?.stop();
});

/** Blobs and the records of uploads (the daily byte quota's record, which refused bytes count in, aside). */
async function listed(): Promise<{ files: string[]; records: string[] }> {
  const records = (await readdir(join(inside, 'records'))).filter((name) => !name.startsWith('quota-'));
  return { files: await readdir(join(inside, 'files')), records };
}

/**
 * What is on disk once no write is under way: a record is written as a `.tmp-` file and then renamed (the
 * quota's record is still being written after a refusal is answered), so such a name is waited out. One
 * that stays (a write a full disk broke off and left behind) fails the wait.
 */
async function onDisk(): Promise<{ files: string[]; records: string[] }> {
  const writing = (d: { files: string[]; records: string[] }) =>
    [...d.files, ...d.records].some((name) => name.startsWith('.tmp-'));
  return until(async () => {
    const now = await listed();
    return writing(now) ? undefined : now;
  }, 'no write under way in the data folder');
}

const upload = (bytes: Uint8Array<ArrayBuffer>) =>
  post(`${server.apiUrl}/v1/Upload`, form({ encrypt: 'false', file: { bytes, name: 'f.bin' } }));

describe.skipIf(!namespaces)('a full disk', () => {
  it('answers 507, keeps nothing of what did not fit, and takes what fits afterwards', async () => {
    // The folder really is the small tmpfs, not the test's own disk.
    expect(await readdir(dataDir)).toEqual([]);
    // (admin.json and admin.sock: the way `uploads remove` reaches a running server, server/admin.ts.)
    expect((await readdir(inside)).sort()).toEqual([
      'admin.json',
      'admin.sock',
      'files',
      'records',
      'server.lock',
    ]);

    const tooBig = await upload(randomBytesOf(8 * 1024 * 1024));
    expect(tooBig.status).toBe(507);
    expect(tooBig.json.error.message).toBe(
      'The server has no room for this upload right now (its storage is full). Nothing was kept.',
    );
    expect(await onDisk()).toEqual({ files: [], records: [] });

    // Bytes that fill every page left (the lock file holds one): they fit, their record does not.
    const exact = await upload(randomBytesOf((PAGES - 1) * PAGE));
    expect(exact.status).toBe(507);
    expect(await onDisk()).toEqual({ files: [], records: [] });

    const fits = await upload(bytesOf('this one fits'));
    expect(fits.status).toBe(200);
    expect(new TextDecoder().decode((await getBytes(fits.json.result.url)).bytes)).toBe('this one fits');
    const after = await onDisk();
    expect([after.files.length, after.records]).toEqual([1, [`${fits.json.result.fileName}.json`]]);
    expect((await fetch(`${server.baseUrl}/_hushdrop/health`)).status).toBe(200);
  }, 120_000);

  it('answers 507 to a part that does not fit; its index stays absent and abort leaves nothing', async () => {
    const before = await onDisk();
    const base = `${server.apiUrl}/v1/Upload/Parts`;
    const size = 6 * 1024 * 1024;
    const started = await post(
      base,
      form({ encrypt: 'false', partsTotal: String(size), fileName: 'big.bin' }),
    );
    expect(started.status, started.text).toBe(201);
    const { id } = started.json;
    const part = await fetch(`${base}/${id}/0`, { method: 'PUT', body: randomBytesOf(size) });
    expect(part.status).toBe(507);
    expect((await part.json()).error.message).toMatch(/storage is full/);
    const done = await fetch(`${base}/${id}`, { method: 'POST' });
    expect(done.status).toBe(409);
    expect((await fetch(`${base}/${id}`, { method: 'DELETE' })).status).toBe(204);
    const after = await onDisk();
    expect(after.files).toEqual(before.files);
    // Health says so until an upload fits again.
    expect(await health(server)).toEqual([503, 'storage full']);
    expect((await upload(bytesOf('small again'))).status).toBe(200);
    expect(await health(server)).toEqual([200, 'ok']);
  }, 120_000);
});

async function health(s: ProductServer): Promise<[number, string]> {
  const res = await fetch(`${s.baseUrl}/_hushdrop/health`);
  return [res.status, (await res.json()).status];
}

// Issue 31, part 4: the legacy variant answered 500 with an HTML page where the README promises 507; an
// upload whose fields came after its file was refused while about twice its size was still free (its bytes
// were stored encrypted as they came, then copied decrypted); nothing was logged; health said ok.
describe.skipIf(!namespaces)('a full disk, on both variants (issue 31)', () => {
  const MIB = 1024 * 1024;
  let big: Awaited<ReturnType<typeof startOnTmpfs>>;
  beforeAll(async () => {
    big = await startOnTmpfs(16 * MIB);
  }, 120_000);
  afterAll(async () => {
    await big?.stop();
  });

  /** An upload to `variant` with its fields before or after the file (`encrypt=false` either way). */
  const send = (
    variant: 'legacy' | 'current',
    order: 'fields first' | 'file first',
    bytes: Uint8Array<ArrayBuffer>,
  ) => {
    const url =
      variant === 'legacy' ? `${big.server.baseUrl}/v1/Upload?sub=api` : `${big.server.apiUrl}/v1/Upload`;
    const file = { bytes, name: 'f.bin' };
    const fields = { encrypt: 'false', genDeletionKey: 'true' };
    return post(url, form(order === 'fields first' ? { ...fields, file } : { file, ...fields }));
  };

  it('takes an upload that fits once, whatever the order of its fields, on both variants', async () => {
    const bytes = randomBytesOf(9 * MIB, 21);
    for (const variant of ['legacy', 'current'] as const) {
      const made = await send(variant, 'file first', bytes);
      expect(made.status, made.text.slice(0, 200)).toBe(200);
      const got = await getBytes(made.json.result.url);
      expect(Buffer.compare(Buffer.from(got.bytes), Buffer.from(bytes))).toBe(0);
      // Deleted again, so the next one has the room.
      const { fileName, deletionKey } = made.json.result;
      const deletion =
        variant === 'legacy'
          ? `${big.server.baseUrl}/${fileName}/${deletionKey}?sub=u`
          : `${big.server.uploadUrl}/${fileName}/${deletionKey}`;
      expect((await fetch(deletion)).status).toBe(200);
    }
  }, 120_000);

  it('answers 507 with a sentence on both variants, says so in its log and in health, until an upload fits', async () => {
    const tooBig = randomBytesOf(20 * MIB, 22);
    for (const variant of ['legacy', 'current'] as const) {
      for (const order of ['fields first', 'file first'] as const) {
        const refused = await send(variant, order, tooBig);
        expect(refused.status, `${variant}, ${order}: ${refused.text.slice(0, 200)}`).toBe(507);
        expect(refused.json.error.message).toBe(
          'The server has no room for this upload right now (its storage is full). Nothing was kept.',
        );
      }
    }
    expect(big.server.output.join('\n')).toMatch(/hushdrop server: the storage is full/);
    expect(await health(big.server)).toEqual([503, 'storage full']);
    const fits = await send('current', 'fields first', bytesOf('this fits'));
    expect(fits.status).toBe(200);
    expect(await health(big.server)).toEqual([200, 'ok']);
    expect(big.server.output.join('\n')).toMatch(/hushdrop server: the storage takes uploads again/);
  }, 120_000);
});
