import { t } from '../lib/i18n';
import { type Profile, tooLargeSentence } from '../lib/settings';
import { UploadError } from '../lib/upload';
import { learnedLimit, type SizeLimit } from '../lib/upload/limit';

/** A sentence for the person, plus the server's own words when there are some (shown as text). */
export function describeError(err: unknown): { message: string; detail?: string } {
  if (err instanceof UploadError) return { message: err.message, detail: err.serverMessage };
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
