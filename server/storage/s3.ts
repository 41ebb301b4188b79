// The S3 store: blobs and records in one bucket under one prefix, shared by any number of server
// instances (nothing else is shared). Opening it does not contact the store, so a server starts while
// the store is down and answers 503 until it is back; `check()` says whether it answers.
//
//   const storage = openS3Storage(s3Settings(env.STORAGE_URL, env));

import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { StorageError } from './errors';
import { S3Blobs } from './s3-blobs';
import { createS3Client, deadline } from './s3-client';
import type { S3Settings } from './s3-config';
import { s3Error, s3Status } from './s3-errors';
import { S3Records } from './s3-records';
import type { Storage } from './types';

export interface S3Storage extends Storage {
  blobs: S3Blobs;
  records: S3Records;
  readonly settings: S3Settings;
}

export function openS3Storage(settings: S3Settings): S3Storage {
  const client = createS3Client(settings);
  // The origin only: an endpoint written with user:password@ keeps them out of logs.
  const where = settings.endpoint ? ` at ${new URL(settings.endpoint).origin}` : ` in ${settings.region}`;
  return {
    blobs: new S3Blobs(client, settings),
    records: new S3Records(client, settings),
    settings,
    description: `s3://${settings.bucket}/${settings.prefix}${where}`,
    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: settings.bucket }), {
          abortSignal: deadline(settings),
        });
      } catch (err) {
        // HEAD answers carry no error code: a 404 here can only be the bucket.
        if (s3Status(err) === 404) {
          throw new StorageError(
            'unavailable',
            `The bucket ${settings.bucket} does not exist in the object store.`,
          );
        }
        throw s3Error(err, 'checking the bucket');
      }
    },
    async close() {
      client.destroy();
    },
  };
}
