// How a failed job is told: one sentence for the person, plus the server's own words when it gave
// some. The popup, the notifications, the upload page and Test connection all say it this way.
import { t } from '../i18n';
import { type Profile, tooLargeSentence } from '../settings';
import { UploadError } from '../upload';
import { learnedLimit, type SizeLimit } from '../upload/limit';
import type { JobState } from './model';

/**
 * What a person can do about a failure, offered as a button beside its sentence: fix the server's
 * settings (an address that did not answer, a wrong account), or send the file to another server
 * (it is over this one's limit, so trying again cannot work).
 */
export type WayOut = 'settings' | 'another-server';

/** A failure whose message already is the sentence for the person (not "Something went wrong: …"). */
export class JobError extends Error {
  override name = 'JobError';
  readonly wayOut?: WayOut;
  constructor(message: string, wayOut?: WayOut) {
    super(message);
    if (wayOut) this.wayOut = wayOut;
  }
}

export interface ErrorText {
  message: string;
  /** The server's own words: untrusted, shown as text and quoted as the server's. */
  detail?: string;
  wayOut?: WayOut;
}

/** The way out of an upload failure, by its kind; none where only the server can help. */
function uploadWayOut(err: UploadError): WayOut | undefined {
  switch (err.kind) {
    case 'too-large':
      return 'another-server';
    case 'network':
    case 'timeout':
    case 'unauthorized':
    case 'bad-response':
    case 'settings':
      return 'settings';
    case 'http':
      // No upload service at this address (404, 405): the address in the settings is wrong.
      return err.status === 404 || err.status === 405 ? 'settings' : undefined;
    default:
      return undefined;
  }
}

/** A sentence for the person, plus the server's own words when there are some (shown as text). */
export function describeError(err: unknown): ErrorText {
  if (err instanceof UploadError) {
    const wayOut = uploadWayOut(err);
    return {
      message: err.message,
      ...(err.serverMessage !== undefined && { detail: err.serverMessage }),
      ...(wayOut && { wayOut }),
    };
  }
  if (err instanceof JobError) return { message: err.message, ...(err.wayOut && { wayOut: err.wayOut }) };
  if (err instanceof DOMException && err.name === 'QuotaExceededError')
    return { message: t('errorDiskFull') };
  if (err instanceof DOMException && err.name === 'AbortError') return { message: t('uploadCancelled') };
  if (err instanceof DOMException && err.name === 'NotReadableError')
    return { message: t('errorUnreadable') };
  const text = err instanceof Error ? err.message : String(err);
  return { message: t('errorOther', text) };
}

/**
 * A refusal for size (HTTP 413): what it taught about the profile's limit, and the sentence that
 * says so. Undefined for every other error.
 */
export function sizeRefusal(
  err: unknown,
  profile: Profile,
  size: number,
): (ErrorText & { limit: SizeLimit }) | undefined {
  if (!(err instanceof UploadError) || err.kind !== 'too-large') return undefined;
  const limit = learnedLimit(err.serverMessage, size);
  return {
    limit,
    message: tooLargeSentence(profile, limit),
    detail: err.serverMessage,
    wayOut: 'another-server',
  };
}

/** The sentence followed by "The server said: …" when the server gave words of its own. */
export function withServerWords(message: string, detail: string | undefined): string {
  return detail ? `${message} ${t('serverSaid', detail)}` : message;
}

/** What a failed or cancelled job says, in one line (popup, notification). */
export function jobErrorText(job: Pick<JobState, 'error' | 'errorDetail'>): string {
  return withServerWords(job.error ?? t('uploadFailed'), job.errorDetail);
}
