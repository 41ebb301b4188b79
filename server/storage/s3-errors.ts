// Maps what the S3 client throws (service errors, network errors, timeouts) to StorageError, so that
// the server answers 503 (or 507) with a sentence saying what went wrong, and nothing raw leaks out.

import { StorageError } from './errors';

const CREDENTIALS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'CredentialsProviderError',
]);
const FULL = new Set(['QuotaExceeded', 'EntityTooLarge', 'InsufficientCapacity']);
const NETWORK = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

interface SdkErrorShape {
  name?: string;
  code?: string;
  Code?: string;
  message?: string;
  cause?: unknown;
  $metadata?: { httpStatusCode?: number };
}

function shape(err: unknown): SdkErrorShape {
  return typeof err === 'object' && err !== null ? (err as SdkErrorShape) : {};
}

/** The HTTP status the store answered with, when it answered. */
export function s3Status(err: unknown): number | undefined {
  return shape(err).$metadata?.httpStatusCode;
}

/** The store's error code (e.g. NoSuchKey, PreconditionFailed), or the SDK's error name. */
export function s3Code(err: unknown): string | undefined {
  const e = shape(err);
  return e.Code ?? e.name;
}

function isTimeout(e: SdkErrorShape): boolean {
  return (
    e.name === 'TimeoutError' ||
    e.code === 'ETIMEDOUT' ||
    e.code === 'ESOCKETTIMEDOUT' ||
    // The SDK wraps an AbortSignal.timeout() that fired as an AbortError caused by a TimeoutError.
    (e.name === 'AbortError' && shape(e.cause).name === 'TimeoutError')
  );
}

/**
 * The StorageError for `err`, thrown while doing `what` (e.g. "storing an upload"). The sentences may
 * reach uploaders, so they never name the store's address; the cause (for the log) does.
 */
export function s3Error(err: unknown, what: string): StorageError {
  if (err instanceof StorageError) return err;
  const e = shape(err);
  const code = s3Code(err);
  const status = s3Status(err);
  const cause = { cause: err };
  if (code === 'NoSuchBucket') {
    return new StorageError(
      'unavailable',
      `The bucket does not exist in the object store (while ${what}).`,
      cause,
    );
  }
  if (code !== undefined && CREDENTIALS.has(code)) {
    return new StorageError(
      'unavailable',
      `The object store refused the server's credentials (${code}) while ${what}; check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.`,
      cause,
    );
  }
  if (code !== undefined && FULL.has(code)) {
    return new StorageError('full', `The object store has no room for this (${code}) while ${what}.`, cause);
  }
  if (isTimeout(e)) {
    return new StorageError('unavailable', `The object store did not answer in time while ${what}.`, cause);
  }
  if (e.code !== undefined && NETWORK.has(e.code)) {
    return new StorageError(
      'unavailable',
      `The object store cannot be reached (${e.code}) while ${what}.`,
      cause,
    );
  }
  if (status !== undefined && status >= 500) {
    return new StorageError(
      'unavailable',
      `The object store failed (${status} ${code}) while ${what}.`,
      cause,
    );
  }
  if (status !== undefined) {
    return new StorageError(
      'unavailable',
      `The object store refused a request (${status} ${code}) while ${what}.`,
      cause,
    );
  }
  const detail = e.message || String(err);
  return new StorageError(
    'unavailable',
    `The object store could not be used while ${what}: ${detail}`,
    cause,
  );
}
