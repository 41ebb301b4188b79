// The one S3 client of a store, configured for S3-compatible servers, and bounded in time everywhere.

import { ListObjectsV2Command, type ListObjectsV2CommandOutput, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from './s3-config';
import { s3Error } from './s3-errors';

export function createS3Client(settings: S3Settings): S3Client {
  // Every part in flight of every upload holds a socket; the SDK's default of 50 would make parts wait
  // for one, and the request timeout runs while they wait.
  const agent = { keepAlive: true, maxSockets: 512 };
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: settings.credentials,
    // Self-hosted stores rarely have a DNS name per bucket.
    forcePathStyle: true,
    // Since 3.729 the SDK adds CRC32 checksums by default, which some S3-compatible servers refuse.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: settings.maxAttempts,
    requestHandler: {
      connectionTimeout: settings.connectTimeoutMs,
      // From the first byte sent to the answer's headers: covers a part's upload and a frozen store.
      // No socket idle timeout: a download's socket idles whenever its reader is slow (see
      // s3-read-stream.ts for the store's own stalls).
      requestTimeout: settings.requestTimeoutMs,
      throwOnRequestTimeout: true,
      httpAgent: agent,
      httpsAgent: agent,
    },
  });
}

/**
 * Bounds a whole operation (retries and reading a small answer included): the abort signal to pass
 * to `client.send`. Requests of one operation share it.
 */
export function deadline(settings: S3Settings, attempts = settings.maxAttempts): AbortSignal {
  return AbortSignal.timeout(attempts * (settings.connectTimeoutMs + settings.requestTimeoutMs));
}

export interface ListedObject {
  key: string;
  size: number;
  /** By the store's clock, in ms since the epoch. */
  modifiedAt: number;
}

/** Every object under `prefix`, page by page, each page bounded in time; failures as StorageError. */
export async function* listObjects(
  client: S3Client,
  settings: S3Settings,
  prefix: string,
  what: string,
): AsyncIterable<ListedObject> {
  let ContinuationToken: string | undefined;
  do {
    let page: ListObjectsV2CommandOutput;
    try {
      page = await client.send(
        new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: prefix, ContinuationToken }),
        { abortSignal: deadline(settings) },
      );
    } catch (err) {
      throw s3Error(err, what);
    }
    for (const object of page.Contents ?? []) {
      if (object.Key === undefined) continue;
      yield { key: object.Key, size: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}
