// Helpers of the S3 tests: the shared Ceph gateway (from globalSetup), a raw S3 client, fresh buckets,
// the S3 layer's settings for a bucket, and streams of known bytes.

import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CreateBucketCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import type { CephInfo } from '../../devkit/ceph';
import type { S3Storage } from '../../server/storage/s3';
import { type S3Settings, s3Settings } from '../../server/storage/s3-config';

export const MiB = 1024 * 1024;

export function ceph(): CephInfo {
  return inject('ceph');
}

/** A plain SDK client on `endpoint` (default: the shared gateway), set up as the layer sets up its own. */
export function rawClient(
  endpoint = ceph().endpoint,
  credentials?: S3Client['config']['credentials'],
): S3Client {
  const info = ceph();
  return new S3Client({
    endpoint,
    region: info.region,
    forcePathStyle: true,
    credentials: credentials ?? { accessKeyId: info.accessKeyId, secretAccessKey: info.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export async function freshBucket(client: S3Client): Promise<string> {
  const bucket = `t-${randomBytes(6).toString('hex')}`;
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
}

/** The layer's settings for `bucket` on `endpoint`, as STORAGE_URL and the AWS_* variables give them. */
export function settingsFor(
  bucket: string,
  overrides: Partial<S3Settings> = {},
  env: Record<string, string> = {},
): S3Settings {
  const info = ceph();
  return s3Settings(
    `s3://${bucket}/hushdrop/`,
    {
      AWS_ENDPOINT_URL_S3: info.endpoint,
      AWS_REGION: info.region,
      AWS_ACCESS_KEY_ID: info.accessKeyId,
      AWS_SECRET_ACCESS_KEY: info.secretAccessKey,
      ...env,
    },
    overrides,
  );
}

/** `size` pseudo-random bytes, produced in 64 KiB chunks as they are read; `digest()` once consumed. */
export function patternStream(
  size: number,
  seed = 1,
  /** Give no byte past this many until `release()` is called: the stream cannot end before the test says. */
  holdAt = Number.POSITIVE_INFINITY,
): { stream: Readable; digest(): string; pulled(): number; release(): void } {
  const hash = createHash('sha256');
  let produced = 0;
  let held = false;
  let state = seed >>> 0 || 1;
  const chunk = Buffer.alloc(64 * 1024);
  /** Pushes the next chunk (or the end) into `stream`. */
  const next = (stream: Readable) => {
    if (produced >= size) return void stream.push(null);
    const n = Math.min(chunk.length, size - produced);
    // xorshift32: cheap bytes that differ per seed and per position.
    for (let i = 0; i < n; i += 4) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      chunk.writeUInt32LE(state >>> 0, i);
    }
    const piece = Buffer.from(chunk.subarray(0, n));
    hash.update(piece);
    produced += n;
    stream.push(piece);
  };
  const stream = new Readable({
    read() {
      if (produced >= holdAt) held = true;
      else next(this);
    },
  });
  return {
    stream,
    digest: () => hash.digest('hex'),
    pulled: () => produced,
    release() {
      holdAt = Number.POSITIVE_INFINITY;
      // The read() that found the stream held is still waiting for a chunk (Node asks no more until one comes).
      if (held) {
        held = false;
        next(stream);
      }
    },
  };
}

export async function sha256Of(stream: Readable): Promise<{ digest: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { digest: hash.digest('hex'), size };
}

/** Multipart uploads open in `bucket` (through the shared gateway). */
export async function openUploads(client: S3Client, bucket: string): Promise<string[]> {
  const answer = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return (answer.Uploads ?? []).map((u) => `${u.Key} ${u.UploadId}`);
}

/** Removes what a test left in `bucket`: the in-memory OSD holds every byte until then. */
export async function emptyBucket(client: S3Client, bucket: string): Promise<void> {
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  for (const u of uploads.Uploads ?? []) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: u.Key, UploadId: u.UploadId }));
  }
  for (;;) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
    if (!page.Contents?.length) return;
    for (const object of page.Contents)
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
  }
}

/** Runs `round(0…count-1)`, `together` of them at a time (each round is a race of its own). */
export async function rounds<T>(
  count: number,
  together: number,
  round: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < count; start += together) {
    const batch = Array.from({ length: Math.min(together, count - start) }, (_, i) => round(start + i));
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

/** Whether the blob `id` of `storage` is visible as an object, asked through `client`. */
export async function blobVisible(client: S3Client, storage: S3Storage, id: string): Promise<boolean> {
  try {
    await client.send(
      new HeadObjectCommand({ Bucket: storage.settings.bucket, Key: storage.blobs.keyOf(id) }),
    );
    return true;
  } catch {
    return false;
  }
}
