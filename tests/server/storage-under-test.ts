// Which store the server suite runs on. The `unit` Vitest project runs it on disk (the default); the `s3`
// project sets HUSHDROP_TEST_STORAGE=s3 and runs the same files on the shared Ceph gateway
// (tests/s3/global-setup.ts), each server under a fresh prefix of one bucket, as a deployment would.

import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { type S3Settings, s3Settings } from '../../server/storage/s3-config';
// Declares what the S3 project's global setup provides (inject('ceph')).
import type {} from '../s3/global-setup';

export const SUITE_BUCKET = 'hushdrop-server-suite';

export function storageUnderTest(): 'disk' | 's3' {
  return process.env.HUSHDROP_TEST_STORAGE === 's3' ? 's3' : 'disk';
}

let bucketMade: Promise<void> | null = null;

async function makeBucket(env: Record<string, string>): Promise<void> {
  const client = new S3Client({
    endpoint: env.AWS_ENDPOINT_URL_S3,
    region: env.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: SUITE_BUCKET }));
  } catch (err) {
    // Another test file of the run made it first.
    if ((err as Error).name !== 'BucketAlreadyOwnedByYou' && (err as Error).name !== 'BucketAlreadyExists')
      throw err;
  } finally {
    client.destroy();
  }
}

/** The AWS_* variables of the shared Ceph gateway, as a deployment sets them. */
export function cephEnv(): Record<string, string> {
  const ceph = inject('ceph');
  return {
    AWS_ENDPOINT_URL_S3: ceph.endpoint,
    AWS_REGION: ceph.region,
    AWS_ACCESS_KEY_ID: ceph.accessKeyId,
    AWS_SECRET_ACCESS_KEY: ceph.secretAccessKey,
  };
}

/** Settings of a fresh prefix in the suite's bucket (made on first use), or undefined on disk. */
export async function s3ForTestServer(): Promise<S3Settings | undefined> {
  if (storageUnderTest() !== 's3') return undefined;
  const env = cephEnv();
  bucketMade ??= makeBucket(env);
  await bucketMade;
  return s3Settings(`s3://${SUITE_BUCKET}/${randomBytes(6).toString('hex')}/`, env);
}
