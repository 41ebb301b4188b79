// A full disk: the server's data folder on a real 4 MiB tmpfs (mounted in a mount namespace of the server's
// own, so no root is needed where user namespaces are allowed). Uploads that do not fit get 507 with a
// sentence and leave nothing behind, whether the bytes or the record ran out of room; the server goes on.

import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ProductServer, startProductServer } from './product-cli';
import { bytesOf, form, getBytes, post, randomBytesOf } from './test-helpers';

const PAGE = 4096;
/** The tmpfs's size in pages: 1024 × 4 KiB. */
const PAGES = 1024;

const namespaces = spawnSync('unshare', ['--user', '--map-root-user', '--mount', 'true']).status === 0;
if (!namespaces)
  console.warn('full-disk test skipped: `unshare --user --map-root-user --mount` is not allowed here');

let scratch: string;
let dataDir: string;
let server: ProductServer;
/** The data folder as the server sees it (inside its mount namespace). */
let inside: string;

beforeAll(async () => {
  if (!namespaces) return;
  scratch = await mkdtemp(join(tmpdir(), 'hushdrop-full-'));
  dataDir = join(scratch, 'data');
  await mkdir(dataDir);
  server = await startProductServer({ DATA_DIR: dataDir }, (node) => [
    'unshare',
    '--user',
    '--map-root-user',
    '--mount',
    'sh',
    '-c',
    `mount -t tmpfs -o size=${PAGES * PAGE} tmpfs "$0" && exec "$@"`,
    dataDir,
    ...node,
  ]);
  inside = `/proc/${server.child.pid}/root${dataDir}`;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function onDisk(): Promise<{ files: string[]; records: string[] }> {
  return { files: await readdir(join(inside, 'files')), records: await readdir(join(inside, 'records')) };
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
    expect((await fetch(`${server.baseUrl}/_hushdrop/health`)).status).toBe(200);
  }, 120_000);
});
