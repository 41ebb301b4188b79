// Settings of the S3 store: `STORAGE_URL=s3://<bucket>/<prefix>` plus the AWS SDK's standard variables
// (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN). Read from an env object given by the caller, so nothing here reads process.env.
// The checks are the config schema's (config/schema.ts); the part size is checked for settings made in code.

import { z } from 'zod';
import { endpointSchema, splitStorageUrl, storageUrlSchema } from '../config/schema';

/** A setting that cannot work, with a sentence that names it. */
export class S3ConfigError extends Error {
  override readonly name = 'S3ConfigError';
}

export interface S3Settings {
  bucket: string;
  /** Prepended to every key: '' or ending in '/'. */
  prefix: string;
  /** e.g. http://127.0.0.1:7480 for a self-hosted store; absent: AWS's endpoint for the region. */
  endpoint?: string;
  region: string;
  /** Absent: the SDK's default chain (shared config files, container or instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Bytes per part of a multipart upload (at least 5 MiB, S3's minimum). */
  partSize: number;
  /** Parts sent at the same time; an upload holds (partsInFlight + 2) × partSize in memory at most. */
  partsInFlight: number;
  /** Longest wait for a TCP connection. */
  connectTimeoutMs: number;
  /** Longest wait from sending a request (a part's bytes included) to the answer's headers. */
  requestTimeoutMs: number;
  /** Longest a download waits for the store's next bytes when its reader wants some. */
  readIdleTimeoutMs: number;
  /** Tries of each request, the first included (the SDK retries throttling, 5xx and network errors). */
  maxAttempts: number;
}

export const MIN_PART_SIZE = 5 * 1024 * 1024;

export const S3_DEFAULTS = {
  partSize: 8 * 1024 * 1024,
  partsInFlight: 2,
  connectTimeoutMs: 5_000,
  requestTimeoutMs: 20_000,
  readIdleTimeoutMs: 20_000,
  maxAttempts: 2,
} satisfies Partial<S3Settings>;

/** Splits `s3://bucket/some/prefix` into the bucket and a prefix that is '' or ends in '/' (schema.ts checks it). */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const checked = storageUrlSchema.safeParse(url);
  if (!checked.success)
    throw new S3ConfigError(checked.error.issues[0]!.message.replace('{input}', JSON.stringify(url)));
  return splitStorageUrl(checked.data);
}

function endpointFrom(value: string, name: string): string {
  const checked = endpointSchema.safeParse(value);
  if (!checked.success) throw new S3ConfigError(checked.error.issues[0]!.message.replace('{name}', name));
  return value;
}

/** The SDK's credentials come in pairs: a key id without its secret (or the other way) is a mistake. */
const credentialsSchema = z
  .object({ AWS_ACCESS_KEY_ID: z.string().optional(), AWS_SECRET_ACCESS_KEY: z.string().optional() })
  .refine(
    (v) => !v.AWS_ACCESS_KEY_ID || Boolean(v.AWS_SECRET_ACCESS_KEY),
    'AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not; set both, or neither to use the SDK’s other sources.',
  )
  .refine(
    (v) => !v.AWS_SECRET_ACCESS_KEY || Boolean(v.AWS_ACCESS_KEY_ID),
    'AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not; set both, or neither to use the SDK’s other sources.',
  );

type Env = Record<string, string | undefined>;

/** The settings for `storageUrl` from `env` (the SDK's variable names), with `overrides` on top. */
export function s3Settings(storageUrl: string, env: Env, overrides: Partial<S3Settings> = {}): S3Settings {
  const { bucket, prefix } = parseStorageUrl(storageUrl);
  const endpointVar = env.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL';
  const endpointValue = env[endpointVar];
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  const pair = credentialsSchema.safeParse(env);
  if (!pair.success) throw new S3ConfigError(pair.error.issues[0]!.message);
  const settings: S3Settings = {
    bucket,
    prefix,
    endpoint: endpointValue ? endpointFrom(endpointValue, endpointVar) : undefined,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    credentials:
      accessKeyId && secretAccessKey
        ? {
            accessKeyId,
            secretAccessKey,
            ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
          }
        : undefined,
    ...S3_DEFAULTS,
    ...overrides,
  };
  if (!Number.isSafeInteger(settings.partSize) || settings.partSize < MIN_PART_SIZE) {
    throw new S3ConfigError(`The part size must be at least ${MIN_PART_SIZE} bytes (5 MiB), S3's minimum.`);
  }
  if (!Number.isSafeInteger(settings.partsInFlight) || settings.partsInFlight < 1) {
    throw new S3ConfigError('At least one part must be allowed in flight.');
  }
  return settings;
}
