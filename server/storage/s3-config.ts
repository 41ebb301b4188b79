// Settings of the S3 store: `STORAGE_URL=s3://<bucket>/<prefix>` plus the AWS SDK's standard variables
// (AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN). Read from an env object given by the caller, so nothing here reads process.env.

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

// Bucket names as S3 allows them (3–63 of a-z 0-9 . -, starting and ending with a letter or digit).
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Splits `s3://bucket/some/prefix` into the bucket and a prefix that is '' or ends in '/'. */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/?#]+)(?:\/([^?#]*))?$/.exec(url.trim());
  if (!match) {
    throw new S3ConfigError(`STORAGE_URL must look like s3://<bucket>/<prefix>, not ${JSON.stringify(url)}.`);
  }
  const bucket = match[1]!;
  if (!BUCKET.test(bucket)) {
    throw new S3ConfigError(
      `The bucket name ${JSON.stringify(bucket)} in STORAGE_URL is not a valid S3 bucket name (3–63 of a–z, 0–9, '.', '-').`,
    );
  }
  const path = (match[2] ?? '').replace(/^\/+/, '');
  if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new S3ConfigError(`The prefix in STORAGE_URL must not contain '.' or '..' segments.`);
  }
  const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
  return { bucket, prefix };
}

function endpointFrom(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new S3ConfigError(`${name} must be an http:// or https:// address, not ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new S3ConfigError(`${name} must be an http:// or https:// address, not ${JSON.stringify(value)}.`);
  }
  return value;
}

type Env = Record<string, string | undefined>;

/** The settings for `storageUrl` from `env` (the SDK's variable names), with `overrides` on top. */
export function s3Settings(storageUrl: string, env: Env, overrides: Partial<S3Settings> = {}): S3Settings {
  const { bucket, prefix } = parseStorageUrl(storageUrl);
  const endpointVar = env.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL';
  const endpointValue = env[endpointVar];
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new S3ConfigError(
      accessKeyId
        ? 'AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not; set both, or neither to use the SDK’s other sources.'
        : 'AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not; set both, or neither to use the SDK’s other sources.',
    );
  }
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
