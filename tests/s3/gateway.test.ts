// What the Ceph RADOS Gateway (radosgw 16.2) does with the AWS SDK, measured rather than assumed: the
// S3 layer and the multi-instance design rest on these facts. Plain SDK calls here, no Hushdrop code.

import { randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../../devkit/ceph';
import {
  ceph,
  emptyBucket,
  freshBucket,
  openUploads,
  patternStream,
  rawClient,
  rounds,
  sha256Of,
} from './store';

let client: S3Client;
let bucket: string;

beforeAll(async () => {
  client = rawClient();
  bucket = await freshBucket(client);
});
afterAll(async () => {
  await emptyBucket(client, bucket);
  client.destroy();
});

/** The HTTP status of a failed call (undefined when it succeeded). */
async function statusOf(call: Promise<unknown>): Promise<number | undefined> {
  try {
    await call;
    return undefined;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === undefined) throw err;
    return status;
  }
}

const bare = (etag: string | undefined) => (etag ?? '').replaceAll('"', '');

describe('multipart uploads', () => {
  it('takes a stream of unknown length as parts and stores exactly its bytes', async () => {
    const source = patternStream(17 * 1024 * 1024 + 123, 7);
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: 'streamed', Body: source.stream },
      partSize: 5 * 1024 * 1024,
      queueSize: 2,
    });
    const parts: number[] = [];
    upload.on('httpUploadProgress', (p) => p.part !== undefined && parts.push(p.part));
    await upload.done();
    expect(Math.max(...parts)).toBe(4);
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'streamed' }));
    // A multipart object's ETag is "<md5 of the parts' md5s>-<number of parts>".
    expect(answer.ETag).toMatch(/^"[0-9a-f]{32}-4"$/);
    const read = await sha256Of(answer.Body as NodeJS.ReadableStream as never);
    expect(read).toEqual({ digest: source.digest(), size: 17 * 1024 * 1024 + 123 });
  });

  it('keeps an open upload invisible, lists it, and forgets it once aborted', async () => {
    const key = 'open-then-aborted';
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    await client.send(
      new UploadPartCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        PartNumber: 1,
        Body: randomBytes(5 * 1024 * 1024),
      }),
    );
    expect(await statusOf(client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })))).toBe(404);
    expect(await openUploads(client, bucket)).toContain(`${key} ${UploadId}`);

    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }));
    expect(await openUploads(client, bucket)).not.toContain(`${key} ${UploadId}`);
    expect(await statusOf(client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })))).toBe(404);
    // Aborting it again: the store no longer knows it. Completing it: refused too (500 on 16.2).
    expect(
      await statusOf(client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId }))),
    ).toBe(404);
    const complete = client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: '"x"' }] },
      }),
    );
    expect(await statusOf(complete)).toBe(500);
    expect(await statusOf(client.send(new HeadObjectCommand({ Bucket: bucket, Key: key })))).toBe(404);
  });
});

describe('ranged GET', () => {
  const body = Buffer.from('0123456789abcdefghij');
  beforeAll(() => client.send(new PutObjectCommand({ Bucket: bucket, Key: 'ranged', Body: body })));

  async function range(spec: string) {
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'ranged', Range: spec }));
    return { bytes: await answer.Body!.transformToString(), contentRange: answer.ContentRange };
  }

  it('answers start-end, open-ended and suffix ranges with Content-Range', async () => {
    expect(await range('bytes=2-5')).toEqual({ bytes: '2345', contentRange: 'bytes 2-5/20' });
    expect(await range('bytes=15-')).toEqual({ bytes: 'fghij', contentRange: 'bytes 15-19/20' });
    expect(await range('bytes=-3')).toEqual({ bytes: 'hij', contentRange: 'bytes 17-19/20' });
    // An end past the object is cut to its last byte.
    expect(await range('bytes=18-100')).toEqual({ bytes: 'ij', contentRange: 'bytes 18-19/20' });
  });

  it('refuses a range that starts past the end with 416', async () => {
    expect(
      await statusOf(
        client.send(new GetObjectCommand({ Bucket: bucket, Key: 'ranged', Range: 'bytes=20-25' })),
      ),
    ).toBe(416);
  });
});

describe('conditional writes', () => {
  it('If-None-Match: * creates a key once and refuses it after (412)', async () => {
    const put = (body: string) =>
      client.send(new PutObjectCommand({ Bucket: bucket, Key: 'once', Body: body, IfNoneMatch: '*' }));
    expect(await statusOf(put('first'))).toBeUndefined();
    expect(await statusOf(put('second'))).toBe(412);
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'once' }));
    expect(await answer.Body!.transformToString()).toBe('first');
  });

  it('If-Match replaces only the version named, and only with the bare ETag', async () => {
    const key = 'cas';
    const first = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'v1' }));
    const put = (body: string, IfMatch: string) =>
      client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, IfMatch }));
    // The quirk: the ETag as the SDK returns it (quoted, as RFC 7232 wants) never matches on 16.2.
    expect(first.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await statusOf(put('v2', first.ETag!))).toBe(412);
    expect(await statusOf(put('v2', bare(first.ETag)))).toBeUndefined();
    // Now stale.
    expect(await statusOf(put('v3', bare(first.ETag)))).toBe(412);
    expect(await statusOf(put('v3', 'f'.repeat(32)))).toBe(412);
    const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(await answer.Body!.transformToString()).toBe('v2');
    // If-Match on a key that does not exist: 412 here (AWS answers 404).
    expect(
      await statusOf(
        client.send(new PutObjectCommand({ Bucket: bucket, Key: 'absent', Body: 'x', IfMatch: 'abc' })),
      ),
    ).toBe(412);
  });

  it('an ETag is the MD5 of the content, so the same bytes give the same version back (A-B-A)', async () => {
    const a1 = await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'aba', Body: 'A' }));
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'aba', Body: 'B' }));
    const a2 = await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'aba', Body: 'A' }));
    expect(a2.ETag).toBe(a1.ETag);
  });

  it('DELETE ignores If-Match: there is no conditional delete on 16.2', async () => {
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'del', Body: 'x' }));
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: 'del', IfMatch: 'f'.repeat(32) }));
    expect(await statusOf(client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'del' })))).toBe(404);
  });
});

describe('conditional writes under real concurrency (two clients, two gateways, 100 rounds)', () => {
  let second: Gateway;
  let other: S3Client;
  beforeAll(async () => {
    second = await startGateway(ceph());
    other = rawClient(second.endpoint);
  });
  afterAll(async () => {
    other?.destroy();
    await second?.stop();
  });

  /** 'won' or the status of the refusal. */
  const attempt = (c: S3Client, command: PutObjectCommand) =>
    c.send(command).then(
      () => 'won',
      (err) => String((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode ?? err),
    );

  it('If-None-Match: * lets exactly one of two racing creates win, every time', async () => {
    const outcomes = await rounds(100, 10, async (round) => {
      const key = `race-create-${round}`;
      const results = await Promise.all([
        attempt(client, new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'a', IfNoneMatch: '*' })),
        attempt(other, new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'b', IfNoneMatch: '*' })),
      ]);
      return results.sort().join('/');
    });
    expect(outcomes.filter((o) => o === '412/won')).toHaveLength(100);
  });

  it('If-Match lets exactly one of two racing updates of the same version win; the loser gets 412 or 500', async () => {
    // 10 counters, each raced 10 times in a row by both clients: 100 races.
    const losers = (
      await rounds(10, 10, async (counter) => {
        const key = `race-update-${counter}`;
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: JSON.stringify({ n: 0 }) }));
        const lost: string[] = [];
        for (let round = 0; round < 10; round++) {
          const read = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
          const { n } = JSON.parse(await read.Body!.transformToString()) as { n: number };
          const update = (by: string) =>
            new PutObjectCommand({
              Bucket: bucket,
              Key: key,
              Body: `{"n":${n + 1},"by":"${by}"}`,
              IfMatch: bare(read.ETag),
            });
          const results = await Promise.all([attempt(client, update('a')), attempt(other, update('b'))]);
          expect(results.filter((r) => r === 'won')).toHaveLength(1);
          lost.push(results.find((r) => r !== 'won')!);
        }
        // Every race moved the counter by exactly one.
        const last = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        expect(JSON.parse(await last.Body!.transformToString()).n).toBe(10);
        return lost;
      })
    ).flat();
    expect(losers).toHaveLength(100);
    // radosgw answers a write that lost the race inside the store with 500 (ECANCELED), not 412.
    expect(losers.filter((status) => status !== '412' && status !== '500')).toEqual([]);
    const count = (status: string) => losers.filter((s) => s === status).length;
    console.log(`losers of 100 If-Match races: ${count('412')} got 412, ${count('500')} got 500`);
  });
});
