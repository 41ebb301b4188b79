// How a failed job is told: one sentence for the person, plus the server's own words when it gave
// some. The popup, the notifications, the upload page and Test connection all say it this way.
import { t } from '../i18n';
import { type Profile, tooLargeSentence } from '../settings';
import { UploadError } from '../upload';
import { learnedLimit, type SizeLimit } from '../upload/limit';
import type { JobState } from './model';

/** A failure whose message already is the sentence for the person (not "Something went wrong: …"). */
export class JobError extends Error {
  override name = 'JobError';
}

/** A sentence for the person, plus the server's own words when there are some (shown as text). */
export function describeError(err: unknown): { message: string; detail?: string } {
  if (err instanceof UploadError) return { message: err.message, detail: err.serverMessage };
  if (err instanceof JobError) return { message: err.message };
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
): { limit: SizeLimit; message: string; detail?: string } | undefined {
  if (!(err instanceof UploadError) || err.kind !== 'too-large') return undefined;
  const limit = learnedLimit(err.serverMessage, size);
  return { limit, message: tooLargeSentence(profile, limit), detail: err.serverMessage };
}

/** The sentence followed by "The server said: …" when the server gave words of its own. */
export function withServerWords(message: string, detail: string | undefined): string {
  return detail ? `${message} ${t('serverSaid', detail)}` : message;
}

/** What a failed or cancelled job says, in one line (popup, notification). */
export function jobErrorText(job: Pick<JobState, 'error' | 'errorDetail'>): string {
  return withServerWords(job.error ?? t('uploadFailed'), job.errorDetail);
}
