// What a running job's progress reads as: "3.4 of 20 MiB · 12 s left", in the person's language.
import { formatBytesOf, t } from '../i18n';

/** 12_300 → "13 s"; 200_000 → "4 min"; 4_000_000 → "1 h 7 min". Rounded up: a promise kept early. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return t('secondsShort', seconds);
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return t('minutesShort', minutes);
  return t('hoursMinutesShort', Math.floor(minutes / 60), minutes % 60);
}

/** The bytes of the file done out of its own size, and the time left once it can be told. */
export function progressDetail(done: number, total: number, msLeft?: number): string {
  const amount = formatBytesOf(done, total);
  return msLeft === undefined ? amount : t('progressDetail', amount, t('timeLeft', formatTimeLeft(msLeft)));
}
