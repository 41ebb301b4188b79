// What a deletion did, judged by its result: after the deletion link answers, the file's own URL
// is fetched again. 404/410 there means the file is gone, and anything served means it is not,
// whatever the answer said. The answer's words (Teknik: "has been Deleted" / "was unable to be
// Deleted"; other servers: "File deleted", …) only decide when the file's URL could not tell.
import { t } from '../i18n';
export type DeletionOutcome = 'deleted' | 'refused' | 'gone';

export interface DeletionVerdict {
  outcome: DeletionOutcome;
  /** Whether the file's URL confirmed it (false: only the answer's words were left to go by). */
  confirmed: boolean;
}

/** The deletion link's answer. */
export interface DeletionAnswer {
  status: number;
  body: string;
}

const isOk = (status: number) => status >= 200 && status < 300;
const isGone = (status: number) => status === 404 || status === 410;
const isServed = (status: number) => status >= 200 && status < 400;

const REFUSAL =
  /\b(unable|could ?n[o']t|cannot|can't|failed|failure|invalid|wrong|denied|not (?:been )?deleted|not found)\b/i;
const SUCCESS = /\b(deleted|removed|erased)\b/i;

function words(body: string): string {
  return body.replace(/<[^>]*>/g, ' ');
}

/**
 * @param fileStatus the HTTP status of the file's URL fetched after the deletion link answered,
 *   or undefined when that fetch failed.
 */
export function judgeDeletion(answer: DeletionAnswer, fileStatus: number | undefined): DeletionVerdict {
  const text = words(answer.body);
  const refusedInWords = REFUSAL.test(text);
  if (fileStatus !== undefined && isServed(fileStatus)) return { outcome: 'refused', confirmed: true };
  if (fileStatus !== undefined && isGone(fileStatus)) {
    // Not served any more; it was this deletion that removed it only if the link said it worked.
    const linkWorked = isOk(answer.status) && !refusedInWords;
    return { outcome: linkWorked ? 'deleted' : 'gone', confirmed: true };
  }
  // The file's URL did not tell (network error, 5xx, 401…): the link's answer is all there is.
  if (isGone(answer.status)) return { outcome: 'gone', confirmed: false };
  const saysDeleted = isOk(answer.status) && SUCCESS.test(text) && !refusedInWords;
  return { outcome: saysDeleted ? 'deleted' : 'refused', confirmed: false };
}

export function deletionMessage({ outcome, confirmed }: DeletionVerdict): string {
  switch (outcome) {
    case 'deleted':
      return t(confirmed ? 'deletedConfirmed' : 'deletedSaid');
    case 'gone':
      return t('deletedGone');
    case 'refused':
      return t(confirmed ? 'refusedConfirmed' : 'refusedUnchecked');
  }
}
