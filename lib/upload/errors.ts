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

export function networkError(cause?: unknown): UploadError {
  return new UploadError('network', MESSAGES.network, { cause });
}

export function abortedError(cause?: unknown): UploadError {
  return new UploadError('aborted', MESSAGES.aborted, { cause });
}

export function streamRefusedError(cause?: unknown): UploadError {
  return new UploadError('stream-refused', MESSAGES.streamRefused, { cause });
}

export function timeoutError(): UploadError {
  return new UploadError('timeout', MESSAGES.timeout);
}

/** Why a link could not be opened (lib/upload/open.ts): a sentence for the person. */
export class OpenLinkError extends Error {
  override name = 'OpenLinkError';
}
