// The S3 layer's records against the real gateway: create-if-absent, compare-and-swap, deletion that
// exactly one caller wins, listing; and the multi-instance promises, with two stores on two gateways
// racing 100 times (name clashes, a one-view link delivered once, deletions).

import { ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../../devkit/ceph';
import { isStorageError } from '../../server/storage/errors';
import { openS3Storage, type S3Storage } from '../../server/storage/s3';
import { expectDeleteAtVersion } from '../server/records-contract';
import { ceph, freshBucket, rawClient, rounds, settingsFor } from './store';

let client: S3Client;
let bucket: string;
let one: S3Storage;
let two: S3Storage;
let gateway: Gateway;

beforeAll(async () => {
  client = rawClient();
  bucket = await freshBucket(client);
  gateway = await startGateway(ceph());
  one = openS3Storage(settingsFor(bucket));
  // A second server instance, through another gateway process.
  two = openS3Storage(settingsFor(bucket, {}, { AWS_ENDPOINT_URL_S3: gateway.endpoint }));
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  client?.destroy();
  await gateway?.stop();
});

describe('one store', () => {
  it('creates once, reads with a version, updates only that version, deletes once', async () => {
    const { records } = one;
    expect(await records.create('rec1', { views: 0 })).toBe(true);
    expect(await records.create('rec1', { views: 9 })).toBe(false);
    const first = await records.read('rec1');
    expect(first).toEqual({ value: { views: 0 }, version: expect.stringMatching(/^[0-9a-f]{32}$/) });

    expect(await records.update('rec1', first!.version, { views: 1 })).toBe(true);
    const second = await records.read('rec1');
    expect(second?.value).toEqual({ views: 1 });
    expect(second?.version).not.toBe(first!.version);
    // The version read before is stale now.
    expect(await records.update('rec1', first!.version, { views: 5 })).toBe(false);
    expect((await records.read('rec1'))?.value).toEqual({ views: 1 });

    expect(await records.delete('rec1')).toBe(true);
    expect(await records.delete('rec1')).toBe(false);
    expect(await records.read('rec1')).toBeNull();
    expect(await records.update('rec1', second!.version, { views: 2 })).toBe(false);
    expect(await records.create('rec1', { views: 0 })).toBe(true);
  });

  it('deletes at a version only while the record is at it, and creates it again after', async () => {
    await expectDeleteAtVersion(one.records, 'cond1');
  });

  it('reads a tombstone a crash left (between its write and the removal) as absent, and creates over it', async () => {
    const { records } = one;
    const tombstone = JSON.stringify({ write: 'crashed', deleted: true });
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'hushdrop/records/crash1', Body: tombstone }),
    );
    expect(await records.read('crash1')).toBeNull();
    expect(await records.delete('crash1')).toBe(false);
    expect(await records.create('crash1', { n: 1 })).toBe(true);
    expect(await records.create('crash1', { n: 2 })).toBe(false);
    expect((await records.read('crash1'))?.value).toEqual({ n: 1 });
  });

  it('gives a new version even when the same value is written back (no A-B-A)', async () => {
    const { records } = one;
    await records.create('aba1', { n: 'A' });
    const a = await records.read('aba1');
    await records.update('aba1', a!.version, { n: 'B' });
    const b = await records.read('aba1');
    await records.update('aba1', b!.version, { n: 'A' });
    const again = await records.read('aba1');
    expect(again?.value).toEqual({ n: 'A' });
    expect(again?.version).not.toBe(a!.version);
    expect(await records.update('aba1', a!.version, { n: 'C' })).toBe(false);
  });

  it('lists live records with their versions, not deleted ones nor foreign objects', async () => {
    const { records } = one;
    await records.create('list1', { a: 1 });
    await records.create('list2', { a: 2 });
    await records.create('list3', { a: 3 });
    await records.delete('list3');
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'hushdrop/records/bad key', Body: '{}' }));
    const seen = new Map<string, unknown>();
    for await (const record of records.list()) {
      if (record.key.startsWith('list') || record.key.includes(' ')) seen.set(record.key, record);
    }
    expect(Object.fromEntries(seen)).toEqual({
      list1: { key: 'list1', value: { a: 1 }, version: expect.any(String) },
      list2: { key: 'list2', value: { a: 2 }, version: expect.any(String) },
    });
  });

  it('checks that the store enforces conditional writes, and leaves no probe behind', async () => {
    await one.records.verifyConditionalWrites();
    const left = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: 'hushdrop/records/.probe' }),
    );
    expect(left.Contents ?? []).toEqual([]);
  });

  it('refuses to create under a key that is not a plain name, and finds nothing under one', async () => {
    await expect(one.records.create('../x', {})).rejects.toThrow(/^Invalid record key\.$/);
    expect(await one.records.read('a/b')).toBeNull();
    expect(await one.records.update('a/b', 'v1', {})).toBe(false);
    expect(await one.records.delete('../x')).toBe(false);
  });

  it('treats what is not a record of ours as a store failure with a sentence', async () => {
    await client.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'hushdrop/records/junk1', Body: 'not json' }),
    );
    await expect(one.records.read('junk1')).rejects.toSatisfy(
      (err) => isStorageError(err, 'unreadable') && /object store is unreadable/.test(err.message),
    );
    const big = Buffer.alloc(1024 * 1024 + 1, 0x20);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'hushdrop/records/junk2', Body: big }));
    await expect(one.records.read('junk2')).rejects.toThrow(/too large to be one of ours/);
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'hushdrop/records/junk3',
        Body: '{"write":"x","value":[1]}',
      }),
    );
    await expect(one.records.read('junk3')).rejects.toThrow(/unreadable/);
    // A listing skips each of them, says which, and lists the rest.
    await one.records.create('fine1', { ok: true });
    const skipped: string[] = [];
    const listed: string[] = [];
    for await (const r of one.records.list({ onUnreadable: (key) => skipped.push(key) })) listed.push(r.key);
    expect(skipped.sort()).toEqual(['junk1', 'junk2', 'junk3']);
    expect(listed).toContain('fine1');
  });
});

describe('two instances at the same moment (100 races each, 10 at a time)', () => {
  it('a name is created by exactly one of them', async () => {
    const outcomes = await rounds(100, 10, async (round) => {
      const key = `clash${round}`;
      const [a, b] = await Promise.all([
        one.records.create(key, { by: 1 }),
        two.records.create(key, { by: 2 }),
      ]);
      // Whoever won, the other instance reads the winner's record.
      const read = await (a ? two : one).records.read(key);
      return `${a}/${b} ${JSON.stringify(read?.value)}`;
    });
    expect(outcomes.filter((o) => o !== 'true/false {"by":1}' && o !== 'false/true {"by":2}')).toEqual([]);
  });

  it('a one-view link is delivered once', async () => {
    /** What an instance does on a GET: count the view if one is left, deliver only if its count won. */
    async function view(store: S3Storage, key: string): Promise<boolean> {
      for (;;) {
        const record = await store.records.read(key);
        if (!record) return false;
        const { views, maxViews } = record.value as { views: number; maxViews: number };
        if (views >= maxViews) return false;
        if (await store.records.update(key, record.version, { views: views + 1, maxViews })) return true;
        // Changed meanwhile: read again (the other instance's view, most likely).
      }
    }
    const delivered = await rounds(100, 10, async (round) => {
      const key = `oneview${round}`;
      await one.records.create(key, { views: 0, maxViews: 1 });
      const results = await Promise.all([view(one, key), view(two, key)]);
      return results.filter(Boolean).length;
    });
    expect(delivered.filter((n) => n !== 1)).toEqual([]);
  });

  it('a record is deleted by exactly one of them', async () => {
    const wins = await rounds(100, 10, async (round) => {
      const key = `del${round}`;
      await one.records.create(key, { n: round });
      const results = await Promise.all([one.records.delete(key), two.records.delete(key)]);
      expect(await two.records.read(key)).toBeNull();
      return results.filter(Boolean).length;
    });
    expect(wins.filter((n) => n !== 1)).toEqual([]);
  });
});
