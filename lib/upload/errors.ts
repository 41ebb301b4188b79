import { t } from '../i18n';
export type UploadErrorKind =
  /** HTTP 200 carrying the server's own refusal (`{"error":{"message":…}}`). */
  | 'rejected'
  /** Any other HTTP error status. */
  | 'http'
  /** HTTP 413. */
  | 'too-large'
  /** HTTP 401 or 403. */
  | 'unauthorized'
  /** A success status whose body is not an upload result. */
  | 'bad-response'
  /** The connection failed or broke off. */
  | 'network'
  /** Cancelled by the caller. */
  | 'aborted'
  /** No progress for too long. */
  | 'timeout'
  /**
   * A streamed body was refused before the server could have taken it (no HTTP/2: the browser
   * streams request bodies only over HTTP/2). The upload pipeline sends it another way.
   */
  | 'stream-refused'
  /**
   * An upload in parts whose session the server no longer holds (it expired, or was removed, while
   * the connection was down): the file must be sent again, as a new upload.
   */
  | 'session-gone'
  /** The settings or arguments cannot make a request (e.g. a server address that is not a web address). */
  | 'settings';

/**
 * Why an upload failed. `message` is a sentence for the person; `serverMessage` is the
 * server's own text when there is one — untrusted, to be shown as plain text only.
 */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly kind: UploadErrorKind;
  readonly status?: number;
  readonly serverMessage?: string;

  constructor(
    kind: UploadErrorKind,
    message: string,
    details: { status?: number; serverMessage?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    if (details.status !== undefined) this.status = details.status;
    if (details.serverMessage !== undefined) this.serverMessage = details.serverMessage;
  }
}

/** The sentence of each kind of failure (looked up when made: messages follow the browser's language). */
export const MESSAGES = {
  get network() {
    return t('uploadNetwork');
  },
  get aborted() {
    return t('uploadCancelled');
  },
  get timeout() {
    return t('uploadTimeout');
  },
  get badResponse() {
    return t('uploadBadResponse');
  },
  get tooLarge() {
    return t('uploadTooLarge');
  },
  get unauthorized() {
    return t('uploadUnauthorized');
  },
  get streamRefused() {
    return t('uploadStreamRefused');
  },
};

/**
 * The connection failed or broke off. With the server's address (known to sendUpload, not to a
 * transport) the sentence names it, so the person sees which setting to check.
 */
export function networkError(cause?: unknown, address?: string): UploadError {
  return new UploadError('network', address ? t('uploadNothingAnswered', address) : MESSAGES.network, {
    cause,
  });
}

export function abortedError(cause?: unknown): UploadError {
  return new UploadError('aborted', MESSAGES.aborted, { cause });
}

export function streamRefusedError(cause?: unknown): UploadError {
  return new UploadError('stream-refused', MESSAGES.streamRefused, { cause });
}

export function timeoutError(address?: string): UploadError {
  return new UploadError('timeout', address ? t('uploadTimeoutAt', address) : MESSAGES.timeout);
}

/**
 * A transport's failure told again with the address it was sending to: a network failure or a
 * silence names the server. Every other error is returned as it is.
 */
export function atAddress(error: UploadError, address: string): UploadError {
  if (error.kind === 'network') return networkError(error.cause, address);
  if (error.kind === 'timeout') return timeoutError(address);
  return error;
}

/** Why a link could not be opened (lib/upload/open.ts): a sentence for the person. */
export class OpenLinkError extends Error {
  override name = 'OpenLinkError';
}
