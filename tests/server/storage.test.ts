// The disk store against the storage contract (server/storage/types.ts): blobs all or nothing, records
// created once, compare-and-swap, one server per data folder.

import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DiskStorage, openDiskStorage } from '../../server/storage/disk';
import { DataDirInUseError } from '../../server/storage/disk-lock';
import { isStorageError } from '../../server/storage/errors';
import { expectDeleteAtVersion } from './records-contract';
import { randomBytesOf } from './test-helpers';

let dir: string;
let store: DiskStorage;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hushdrop-store-'));
  store = await openDiskStorage(dir);
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listIds(): Promise<string[]> {
  const ids: string[] = [];
  for await (const blob of store.blobs.list()) ids.push(blob.id);
  return ids;
}

describe('blobs', () => {
  it('stores a stream, reads it whole and by range, and deletes it', async () => {
    const data = Buffer.from(randomBytesOf(300_000, 5));
    expect(
      await store.blobs.put('abc123', Readable.from([data.subarray(0, 1000), data.subarray(1000)])),
    ).toEqual({
      size: data.length,
    });
    expect((await bytesOf(await store.blobs.get('abc123'))).equals(data)).toBe(true);
    expect(
      (await bytesOf(await store.blobs.get('abc123', { start: 1234, end: 99_999 }))).equals(
        data.subarray(1234, 100_000),
      ),
    ).toBe(true);
    expect(await listIds()).toEqual(['abc123']);
    await store.blobs.delete('abc123');
    await store.blobs.delete('abc123');
    await expect(store.blobs.get('abc123')).rejects.toSatisfy((err) => isStorageError(err, 'not-found'));
  });

  it('shows nothing until the stream ended, and leaves nothing when it fails or is aborted', async () => {
    const body = new PassThrough();
    const put = store.blobs.put('half', body);
    body.write(Buffer.alloc(64 * 1024, 1));
    // The bytes are on their way to a temporary file, which is not a blob.
    for (;;) {
      if ((await readdir(join(dir, 'files'))).length > 0) break;
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await listIds()).toEqual([]);
    await expect(store.blobs.get('half')).rejects.toSatisfy((err) => isStorageError(err, 'not-found'));
    body.destroy(new Error('the client went away'));
    await expect(put).rejects.toThrow('the client went away');
    expect(await readdir(join(dir, 'files'))).toEqual([]);

    const abort = new AbortController();
    const slow = new PassThrough();
    const aborted = store.blobs.put('aborted', slow, { signal: abort.signal });
    slow.write(Buffer.alloc(1000));
    abort.abort(new Error('stopped'));
    await expect(aborted).rejects.toThrow('stopped');
    expect(await readdir(join(dir, 'files'))).toEqual([]);
  });

  it('refuses ids that are not plain alphanumerics', async () => {
    await expect(store.blobs.put('../x', Readable.from([Buffer.from('x')]))).rejects.toThrow(
      /Invalid blob id/,
    );
  });
});

describe('records', () => {
  it('creates a name exactly once, however many create it at the same moment', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => store.records.create('AbCde.txt', { who: i })),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const winner = outcomes.indexOf(true);
    expect(await store.records.read('AbCde.txt')).toEqual({
      value: { who: winner },
      version: expect.stringMatching(/^[1-9][0-9]*$/),
    });
    // Nothing but the record itself is left in the folder.
    expect(await readdir(join(dir, 'records'))).toEqual(['AbCde.txt.json']);
  });

  it('updates only from the version it read (compare-and-swap), one winner per version', async () => {
    await store.records.create('views', { downloads: 0 });
    const read = (await store.records.read('views'))!;
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.records.update('views', read.version, { downloads: i + 1 })),
    );
    expect(outcomes.filter(Boolean)).toHaveLength(1);
    const after = (await store.records.read('views'))!;
    expect(after.version).not.toBe(read.version);
    expect(after.value).toEqual({ downloads: outcomes.indexOf(true) + 1 });
    expect(await store.records.update('views', read.version, { downloads: 99 })).toBe(false);
    expect(await store.records.update('absent', '1', {})).toBe(false);
  });

  it('deletes once, lists what is there, and keeps whole JSON on disk', async () => {
    await store.records.create('a.png', { n: 1 });
    await store.records.create('b', { n: 2 });
    const listed: string[] = [];
    for await (const r of store.records.list()) listed.push(`${r.key}=${JSON.stringify(r.value)}`);
    expect(listed.sort()).toEqual(['a.png={"n":1}', 'b={"n":2}']);
    expect(JSON.parse(await readFile(store.records.pathOf('a.png'), 'utf8'))).toEqual({
      version: expect.any(Number),
      value: { n: 1 },
    });
    expect(await store.records.delete('a.png')).toBe(true);
    expect(await store.records.delete('a.png')).toBe(false);
    expect(await store.records.read('a.png')).toBeNull();
  });

  it('deletes at a version only while the record is at it, and creates it again after', async () => {
    await expectDeleteAtVersion(store.records, 'slots');
  });
});

describe('the data folder', () => {
  it('is used by one server at a time, and a lock left by a process that is gone is taken over', async () => {
    await expect(openDiskStorage(dir)).rejects.toBeInstanceOf(DataDirInUseError);
    await store.close();
    // A crashed server's lock names a process that no longer exists.
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(dir, 'server.lock'), '2147483646\n');
    store = await openDiskStorage(dir);
    expect(await readFile(join(dir, 'server.lock'), 'utf8')).toBe(`${process.pid}\n`);
  });
});
